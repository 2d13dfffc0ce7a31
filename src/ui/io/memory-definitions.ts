/**
 * LTM definitions as the Memory page holds them (texts by path, or a zip) and the one function
 * that loads them with the core's loaders; shared by the Memory session and the parse worker.
 */
import {
	loadLtmDefinitions,
	loadLtmSuite,
	loadLtmZip,
	type LoadDefinitionsOptions,
	type LoadResult,
} from '../../core/ltm';
import type { GivenLtmDefinitions } from '../../core/ltm/ltm-run-draft';

/** Loaded definitions as given: texts by path, or a zip (read by the core's `loadLtmZip`). */
export type MemoryDefinitions = GivenLtmDefinitions;

/**
 * Loads definitions from `{path → text}`: one `*.ltm-suite.json` (or a lone JSON that is not a
 * `.def.json`) is our suite format; otherwise upstream's `<Dataset Name>/<id>.def.json` + config.yml.
 */
export function loadMemoryDefinitions(
	files: ReadonlyMap<string, string>,
	options: { countTokens: (text: string) => number; memorySpan?: number; isolated?: boolean },
): LoadResult {
	const paths = [...files.keys()];
	const hasDefs = paths.some((path) => path.endsWith('.def.json'));
	const suitePath =
		paths.find((path) => /\.ltm-suite\.json$/iu.test(path)) ??
		(hasDefs ? undefined : paths.find((path) => /\.json$/iu.test(path)));
	if (suitePath !== undefined) {
		return loadLtmSuite(suitePath, files.get(suitePath) ?? '', options);
	}
	return loadLtmDefinitions(Object.fromEntries(files), options);
}

/** Loads given definitions with the run's options (memory span, isolation, token counter). */
export function loadGivenDefinitions(
	definitions: MemoryDefinitions,
	options: LoadDefinitionsOptions & { countTokens: (text: string) => number },
): LoadResult {
	return definitions.kind === 'zip'
		? loadLtmZip(definitions.name, definitions.bytes, options)
		: loadMemoryDefinitions(definitions.files, options);
}

/** The size of given definitions in bytes (UTF-16 code units for texts), to pick the thread. */
export function definitionsSize(definitions: MemoryDefinitions): number {
	if (definitions.kind === 'zip') return definitions.bytes.byteLength;
	let size = 0;
	for (const text of definitions.files.values()) size += text.length;
	return size;
}
