/**
 * An OpenAI Evals registry read from a virtual file map (`{path → text}`, paths relative to the
 * registry root: `evals/*.yaml`, `modelgraded/*.yaml`, `data/...`), as upstream `evals/registry.py`
 * and `Eval._prefix_registry_path` read a folder. YAML is read as PyYAML `safe_load` does (YAML
 * 1.1: `yes`/`no` are booleans); an eval's args are checked by its template's `argsSchema`
 * (`./templates`). Every error names the file, line and field. Pure.
 */
import * as v from 'valibot';
import { LineCounter, isMap, isPair, isScalar, parseDocument, type Document } from 'yaml';
import { pointerOfIssue } from '../run/task-run-json';
import { EvalsError } from './shared/errors';
import { BUILTIN_MODELGRADED_SPECS } from './modelgraded-specs';
import { parseModelGradedSpec } from './read-modelgraded-spec';
import { parseSamplesJsonl } from './samples-jsonl';
import { TEMPLATES, TEMPLATE_CLASSES, type EvalTemplate } from './templates';
import type { ResolveContext } from './templates/eval-template';
import type {
	EvalsLocation,
	JsonValue,
	ModelGradedSpec,
	ResolvedEval,
	Sample,
} from './shared/types';

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

const RESERVED_KEYWORDS = ['key', 'group', 'cls'];

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

/**
 * PyYAML's floats (its resolver's regex): a mantissa with a dot, an exponent only with a sign, and
 * no bare exponent: `1e3` and `e1` are strings there (the yaml library's YAML 1.1 reads them as
 * 1000 and NaN, so an eval named `e1` was listed as "NaN").
 */
const PYYAML_FLOAT =
	/^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/u;

function pyyamlTags<T extends { tag: string; test?: RegExp }>(tags: T[]): T[] {
	return tags.map((tag) => {
		if (!tag.test) return tag;
		if (tag.tag === 'tag:yaml.org,2002:bool') {
			return { ...tag, test: tag.test.test('yes') ? PYYAML_TRUE : PYYAML_FALSE };
		}
		if (tag.tag === 'tag:yaml.org,2002:float') {
			// The library's own test still picks which of its float forms reads the text.
			return {
				...tag,
				test: new RegExp(`(?=${PYYAML_FLOAT.source})(?:${tag.test.source})`, tag.test.flags),
			};
		}
		return tag;
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
 *
 * When neither is there (files picked one by one lose their folders: `colours/samples.jsonl`
 * arrives as `data/samples.jsonl`), the one registry JSONL file of the same name is used, and
 * `note` says which; two or more of that name are a located error naming them.
 */
export function readSamplesLocated(
	files: RegistryFiles,
	samplesPath: string,
	where: { file: string; line: number; field: string },
): { samples: Sample[]; locations: EvalsLocation[]; note?: string } {
	const located = (paths: readonly string[]): { samples: Sample[]; locations: EvalsLocation[] } => {
		const samples: Sample[] = [];
		const locations: EvalsLocation[] = [];
		for (const path of paths) {
			// One push per sample: spreading tens of thousands overflows a worker's smaller stack.
			parseSamplesJsonl(files.get(path) ?? '', path).forEach((sample, index) => {
				samples.push(sample);
				locations.push({ file: path, line: index + 1 });
			});
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
	const baseName = wanted.split('/').pop() ?? wanted;
	const sameName = baseName.endsWith('.jsonl')
		? [...files.keys()].filter((path) => path.split('/').pop() === baseName).sort()
		: [];
	if (sameName.length === 1) {
		const used = sameName[0]!;
		return {
			...located([used]),
			note: `${where.field} '${samplesPath}': the registry has no data/${wanted}, so ${used} was used (the only file named ${baseName})`,
		};
	}
	if (sameName.length > 1) {
		throw new EvalsError(
			`${where.file}:${where.line}: ${where.field} '${samplesPath}' not found (looked for data/${wanted} in the registry), and ${sameName.length} files are named ${baseName}: ${sameName.join(', ')}; keep one, or add the folders (data/${wanted})`,
			where,
		);
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

/** The entry's class and args, checked: a spec needs a known class, a split and mapping args. */
function specOf(entry: RegistryEntry): {
	template: EvalTemplate;
	args: Record<string, JsonValue>;
} {
	const value = entry.value;
	const at = (field: string, line = entry.lineOf([field])) => ({
		file: entry.file,
		line,
		field: field === '' ? entry.name : `${entry.name}.${field}`,
	});
	if (!isRecord(value) || typeof value.class !== 'string') {
		throw new EvalsError(
			`${entry.file}:${entry.line}: ${entry.name} has neither an id nor a class; a spec needs class: <module>:<Class> and args`,
			at('', entry.line),
		);
	}
	const extra = Object.keys(value).filter((key) => key !== 'class' && key !== 'args');
	if (extra.length > 0) {
		const line = entry.lineOf([extra[0] ?? '']);
		throw new EvalsError(
			`${entry.file}:${line}: ${entry.name}: unexpected key ${extra.join(', ')} in a spec (only class and args; metadata goes on the alias)`,
			at(extra[0] ?? '', line),
		);
	}
	const kind = TEMPLATE_CLASSES[value.class];
	if (!kind) {
		const line = entry.lineOf(['class']);
		throw new EvalsError(
			`${entry.file}:${line}: unsupported template ${value.class}; Benchtop runs ${Object.keys(TEMPLATE_CLASSES).join(', ')}`,
			at('class', line),
		);
	}
	if (entry.name.split('.').length < 2) {
		throw new EvalsError(
			`${entry.file}:${entry.line}: eval name must at least have <base_eval>.<split>. Got name ${entry.name}`,
			at('', entry.line),
		);
	}
	const args = value.args ?? {};
	if (!isRecord(args)) {
		const line = entry.lineOf(['args']);
		throw new EvalsError(
			`${entry.file}:${line}: ${entry.name}.args must be a mapping`,
			at('args', line),
		);
	}
	return { template: TEMPLATES[kind], args: { ...args } };
}

/** The arg path of a valibot issue (`pointerOfIssue`'s segments), e.g. `['max_tokens']`. */
function argPathOfIssue(issue: v.BaseIssue<unknown>): string[] {
	return pointerOfIssue(issue)
		.split('/')
		.slice(1)
		.map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/**
 * The args checked against the template's `argsSchema`; the first problem (an unknown arg first,
 * as upstream's TypeError) is an error naming the eval, the file, the line and the field.
 */
function checkedArgs(
	entry: RegistryEntry,
	template: EvalTemplate,
	args: Record<string, JsonValue>,
): unknown {
	const result = v.safeParse(template.argsSchema, args);
	if (result.success) return result.output;
	const unknownArg = result.issues.find(
		(issue) => issue.type === 'strict_object' && issue.expected === 'never',
	);
	const issue = unknownArg ?? result.issues[0];
	throw argError(entry, argPathOfIssue(issue).join('.'), issue.message);
}

/** What a template's `resolveArgs` may read: rows of registry files, model-graded specs. */
function resolveContext(registry: Registry, entry: RegistryEntry, notes: string[]): ResolveContext {
	return {
		readRows: (path, field) => {
			const read = readSamplesLocated(registry.files, path, {
				file: entry.file,
				line: entry.lineOf(['args', field]),
				field,
			});
			if (read.note !== undefined) notes.push(read.note);
			return read.samples;
		},
		modelGradedSpec: (name) =>
			resolveModelGradedSpec(
				registry,
				name,
				argError(
					entry,
					'modelgraded_spec',
					`modelgraded spec ${name} not found in modelgraded/*.yaml nor among Benchtop's (fact, closedqa, battle)`,
				),
			),
		argError: (field, message) => argError(entry, field, message),
	};
}

/**
 * Resolves an eval name (alias or spec) to a runnable eval: the class checked against the five
 * templates ("unsupported template <class>" otherwise), args checked by the template's schema,
 * samples and few-shot read, the model-graded spec found (registry `modelgraded/` first, then
 * Benchtop's own specs).
 */
export function resolveEval(registry: Registry, requestedName: string): ResolvedEval {
	const entry = dereference(registry.evals, requestedName, 'eval');
	const { template, args } = specOf(entry);
	const checked = checkedArgs(entry, template, args);
	const samplesPath = args.samples_jsonl as string;
	const {
		samples,
		locations: sampleLocations,
		note,
	} = readSamplesLocated(registry.files, samplesPath, {
		file: entry.file,
		line: entry.lineOf(['args', 'samples_jsonl']),
		field: 'samples_jsonl',
	});
	const notes = note === undefined ? [] : [note];
	const fields = template.resolveArgs(checked, resolveContext(registry, entry, notes));
	return {
		name: entry.name,
		requestedName,
		className: template.className,
		kind: template.kind,
		args,
		file: entry.file,
		samples,
		sampleLocations,
		fewShot: fields.fewShot ?? [],
		ignoreCase: fields.ignoreCase ?? false,
		...(fields.maxTokens === undefined ? {} : { maxTokens: fields.maxTokens }),
		...(fields.modelGraded === undefined ? {} : { modelGraded: fields.modelGraded }),
		...(notes.length === 0 ? {} : { notes }),
	};
}
