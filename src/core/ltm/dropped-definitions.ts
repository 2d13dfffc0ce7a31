/**
 * Dropped or picked files as LTM definitions: which files count, the path each gets inside the
 * definitions, the drop's limits (one zip on its own, 50 MB in all) and the diagnostics that say
 * what is wrong with a drop. Pure: the caller reads the files.
 */
import type { LtmDiagnostic } from './shared/types';

/** The most bytes of definitions one drop may hold. */
export const MAX_DEFINITIONS_BYTES = 50 * 1024 * 1024;

/** What a drop's checks read of a file (a browser `File` has both). */
export interface DroppedFileFacts {
	readonly name: string;
	readonly size: number;
}

/** Whether a file is a zip (read by the core's `loadLtmZip`). */
export function isZipName(name: string): boolean {
	return /\.zip$/iu.test(name);
}

/** Whether a file belongs to definitions (upstream layout or our suite format). */
export function isDefinitionsPath(path: string): boolean {
	return /\.(def\.json|json|ya?ml)$/iu.test(path);
}

/** A dropped file's path inside the definitions: from its dataset folder's parent on. */
export function definitionsPathOf(path: string): string {
	const parts = path.replace(/\\/gu, '/').replace(/^\.\//u, '').split('/');
	if (/\.def\.json$/iu.test(path) && parts.length >= 2) return parts.slice(-2).join('/');
	return parts[parts.length - 1] ?? path;
}

/** A dropped file's path inside the drop: its folder path when a folder was dropped, else its name. */
export function droppedPathOf(file: {
	readonly name: string;
	readonly webkitRelativePath: string;
}): string {
	return file.webkitRelativePath || file.name;
}

/**
 * Checks a drop before anything is read: a zip comes alone, each file passes `checkFile` (the
 * page's per-file cap) and all together stay within MAX_DEFINITIONS_BYTES, file by file.
 * @throws Error that says what to drop instead (or what `checkFile` throws).
 */
export function checkDefinitionsDrop<F extends DroppedFileFacts>(
	files: readonly F[],
	checkFile: (file: F) => void,
): void {
	const zips = files.filter((file) => isZipName(file.name));
	if (zips.length > 0 && files.length > 1) {
		throw new Error(
			`${zips.map((file) => file.name).join(', ')}: drop a zip on its own (one zip, no other files).`,
		);
	}
	let bytes = 0;
	for (const file of files) {
		checkFile(file);
		bytes += file.size;
		if (bytes > MAX_DEFINITIONS_BYTES) {
			throw new Error('These files are over 50 MB: drop fewer definitions.');
		}
	}
}

/** A drop that could not be read, as the diagnostic shown (`message`: what went wrong). */
export function dropProblemDiagnostic(message: string): LtmDiagnostic {
	return { severity: 'error', path: '(files)', pointer: '', message };
}

/** The diagnostic of a drop with no definitions in it, naming the dropped files. */
export function noDefinitionsDiagnostic(names: readonly string[]): LtmDiagnostic {
	return {
		severity: 'error',
		path: names.join(', '),
		pointer: '',
		message:
			'no definitions found: drop <Dataset Name>/<id>.def.json files with config.yml (a folder or a zip), or an ltm-suite.json',
	};
}
