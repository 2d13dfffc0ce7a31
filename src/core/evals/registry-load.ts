/**
 * Loading a registry on the Evals page, the parts that are not I/O: how much is read where, the
 * entries of a dropped zip, the registry read from its files with every problem located at once,
 * and the page's words when nothing usable was dropped.
 */
import { entryText, unzipBounded } from '../formats/zip-archive';
import { dedupeProblems, type EvalsProblem } from './evals-problems';
import {
	listEvalNames,
	readRegistry,
	resolveEval,
	type Registry,
	type RegistryFiles,
} from './registry';
import { isRegistryZipEntry, registryProblemOf } from './registry-input';
import { registryPathOf } from './registry-path';

/** Dropped files over this many bytes in all are refused. */
export const MAX_REGISTRY_BYTES = 50 * 1024 * 1024;

/** Every eval of a registry this small is resolved on loading, so all problems show at once. */
export const CHECK_ALL_EVALS_UP_TO = 50;

export const REGISTRY_TOO_BIG_MESSAGE = 'These files are over 50 MB: drop a smaller registry.';

export const NO_REGISTRY_FILES_MESSAGE =
	'No registry files found: drop eval YAML files (evals/*.yaml), samples JSONL and modelgraded YAML, a folder holding them, or a zip.';

export const NO_EVAL_MESSAGE =
	'No eval in these files: an eval is an entry of a YAML file under evals/.';

/**
 * Where dropped files are read: refused (over {@link MAX_REGISTRY_BYTES}), in the parse worker
 * (with the registry loaded before, over `workerFromBytes`), or here.
 */
export function registryReadPlace(
	givenBytes: number,
	loadedChars: number,
	workerFromBytes: number,
): 'too-big' | 'worker' | 'here' {
	if (givenBytes > MAX_REGISTRY_BYTES) return 'too-big';
	return givenBytes + loadedChars > workerFromBytes ? 'worker' : 'here';
}

/** The registry entries (path → text) of a zip: its YAML and JSONL files, placed by content. */
export function zipRegistryEntries(name: string, bytes: Uint8Array): [string, string][] {
	return Object.entries(unzipBounded(name, bytes, isRegistryZipEntry)).map(([inner, data]) => {
		const text = entryText(data);
		return [registryPathOf(inner, text), text];
	});
}

/** A registry read from its files: its evals, and its problems located, each once. */
export interface LoadedRegistry {
	/** Null when the files do not read as a registry (the problem says why). */
	readonly registry: Registry | null;
	readonly evalNames: readonly string[];
	readonly problems: readonly EvalsProblem[];
}

/**
 * Reads files as a registry. With `checkEvals`, every eval of a small registry is resolved now,
 * so all problems show at once; an empty registry says what an eval is.
 */
export function loadRegistry(files: RegistryFiles, checkEvals: boolean): LoadedRegistry {
	if (files.size === 0) return { registry: null, evalNames: [], problems: [] };
	let registry: Registry;
	let evalNames: string[];
	try {
		registry = readRegistry(files);
		evalNames = listEvalNames(registry);
	} catch (error) {
		return { registry: null, evalNames: [], problems: [registryProblemOf(error)] };
	}
	const problems: EvalsProblem[] = evalNames.length === 0 ? [{ message: NO_EVAL_MESSAGE }] : [];
	if (checkEvals && evalNames.length <= CHECK_ALL_EVALS_UP_TO) {
		for (const name of evalNames) {
			try {
				resolveEval(registry, name);
			} catch (error) {
				problems.push(registryProblemOf(error));
			}
		}
	}
	return { registry, evalNames, problems: dedupeProblems(problems) };
}

/** The problems of a registry read in the parse worker, saying so when it has no eval. */
export function workerRegistryProblems(
	evalNames: readonly string[],
	problems: readonly EvalsProblem[],
): readonly EvalsProblem[] {
	return evalNames.length === 0 ? [...problems, { message: NO_EVAL_MESSAGE }] : problems;
}

/** The problem of picking an eval, or null when the page already lists one of its words. */
export function unlistedProblem(
	listed: readonly EvalsProblem[],
	problem: EvalsProblem,
): EvalsProblem | null {
	return listed.some((known) => known.message === problem.message) ? null : problem;
}
