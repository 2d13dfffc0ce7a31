/**
 * The bundled example stimulus files (suites/stimuli/*.csv, our own sentences), read on demand as
 * Files, so the page reads them exactly as a picked file.
 */
const BUNDLED_FILES = import.meta.glob<string>('/suites/stimuli/*.csv', {
	query: '?raw',
	import: 'default',
});

/** The bundled examples' file names, sorted. */
export const BUNDLED_STIMULI: readonly string[] = Object.keys(BUNDLED_FILES)
	.map((path) => path.slice(path.lastIndexOf('/') + 1))
	.sort();

/** A bundled example as a File. @throws Error for a name that is not bundled. */
export async function bundledStimulusFile(name: string): Promise<File> {
	const load = BUNDLED_FILES[`/suites/stimuli/${name}`];
	if (load === undefined) throw new Error(`No bundled stimulus file is named ${name}.`);
	return new File([await load()], name, { type: 'text/csv' });
}
