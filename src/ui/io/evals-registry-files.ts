/**
 * Registry files as the Evals page reads them: the bundled example registry (loaded on demand),
 * dropped or picked files (YAML, JSONL, or a zip of a registry) read in the page, and a big
 * registry read, and its evals resolved, in the parse worker.
 */
import { isRegistryFileName, registryPathOf, type RegistryFiles } from '../../core/evals';
import { zipRegistryEntries } from '../../core/evals/registry-load';
import { formatNameList } from '../../core/text/format-count';
import { parseInputsClient, type ParseProgress } from './parse-inputs-client';
import type { ReadRegistryResult, ResolveEvalResult } from './parse-inputs-protocol';

/** Bundled example registry (suites/evals: evals/, data/, modelgraded/), loaded on demand. */
const BUNDLED_FILES = import.meta.glob<string>(
	['/suites/evals/**/*.yaml', '/suites/evals/**/*.yml', '/suites/evals/**/*.jsonl'],
	{ query: '?raw', import: 'default' },
);

/** The bundled example registry's entries (path → text). */
export function bundledRegistryEntries(): Promise<(readonly [string, string])[]> {
	return Promise.all(
		Object.entries(BUNDLED_FILES).map(
			async ([path, load]) => [path.replace('/suites/evals/', ''), await load()] as const,
		),
	);
}

/** A dropped file's path: inside its folder when a folder was dropped. */
export function droppedPath(file: File): string {
	return file.webkitRelativePath || file.name;
}

/** The dropped files' names as the page shows them (the first few, then how many more). */
export function droppedNames(files: readonly File[]): string {
	return formatNameList(files.map(droppedPath));
}

/** Registry entries (path → text) of dropped files: YAML and JSONL as they are, zips unpacked. */
export async function readDroppedEntries(files: readonly File[]): Promise<[string, string][]> {
	const entries: [string, string][] = [];
	for (const file of files) {
		if (/\.zip$/iu.test(file.name)) {
			entries.push(...zipRegistryEntries(file.name, new Uint8Array(await file.arrayBuffer())));
		} else if (isRegistryFileName(file.name)) {
			const text = await file.text();
			entries.push([registryPathOf(droppedPath(file), text), text]);
		}
	}
	return entries;
}

/**
 * Dropped files read, parsed, checked and hashed in the parse worker, over the files of the
 * registry loaded before (`loaded`; empty: a new registry).
 */
export function readRegistryInWorker(
	files: readonly File[],
	loaded: RegistryFiles,
	onProgress: (progress: ParseProgress) => void,
): Promise<ReadRegistryResult> {
	return parseInputsClient().call(
		'readRegistry',
		{ inputs: files.map((file) => ({ path: droppedPath(file), file })), previous: [...loaded] },
		{ onProgress },
	);
}

/** An eval of a registry read in the parse worker, resolved there. */
export function resolveEvalInWorker(
	files: RegistryFiles,
	name: string,
): Promise<ResolveEvalResult> {
	return parseInputsClient().call('resolveEval', { files: [...files], name });
}
