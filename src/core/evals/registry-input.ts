/**
 * What the Evals page reads as a registry: which dropped or zipped files are registry files, how
 * files added to a loaded registry add up, the one-eval registry of pasted samples, the cards of a
 * registry's evals, and its problems as the page shows them (located once).
 */
import { formatLocation } from './shared/errors';
import { problemOf, type EvalsProblem } from './evals-problems';
import {
	readRegistry,
	registryFiles,
	resolveEval,
	type Registry,
	type RegistryFiles,
} from './registry';
import type { TemplateKind } from './shared/types';

/** Template classes a pasted JSONL can be run with. */
export const PASTE_TEMPLATES: Readonly<Record<Exclude<TemplateKind, 'modelgraded'>, string>> = {
	match: 'evals.elsuite.basic.match:Match',
	includes: 'evals.elsuite.basic.includes:Includes',
	fuzzy_match: 'evals.elsuite.basic.fuzzy_match:FuzzyMatch',
	json_match: 'evals.elsuite.basic.json_match:JsonMatch',
};

/** Whether a file name is a registry file (YAML or JSONL). */
export function isRegistryFileName(name: string): boolean {
	return /\.(ya?ml|jsonl)$/iu.test(name);
}

/** Whether a zip entry is read: a registry file, not a folder nor macOS metadata. */
export function isRegistryZipEntry(path: string): boolean {
	if (path.endsWith('/') || path.startsWith('__MACOSX/')) return false;
	return isRegistryFileName(path);
}

/**
 * A thrown registry problem as the page lists it: the location shown beside the message is not
 * repeated in it (`evals/a.yaml:4: YAML error: … at line 4, column 1:` becomes `YAML error: …
 * (column 1)` at `evals/a.yaml:4`).
 */
export function registryProblemOf(error: unknown): EvalsProblem {
	const problem = problemOf(error);
	const { location } = problem;
	if (!location) return problem;
	let message = problem.message;
	const line = location.line === undefined ? '' : `:${location.line}`;
	for (const prefix of [formatLocation(location), `${location.file}${line}`, location.file]) {
		if (message.startsWith(`${prefix}: `)) {
			message = message.slice(prefix.length + 2);
			break;
		}
	}
	if (location.line !== undefined) {
		message = message.replace(
			new RegExp(` at line ${location.line}, column (\\d+):?$`, 'u'),
			' (column $1)',
		);
	}
	return { ...problem, message };
}

/** Files added to a loaded registry: the loaded ones, each replaced by an added one of its path. */
export function addRegistryFiles(
	loaded: RegistryFiles,
	added: readonly (readonly [string, string])[],
): RegistryFiles {
	const merged = new Map(loaded);
	for (const [path, text] of added) merged.set(path, text);
	return registryFiles(merged);
}

/** What adding files to a loaded registry gives: the merged registry, or the problem that stops it. */
export type RegistryAddition =
	| { readonly ok: true; readonly files: RegistryFiles; readonly registry: Registry }
	| { readonly ok: false; readonly problem: EvalsProblem };

/**
 * Adds files to a loaded registry (see addRegistryFiles) and reads the result; when an added file
 * cannot be read (a broken eval or model-graded YAML), the problem, located, and nothing else: the
 * loaded registry stays as it was.
 */
export function addToRegistry(
	loaded: RegistryFiles,
	added: readonly (readonly [string, string])[],
): RegistryAddition {
	const files = addRegistryFiles(loaded, added);
	try {
		return { ok: true, files, registry: readRegistry(files) };
	} catch (error) {
		return { ok: false, problem: registryProblemOf(error) };
	}
}

/** The registry of pasted samples: one eval `pasted` of `template` over `data/pasted.jsonl`. */
export function pastedRegistryEntries(
	template: Exclude<TemplateKind, 'modelgraded'>,
	samplesJsonl: string,
): [string, string][] {
	const className = PASTE_TEMPLATES[template];
	const yaml = `pasted:\n  id: pasted.dev.v0\n  description: Samples pasted into the page\npasted.dev.v0:\n  class: ${className}\n  args:\n    samples_jsonl: pasted.jsonl\n`;
	return [
		['evals/pasted.yaml', yaml],
		['data/pasted.jsonl', samplesJsonl],
	];
}

/** A bundled example eval, shown as a card. */
export interface EvalsCard {
	readonly name: string;
	readonly description: string;
	readonly kind: TemplateKind | null;
	readonly sampleCount: number;
}

function stringField(value: unknown, key: string): string {
	if (value && typeof value === 'object' && !Array.isArray(value)) {
		const field = (value as Record<string, unknown>)[key];
		if (typeof field === 'string') return field;
	}
	return '';
}

/**
 * Cards of a registry's evals named by alias (names without a dot): description, template and
 * sample count; an eval that does not resolve shows no kind and 0 samples (its problem shows on
 * selection).
 */
export function evalCards(registry: Registry, evalNames: readonly string[]): EvalsCard[] {
	return evalNames
		.filter((name) => !name.includes('.'))
		.map((name) => {
			const entry = registry.evals.get(name);
			let kind: TemplateKind | null = null;
			let sampleCount = 0;
			try {
				const resolved = resolveEval(registry, name);
				kind = resolved.kind;
				sampleCount = resolved.samples.length;
			} catch {
				// Shown on selection.
			}
			return { name, description: stringField(entry?.value, 'description'), kind, sampleCount };
		});
}

/** One eval as a list shows it: the name to pick, and the id it points to (null: no alias). */
export interface EvalChoice {
	readonly name: string;
	readonly id: string | null;
}

/**
 * Each eval once: an alias (`capitals: {id: capitals.test.v1}`) with its id as detail, and the
 * ids no alias points to on their own. Order of `evalNames`.
 */
export function evalChoices(registry: Registry, evalNames: readonly string[]): EvalChoice[] {
	const targetOf = (name: string): string | null => {
		const value = registry.evals.get(name)?.value;
		if (typeof value === 'string') return value;
		const id = stringField(value, 'id');
		return id === '' ? null : id;
	};
	const pointedTo = new Set(
		evalNames.map(targetOf).filter((id): id is string => id !== null && id !== ''),
	);
	return evalNames
		.filter((name) => !pointedTo.has(name) || targetOf(name) !== null)
		.map((name) => ({ name, id: targetOf(name) }));
}
