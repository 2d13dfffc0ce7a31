/**
 * An OpenAI Evals registry read from a virtual file map (`{path → text}`, paths relative to the
 * registry root: `evals/*.yaml`, `modelgraded/*.yaml`, `data/...`), as upstream `evals/registry.py`
 * and `Eval._prefix_registry_path` read a folder. YAML is read as PyYAML `safe_load` does (YAML
 * 1.1: `yes`/`no` are booleans). Every error names the file, line and field. Pure.
 */
import { LineCounter, isMap, isPair, isScalar, parseDocument, type Document } from 'yaml';
import type { ChatMessage } from '../model/generation';
import { EvalsError } from './errors';
import { BUILTIN_MODELGRADED_SPECS } from './modelgraded-specs';
import { containsAsciiPunctuation } from './python-text';
import { parseSamplesJsonl } from './samples-jsonl';
import type {
	ChoiceMatchFn,
	EvalsLocation,
	JsonValue,
	ModelGradedArgs,
	ModelGradedSpec,
	ResolvedEval,
	Sample,
	TemplateKind,
} from './types';

/** The registry's files: path (relative to the registry root, `/`-separated) → text. */
export type RegistryFiles = ReadonlyMap<string, string>;

/** One top-level entry of a registry YAML file. */
export interface RegistryEntry {
	readonly name: string;
	readonly file: string;
	readonly line: number;
	readonly value: JsonValue;
	/** Line of a field of the entry (`args.samples_jsonl`), or the entry's line. */
	readonly lineOf: (fieldPath: readonly string[]) => number;
}

/** A registry read from files: eval entries and model-graded spec entries by name. */
export interface Registry {
	readonly files: RegistryFiles;
	readonly evals: ReadonlyMap<string, RegistryEntry>;
	readonly modelgraded: ReadonlyMap<string, RegistryEntry>;
}

/** Upstream class path → template. */
export const TEMPLATE_CLASSES: Readonly<Record<string, TemplateKind>> = {
	'evals.elsuite.basic.match:Match': 'match',
	'evals.elsuite.basic.includes:Includes': 'includes',
	'evals.elsuite.basic.fuzzy_match:FuzzyMatch': 'fuzzy_match',
	'evals.elsuite.basic.json_match:JsonMatch': 'json_match',
	'evals.elsuite.modelgraded.classify:ModelBasedClassify': 'modelgraded',
};

/** Args each template accepts (an unknown arg raises upstream, so it is an error here too). */
const KNOWN_ARGS: Readonly<Record<TemplateKind, readonly string[]>> = {
	match: ['samples_jsonl', 'max_tokens', 'num_few_shot', 'few_shot_jsonl'],
	includes: ['samples_jsonl', 'ignore_case'],
	fuzzy_match: ['samples_jsonl', 'max_tokens'],
	json_match: ['samples_jsonl', 'max_tokens'],
	modelgraded: [
		'samples_jsonl',
		'modelgraded_spec',
		'modelgraded_spec_args',
		'sample_kwargs',
		'eval_kwargs',
		'multicomp_n',
		'eval_type',
		'match_fn',
		'metaeval',
	],
};

const RESERVED_KEYWORDS = ['key', 'group', 'cls'];
const MATCH_FNS: readonly ChoiceMatchFn[] = ['include', 'exact', 'endswith', 'starts_or_endswith'];

/** Builds a file map from `[path, text]` pairs, normalising `\` to `/` and dropping a leading `./`. */
export function registryFiles(entries: Iterable<readonly [string, string]>): RegistryFiles {
	const map = new Map<string, string>();
	for (const [path, text] of entries) map.set(normalizePath(path), text);
	return map;
}

function normalizePath(path: string): string {
	return path
		.replace(/\\/gu, '/')
		.replace(/^(\.\/)+/u, '')
		.replace(/\/{2,}/gu, '/');
}

function lineAt(counter: LineCounter, offset: number | undefined): number {
	return offset === undefined ? 1 : counter.linePos(offset).line;
}

/**
 * PyYAML's booleans: YAML 1.1's words except the single letters y / n (PyYAML reads `Y`, `N` as
 * strings, which model-graded choices rely on).
 */
const PYYAML_TRUE = /^(?:yes|Yes|YES|true|True|TRUE|on|On|ON)$/u;
const PYYAML_FALSE = /^(?:no|No|NO|false|False|FALSE|off|Off|OFF)$/u;

function pyyamlTags<T extends { tag: string; test?: RegExp }>(tags: T[]): T[] {
	return tags.map((tag) => {
		if (tag.tag !== 'tag:yaml.org,2002:bool' || !tag.test) return tag;
		return { ...tag, test: tag.test.test('yes') ? PYYAML_TRUE : PYYAML_FALSE };
	});
}

function readYamlEntries(path: string, text: string): RegistryEntry[] {
	const counter = new LineCounter();
	const doc: Document = parseDocument(text, {
		lineCounter: counter,
		version: '1.1',
		uniqueKeys: false,
		customTags: (tags) => pyyamlTags(tags as { tag: string; test?: RegExp }[]) as typeof tags,
	});
	const firstError = doc.errors[0];
	if (firstError) {
		const line = lineAt(counter, firstError.pos[0]);
		throw new EvalsError(
			`${path}:${line}: YAML error: ${firstError.message.split('\n')[0] ?? ''}`,
			{
				file: path,
				line,
			},
		);
	}
	const root = doc.contents;
	if (root === null || !isMap(root)) return [];
	const plainRoot = doc.toJS({ maxAliasCount: 1000 }) as Record<string, JsonValue>;
	const entries: RegistryEntry[] = [];
	for (const pair of root.items) {
		if (!isPair(pair) || !isScalar(pair.key)) continue;
		const keyValue: unknown = pair.key.value;
		const name = String(keyValue);
		const line = lineAt(counter, pair.key.range?.[0]);
		const plain = plainRoot[name] ?? null;
		entries.push({
			name,
			file: path,
			line,
			value: plain,
			lineOf: (fieldPath) => {
				const node = doc.getIn([keyValue, ...fieldPath], true) as
					{ range?: [number, number, number] } | undefined;
				return node?.range ? lineAt(counter, node.range[0]) : line;
			},
		});
	}
	return entries;
}

function readEntries(files: RegistryFiles, folder: string): Map<string, RegistryEntry> {
	const map = new Map<string, RegistryEntry>();
	const paths = [...files.keys()]
		.filter((path) => path.startsWith(`${folder}/`) && /\.ya?ml$/u.test(path))
		.filter((path) => !path.slice(folder.length + 1).includes('/'))
		.sort();
	for (const path of paths) {
		for (const entry of readYamlEntries(path, files.get(path) ?? '')) {
			const previous = map.get(entry.name);
			if (previous) {
				throw new EvalsError(
					`${path}:${entry.line}: duplicate entry '${entry.name}' (first defined at ${previous.file}:${previous.line}); rename one`,
					{ file: path, line: entry.line },
				);
			}
			if (entry.value !== null && typeof entry.value === 'object' && !Array.isArray(entry.value)) {
				for (const keyword of RESERVED_KEYWORDS) {
					if (Object.hasOwn(entry.value, keyword)) {
						throw new EvalsError(
							`${path}:${entry.lineOf([keyword])}: '${keyword}' is a reserved keyword, but was used in ${entry.name}; remove it`,
							{ file: path, line: entry.lineOf([keyword]), field: `${entry.name}.${keyword}` },
						);
					}
				}
			}
			map.set(entry.name, entry);
		}
	}
	return map;
}

/**
 * Reads every `evals/*.yaml` and `modelgraded/*.yaml` of a registry (YAML 1.1 as PyYAML; a
 * duplicate name or a reserved key `key`/`group`/`cls` is an error, as upstream).
 */
export function readRegistry(files: RegistryFiles): Registry {
	return {
		files,
		evals: readEntries(files, 'evals'),
		modelgraded: readEntries(files, 'modelgraded'),
	};
}

/** Eval names a user can run: every entry of `evals/*.yaml` (aliases and specs), sorted. */
export function listEvalNames(registry: Registry): string[] {
	return [...registry.evals.keys()].sort();
}

function isRecord(value: JsonValue | undefined): value is { readonly [key: string]: JsonValue } {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Upstream `_dereference`: follows a bare-string entry or an entry's `id` until an entry without
 * one. A name that is missing is an error naming close names; a loop is an error naming the chain.
 */
function dereference(
	entries: ReadonlyMap<string, RegistryEntry>,
	name: string,
	what: string,
): RegistryEntry {
	const chain: string[] = [name];
	let entry = entries.get(name);
	if (!entry) {
		const close = [...entries.keys()].filter((key) => key.startsWith(name.split('.')[0] ?? name));
		throw new EvalsError(
			`${what} '${name}' not found in the registry${close.length > 0 ? `; close names: ${close.slice(0, 5).join(', ')}` : ''}`,
		);
	}
	for (;;) {
		const value: JsonValue = entry.value;
		const alias =
			typeof value === 'string' ? value : isRecord(value) && 'id' in value ? value.id : undefined;
		if (alias === undefined) return entry;
		if (typeof alias !== 'string') {
			throw new EvalsError(
				`${entry.file}:${entry.lineOf(['id'])}: 'id' of ${entry.name} must be a name`,
				{
					file: entry.file,
					line: entry.lineOf(['id']),
					field: `${entry.name}.id`,
				},
			);
		}
		if (chain.includes(alias)) {
			throw new EvalsError(
				`${entry.file}:${entry.line}: alias loop ${[...chain, alias].join(' → ')}; point one id at a spec with a class`,
				{ file: entry.file, line: entry.line, field: `${entry.name}.id` },
			);
		}
		const next = entries.get(alias);
		if (!next) {
			throw new EvalsError(
				`${entry.file}:${entry.lineOf(['id'])}: ${entry.name} points to '${alias}', which is not in the registry`,
				{ file: entry.file, line: entry.lineOf(['id']), field: `${entry.name}.id` },
			);
		}
		chain.push(alias);
		entry = next;
	}
}

/**
 * Finds a JSONL file or folder as upstream `_prefix_registry_path` + `get_jsonl`: the path itself
 * if the map has it, else `data/<path>`; a folder gives the concatenation of its `*.jsonl` files
 * (direct children, sorted by name: upstream's order is the file system's). Each sample comes with
 * its file and line (every line of a samples file is one sample).
 */
export function readSamplesLocated(
	files: RegistryFiles,
	samplesPath: string,
	where: { file: string; line: number; field: string },
): { samples: Sample[]; locations: EvalsLocation[] } {
	const located = (paths: readonly string[]): { samples: Sample[]; locations: EvalsLocation[] } => {
		const samples: Sample[] = [];
		const locations: EvalsLocation[] = [];
		for (const path of paths) {
			const fileSamples = parseSamplesJsonl(files.get(path) ?? '', path);
			samples.push(...fileSamples);
			locations.push(...fileSamples.map((_, index) => ({ file: path, line: index + 1 })));
		}
		return { samples, locations };
	};
	const wanted = normalizePath(samplesPath);
	for (const candidate of [wanted, `data/${wanted}`]) {
		if (files.get(candidate) !== undefined) return located([candidate]);
	}
	for (const folder of [wanted, `data/${wanted}`]) {
		const prefix = `${folder.replace(/\/$/u, '')}/`;
		const children = [...files.keys()]
			.filter((path) => path.startsWith(prefix) && !path.slice(prefix.length).includes('/'))
			.filter((path) => path.endsWith('.jsonl'))
			.sort();
		if (children.length > 0) return located(children);
	}
	throw new EvalsError(
		`${where.file}:${where.line}: ${where.field} '${samplesPath}' not found (looked for data/${wanted} in the registry); add the file or fix the path`,
		where,
	);
}

/** `readSamplesLocated` without the locations. */
export function readSamplesFromRegistry(
	files: RegistryFiles,
	samplesPath: string,
	where: { file: string; line: number; field: string },
): Sample[] {
	return readSamplesLocated(files, samplesPath, where).samples;
}

function argError(entry: RegistryEntry, field: string, message: string): EvalsError {
	const line = entry.lineOf(['args', field]);
	return new EvalsError(`${entry.file}:${line}: ${entry.name} args.${field}: ${message}`, {
		file: entry.file,
		line,
		field: `${entry.name}.args.${field}`,
	});
}

function asChat(value: JsonValue, where: () => EvalsError): ChatMessage[] {
	if (!Array.isArray(value)) throw where();
	return value.map((item: JsonValue) => {
		if (!isRecord(item) || typeof item.role !== 'string' || typeof item.content !== 'string') {
			throw where();
		}
		return typeof item.name === 'string'
			? { role: item.role, content: item.content, name: item.name }
			: { role: item.role, content: item.content };
	});
}

function intArg(
	entry: RegistryEntry,
	args: Record<string, JsonValue>,
	field: string,
): number | undefined {
	const value = args[field];
	if (value === undefined) return undefined;
	if (typeof value !== 'number' || !Number.isInteger(value)) {
		throw argError(entry, field, `must be an integer, not ${JSON.stringify(value)}`);
	}
	return value;
}

function recordArg(
	entry: RegistryEntry,
	args: Record<string, JsonValue>,
	field: string,
): Record<string, JsonValue> {
	const value = args[field];
	if (value === undefined || value === null) return {};
	if (!isRecord(value)) throw argError(entry, field, 'must be a mapping of names to values');
	return { ...value };
}

/** Checks a model-graded spec's fields; `where` names its file and line for messages. */
export function parseModelGradedSpec(
	value: JsonValue,
	where: { file: string; line: number; name: string },
): ModelGradedSpec {
	const fail = (field: string, message: string): EvalsError =>
		new EvalsError(
			`${where.file}:${where.line}: modelgraded spec ${where.name}.${field}: ${message}`,
			{
				file: where.file,
				line: where.line,
				field: `${where.name}.${field}`,
			},
		);
	if (!isRecord(value))
		throw fail('prompt', 'the spec must be a mapping with prompt, choice_strings, input_outputs');
	const prompt =
		typeof value.prompt === 'string'
			? value.prompt
			: asChat(value.prompt ?? null, () =>
					fail('prompt', 'must be a string or a list of {role, content} messages'),
				);
	const rawChoices = value.choice_strings;
	let choiceStrings: string[] | string;
	if (typeof rawChoices === 'string') choiceStrings = rawChoices;
	else if (
		Array.isArray(rawChoices) &&
		rawChoices.every((item: JsonValue) => typeof item === 'string')
	) {
		choiceStrings = [...(rawChoices as string[])];
	} else {
		throw fail(
			'choice_strings',
			'must be a list of strings, a string of one-character choices, or from_n / from_n_abc / from_n_ABC (quote Yes/No: YAML reads them as booleans)',
		);
	}
	if (Array.isArray(choiceStrings) || !choiceStrings.startsWith('from_n')) {
		for (const choice of choiceStrings) {
			if (containsAsciiPunctuation(choice))
				throw fail('choice_strings', `${choice} contains punctuation`);
		}
	}
	const inputOutputs = value.input_outputs;
	if (
		!isRecord(inputOutputs) ||
		!Object.values(inputOutputs).every((v: JsonValue) => typeof v === 'string')
	) {
		throw fail('input_outputs', 'must map input fields to output fields, e.g. {input: completion}');
	}
	const spec: {
		prompt: string | ChatMessage[];
		choice_strings: string[] | string;
		input_outputs: Record<string, string>;
		eval_type?: string;
		choice_scores?: Record<string, number> | 'from_strings';
		output_template?: string;
	} = {
		prompt,
		choice_strings: choiceStrings,
		input_outputs: { ...(inputOutputs as Record<string, string>) },
	};
	if (value.eval_type !== undefined && value.eval_type !== null) {
		if (typeof value.eval_type !== 'string') throw fail('eval_type', 'must be a string');
		spec.eval_type = value.eval_type;
	}
	const scores = value.choice_scores;
	if (scores !== undefined && scores !== null) {
		if (scores === 'from_strings') spec.choice_scores = 'from_strings';
		else if (
			isRecord(scores) &&
			Object.values(scores).every((v: JsonValue) => typeof v === 'number')
		) {
			spec.choice_scores = { ...(scores as Record<string, number>) };
		} else throw fail('choice_scores', 'must map choices to numbers, or be from_strings');
	}
	if (value.output_template !== undefined && value.output_template !== null) {
		if (typeof value.output_template !== 'string')
			throw fail('output_template', 'must be a string');
		spec.output_template = value.output_template;
	}
	return spec;
}

function resolveModelGradedSpec(
	registry: Registry,
	name: string,
	where: EvalsError,
): { spec: ModelGradedSpec; specFile: string } {
	if (registry.modelgraded.has(name)) {
		const entry = dereference(registry.modelgraded, name, 'modelgraded spec');
		return {
			spec: parseModelGradedSpec(entry.value, {
				file: entry.file,
				line: entry.line,
				name: entry.name,
			}),
			specFile: entry.file,
		};
	}
	const builtin = BUILTIN_MODELGRADED_SPECS[name];
	if (builtin) return { spec: builtin, specFile: `builtin:${name}` };
	throw where;
}

/**
 * Resolves an eval name (alias or spec) to a runnable eval: the class checked against the five
 * templates ("unsupported template <class>" otherwise), args checked, samples and few-shot read,
 * the model-graded spec found (registry `modelgraded/` first, then Benchtop's own specs).
 */
export function resolveEval(registry: Registry, requestedName: string): ResolvedEval {
	const entry = dereference(registry.evals, requestedName, 'eval');
	const value = entry.value;
	if (!isRecord(value) || typeof value.class !== 'string') {
		throw new EvalsError(
			`${entry.file}:${entry.line}: ${entry.name} has neither an id nor a class; a spec needs class: <module>:<Class> and args`,
			{ file: entry.file, line: entry.line, field: entry.name },
		);
	}
	const extra = Object.keys(value).filter((key) => key !== 'class' && key !== 'args');
	if (extra.length > 0) {
		const line = entry.lineOf([extra[0] ?? '']);
		throw new EvalsError(
			`${entry.file}:${line}: ${entry.name}: unexpected key ${extra.join(', ')} in a spec (only class and args; metadata goes on the alias)`,
			{ file: entry.file, line, field: `${entry.name}.${extra[0] ?? ''}` },
		);
	}
	const className = value.class;
	const kind = TEMPLATE_CLASSES[className];
	if (!kind) {
		const line = entry.lineOf(['class']);
		throw new EvalsError(
			`${entry.file}:${line}: unsupported template ${className}; Benchtop runs ${Object.keys(TEMPLATE_CLASSES).join(', ')}`,
			{ file: entry.file, line, field: `${entry.name}.class` },
		);
	}
	if (entry.name.split('.').length < 2) {
		throw new EvalsError(
			`${entry.file}:${entry.line}: eval name must at least have <base_eval>.<split>. Got name ${entry.name}`,
			{ file: entry.file, line: entry.line, field: entry.name },
		);
	}
	const rawArgs = value.args ?? {};
	if (!isRecord(rawArgs)) {
		throw new EvalsError(
			`${entry.file}:${entry.lineOf(['args'])}: ${entry.name}.args must be a mapping`,
			{
				file: entry.file,
				line: entry.lineOf(['args']),
				field: `${entry.name}.args`,
			},
		);
	}
	const args: Record<string, JsonValue> = { ...rawArgs };
	for (const key of Object.keys(args)) {
		if (!KNOWN_ARGS[kind].includes(key)) {
			throw argError(
				entry,
				key,
				`unknown arg for ${className} (upstream raises TypeError); accepted: ${KNOWN_ARGS[kind].join(', ')}`,
			);
		}
	}
	const samplesPath = args.samples_jsonl;
	if (typeof samplesPath !== 'string')
		throw argError(entry, 'samples_jsonl', 'required: a path under data/');
	const { samples, locations: sampleLocations } = readSamplesLocated(registry.files, samplesPath, {
		file: entry.file,
		line: entry.lineOf(['args', 'samples_jsonl']),
		field: 'samples_jsonl',
	});

	let fewShot: ChatMessage[][] = [];
	const numFewShot = intArg(entry, args, 'num_few_shot') ?? 0;
	if (kind === 'match' && numFewShot > 0) {
		const fewShotPath = args.few_shot_jsonl;
		if (typeof fewShotPath !== 'string')
			throw argError(entry, 'few_shot_jsonl', 'few shot requires few shot sample dataset');
		const rows = readSamplesFromRegistry(registry.files, fewShotPath, {
			file: entry.file,
			line: entry.lineOf(['args', 'few_shot_jsonl']),
			field: 'few_shot_jsonl',
		});
		fewShot = rows
			.slice(0, numFewShot)
			.map((row, index) =>
				asChat(row.sample ?? null, () =>
					argError(
						entry,
						'few_shot_jsonl',
						`line ${index + 1} must be {"sample": [chat messages]}`,
					),
				),
			);
	}
	const ignoreCase = args.ignore_case ?? false;
	if (typeof ignoreCase !== 'boolean')
		throw argError(entry, 'ignore_case', 'must be true or false');
	const maxTokens =
		intArg(entry, args, 'max_tokens') ??
		(kind === 'fuzzy_match'
			? 100
			: kind === 'json_match'
				? 512
				: kind === 'match'
					? 500
					: undefined);

	const base = {
		name: entry.name,
		requestedName,
		className,
		kind,
		args,
		file: entry.file,
		samples,
		sampleLocations,
		fewShot,
		ignoreCase,
		...(maxTokens === undefined ? {} : { maxTokens }),
	};
	if (kind !== 'modelgraded') return base;

	const specName = args.modelgraded_spec;
	if (typeof specName !== 'string')
		throw argError(entry, 'modelgraded_spec', 'required: the name of a modelgraded spec');
	const { spec, specFile } = resolveModelGradedSpec(
		registry,
		specName,
		argError(
			entry,
			'modelgraded_spec',
			`modelgraded spec ${specName} not found in modelgraded/*.yaml nor among Benchtop's (fact, closedqa, battle)`,
		),
	);
	const multicomp = args.multicomp_n ?? 1;
	if (
		multicomp !== 'from_models' &&
		!(typeof multicomp === 'number' && Number.isInteger(multicomp) && multicomp >= 1)
	) {
		throw argError(entry, 'multicomp_n', "must be a positive integer or 'from_models'");
	}
	const matchFn = args.match_fn ?? 'starts_or_endswith';
	if (typeof matchFn !== 'string' || !MATCH_FNS.includes(matchFn as ChoiceMatchFn)) {
		throw argError(entry, 'match_fn', `must be one of ${MATCH_FNS.join(', ')}`);
	}
	const evalType = args.eval_type;
	if (evalType !== undefined && evalType !== null && typeof evalType !== 'string') {
		throw argError(
			entry,
			'eval_type',
			'must be classify, classify_cot, cot_classify or cot_classify_jp',
		);
	}
	const metaeval = args.metaeval ?? false;
	if (typeof metaeval !== 'boolean') throw argError(entry, 'metaeval', 'must be true or false');
	if (!spec.eval_type && !evalType) {
		throw argError(
			entry,
			'eval_type',
			`neither the registry nor the spec ${specName} sets eval_type (upstream crashes); set one`,
		);
	}
	const modelGradedArgs: ModelGradedArgs = {
		modelgraded_spec: specName,
		modelgraded_spec_args: recordArg(entry, args, 'modelgraded_spec_args'),
		sample_kwargs: recordArg(entry, args, 'sample_kwargs'),
		eval_kwargs: recordArg(entry, args, 'eval_kwargs'),
		multicomp_n: multicomp,
		...(typeof evalType === 'string' ? { eval_type: evalType } : {}),
		match_fn: matchFn as ChoiceMatchFn,
		metaeval,
	};
	return { ...base, modelGraded: { args: modelGradedArgs, spec, specFile } };
}
