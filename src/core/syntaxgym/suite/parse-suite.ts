/**
 * Reads and validates a SyntaxGym suite (standard or legacy JSON) into the typed model of types.ts,
 * collecting every problem as a located Diagnostic. The file's structure and field types are
 * checked by the valibot schema of suite-schema.ts; the checks across fields (numbering, condition
 * sets, region counts, whitespace, modes) run here over its typed output. Pure and linear in the
 * input size; it never throws for bad input and never copies parsed keys onto ordinary objects.
 */
import * as v from 'valibot';
import { DiagnosticCollector } from './diagnostic-collector';
import { jsonPointer, locateJsonPointers, readJsonText } from './json-source';
import { describeJsonType, recordFromEntries } from './json-value';
import { readPredictions } from './parse-predictions';
import {
	FIELD_NAMES,
	Flaw,
	ITEM_FILE,
	META_OPTIONAL_FIELDS,
	REGION_OUTPUT_FIELDS,
	SUITE_FILE,
	type ConditionFile,
	type ItemFile,
	type MetaFile,
	type OtherFields,
	type RegionFile,
	type SuiteFile,
} from './suite-schema';
import { hasStrayWhitespace, normalizeWhitespace } from '../../python/python-whitespace';
import {
	METRIC_NAMES,
	type Condition,
	type Diagnostic,
	type Item,
	type MetricName,
	type ParseSuiteOptions,
	type ParseSuiteResult,
	type Region,
	type Suite,
	type SuiteMeta,
} from './types';

const NO_FIELDS: OtherFields = [];

/** Condition names a formula can reference (pyparsing `alphanums + "_-"`). */
const REFERENCEABLE_CONDITION_NAME = /^[A-Za-z0-9_-]+$/;

/**
 * Parses suite JSON text. Diagnostics carry `line`/`column` (1-based, of the offending value or
 * of its nearest existing ancestor) and are sorted by position. `ok` is false when any error was
 * found; then no suite is returned. A leading byte-order mark is a warning (error in strict mode).
 */
export function parseSuite(text: string, options: ParseSuiteOptions = {}): ParseSuiteResult {
	const diagnostics = new DiagnosticCollector();
	let source = text;
	if (text.startsWith('\uFEFF')) {
		source = ` ${text.slice(1)}`;
		const fields = {
			code: 'byte-order-mark',
			message: 'the file starts with a byte-order mark (U+FEFF), which strict JSON readers reject',
			hint: 'save the file as UTF-8 without BOM',
			pointer: '',
			line: 1,
			column: 1,
		};
		if (options.mode === 'strict') diagnostics.error(fields);
		else diagnostics.warning(fields);
	}
	const read = readJsonText(source);
	if (!read.ok) {
		for (const problem of read.problems) {
			diagnostics.error({
				code: 'json-syntax',
				message: `invalid JSON: ${problem.message}`,
				hint: problem.hint,
				pointer: '',
				line: problem.line,
				column: problem.column,
			});
		}
		return { ok: false, diagnostics: [...diagnostics.listed(), ...diagnostics.summaries()] };
	}
	const suite = readSuite(read.value, options, diagnostics);
	const listed = diagnostics.listed();
	const locations = locateJsonPointers(
		source,
		listed.filter((diagnostic) => diagnostic.line === undefined).map((d) => d.pointer),
	);
	const located = listed.map((diagnostic): Diagnostic => {
		const location = diagnostic.line === undefined ? locations.get(diagnostic.pointer) : undefined;
		return location === undefined
			? diagnostic
			: { ...diagnostic, line: location.line, column: location.column };
	});
	located.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
	const all = [...located, ...diagnostics.summaries()];
	return suite !== undefined && diagnostics.errorCount === 0
		? { ok: true, suite, diagnostics: all }
		: { ok: false, diagnostics: all };
}

/**
 * Validates an already-parsed JSON value (e.g. from JSON.parse or IndexedDB). Same checks and
 * diagnostics as parseSuite, in the order found, without line/column.
 */
export function parseSuiteValue(value: unknown, options: ParseSuiteOptions = {}): ParseSuiteResult {
	const diagnostics = new DiagnosticCollector();
	const suite = readSuite(value, options, diagnostics);
	const all = [...diagnostics.listed(), ...diagnostics.summaries()];
	return suite !== undefined && diagnostics.errorCount === 0
		? { ok: true, suite, diagnostics: all }
		: { ok: false, diagnostics: all };
}

interface ReadContext {
	readonly mode: 'strict' | 'compatible';
	readonly diagnostics: DiagnosticCollector;
	/** Regions per condition: from region_meta, else from the first condition read. */
	regionCount: number | undefined;
	readonly regionCountFromMeta: boolean;
	/** Condition names already warned about as not referenceable. */
	readonly reportedNames: Set<string>;
}

function readSuite(
	value: unknown,
	options: ParseSuiteOptions,
	diagnostics: DiagnosticCollector,
): Suite | undefined {
	const mode = options.mode ?? 'compatible';
	const parsed = v.safeParse(SUITE_FILE, value);
	if (!parsed.success) {
		diagnostics.error({
			code: 'suite-not-object',
			message: `a suite must be a JSON object, found ${describeJsonType(value)}`,
			hint: 'write {"meta": {...}, "region_meta": {...}, "predictions": [...], "items": [...]}',
			pointer: '',
		});
		return undefined;
	}
	const file: SuiteFile = parsed.output;
	reportUnknownFields(file.otherFields, FIELD_NAMES.suite, '', 'the suite', diagnostics);
	const meta = readMeta(file.meta, mode, diagnostics);
	const regionNames = readRegionMeta(file.region_meta, diagnostics);
	const context: ReadContext = {
		mode,
		diagnostics,
		regionCount: regionNames?.length,
		regionCountFromMeta: regionNames !== undefined,
		reportedNames: new Set(),
	};
	const items = readItems(file.items, context);
	const predictionsValue = file.predictions;
	const predictions = readPredictions(predictionsValue, {
		mode,
		chainedComparisons: options.chainedComparisons ?? 'error',
		conditionNames: items?.conditionNames === undefined ? undefined : new Set(items.conditionNames),
		regionCount: context.regionCount,
		diagnostics,
	});
	if (
		mode === 'strict' &&
		meta !== undefined &&
		// the raw list: a prediction that fails to parse still needs a single-metric suite
		Array.isArray(predictionsValue) &&
		predictionsValue.length > 0 &&
		(typeof meta.metricAsWritten !== 'string' || meta.metricAsWritten === 'all')
	) {
		diagnostics.error({
			code: 'multi-metric-predictions',
			message: `syntaxgym-core evaluates predictions only under one metric name, but meta.metric is ${JSON.stringify(meta.metricAsWritten)}`,
			hint: 'set "metric" to one of sum, mean, median, range, max, min, or validate in compatible mode (each prediction is then evaluated under each metric)',
			pointer: '/meta/metric',
		});
	}
	if (meta === undefined || regionNames === undefined || items === undefined) return undefined;
	if (diagnostics.errorCount > 0) return undefined;
	return {
		meta,
		regionNames,
		conditionNames: items.conditionNames ?? [],
		predictions,
		items: items.items,
	};
}

/** How to word the error for a field its schema rejected. */
interface FlawWords {
	/** Message for an absent field (missing-field); without it, absence is an invalid type. */
	readonly missing?: string;
	/** Hint for an absent field, when it differs from `hint`. */
	readonly missingHint?: string;
	/** The diagnostic for a list that must not be empty (valibot's min_length issue). */
	readonly empty?: { readonly code: string; readonly message: string; readonly hint: string };
	/** Message for a value of the wrong type (invalid-type), given what was found. */
	readonly invalid: (found: string) => string;
	readonly hint: string;
}

/** Reports a Flaw of the schema as an error at `pointer`. */
function reportFlaw(
	flaw: Flaw,
	pointer: string,
	words: FlawWords,
	diagnostics: DiagnosticCollector,
): void {
	if (flaw.missing && words.missing !== undefined) {
		diagnostics.error({
			code: 'missing-field',
			message: words.missing,
			hint: words.missingHint ?? words.hint,
			pointer,
		});
	} else if (flaw.issue?.type === 'min_length' && words.empty !== undefined) {
		diagnostics.error({ ...words.empty, pointer });
	} else {
		diagnostics.error({
			code: 'invalid-type',
			message: words.invalid(flaw.foundText),
			hint: words.hint,
			pointer,
		});
	}
}

// ---------------------------------------------------------------- meta

function readMeta(
	meta: SuiteFile['meta'],
	mode: 'strict' | 'compatible',
	diagnostics: DiagnosticCollector,
): SuiteMeta | undefined {
	if (meta instanceof Flaw) {
		reportFlaw(
			meta,
			'/meta',
			{
				missing: "the suite has no 'meta' object",
				missingHint: 'add "meta": {"name": "my_suite", "metric": "sum"}',
				invalid: (found) => `'meta' must be an object, found ${found}`,
				hint: 'write "meta": {"name": "my_suite", "metric": "sum"}',
			},
			diagnostics,
		);
		return undefined;
	}
	const { name } = meta;
	if (name instanceof Flaw) {
		reportFlaw(
			name,
			'/meta/name',
			{
				missing: 'meta.name is missing',
				invalid: (found) => `meta.name must be a non-empty string, found ${found}`,
				hint: 'add "name": "my_suite" to meta; results are reported under this name',
			},
			diagnostics,
		);
	}
	const metric = readMetric(meta.metric, mode, diagnostics);
	const { optional, extra } = readMetaOtherFields(meta.otherFields, diagnostics);
	if (name instanceof Flaw || metric === undefined) return undefined;
	return {
		name,
		metrics: metric.metrics,
		metricAsWritten: metric.asWritten,
		...optional,
		extra: recordFromEntries(extra),
	};
}

type MetaOptionalFields = Pick<SuiteMeta, 'author' | 'reference' | 'comment' | 'tags'>;

/**
 * The optional meta fields of the right type, and every other field (as written) as extra data;
 * an optional field of another type is kept as extra data with a warning.
 */
function readMetaOtherFields(
	otherFields: MetaFile['otherFields'],
	diagnostics: DiagnosticCollector,
): { optional: MetaOptionalFields; extra: (readonly [string, unknown])[] } {
	const optional: Record<string, unknown> = {};
	const extra: (readonly [string, unknown])[] = [];
	for (const entry of otherFields ?? NO_FIELDS) {
		const [key, field] = entry;
		const expected = META_OPTIONAL_FIELDS.get(key);
		if (expected !== undefined) {
			if (v.is(expected.schema, field)) {
				optional[key] = field;
				continue;
			}
			diagnostics.warning({
				code: 'invalid-type',
				message: `meta.${key} should be ${expected.words}, found ${describeJsonType(field)}; kept as extra data`,
				hint: `write meta.${key} as ${expected.words}`,
				pointer: jsonPointer('meta', key),
			});
		}
		extra.push(entry);
	}
	// the keys are those of META_OPTIONAL_FIELDS, each value checked by its schema
	return { optional: optional as MetaOptionalFields, extra };
}

function isMetricName(value: unknown): value is MetricName {
	return typeof value === 'string' && (METRIC_NAMES as readonly string[]).includes(value);
}

const METRIC_HINT = `use one of ${METRIC_NAMES.join(', ')}, a list of them, or "all"`;

function unknownMetric(value: unknown, pointer: string, diagnostics: DiagnosticCollector): void {
	const lower = typeof value === 'string' ? value.toLowerCase() : '';
	diagnostics.error({
		code: 'unknown-metric',
		message: `unknown metric ${typeof value === 'string' ? JSON.stringify(value) : describeJsonType(value)}`,
		hint:
			isMetricName(lower) || lower === 'all'
				? `metric names are lower case: write "${lower}"`
				: METRIC_HINT,
		pointer,
	});
}

function readMetric(
	metric: MetaFile['metric'],
	mode: 'strict' | 'compatible',
	diagnostics: DiagnosticCollector,
): { metrics: MetricName[]; asWritten: string | string[] } | undefined {
	const pointer = '/meta/metric';
	if (metric instanceof Flaw) return reportMetricFlaw(metric, mode, diagnostics);
	if (metric === 'all') return { metrics: [...METRIC_NAMES], asWritten: metric };
	if (typeof metric === 'string') return { metrics: [metric], asWritten: metric };
	const metrics: MetricName[] = [];
	const written: MetricName[] = [];
	metric.forEach((entry, index) => {
		if (entry instanceof Flaw) unknownMetric(entry.found, `${pointer}/${index}`, diagnostics);
		else {
			written.push(entry);
			if (!metrics.includes(entry)) metrics.push(entry);
			else {
				diagnostics.warning({
					code: 'duplicate-metric',
					message: `metric "${entry}" is listed twice; it is computed once`,
					hint: 'remove the repeated metric name',
					pointer: `${pointer}/${index}`,
				});
			}
		}
	});
	return written.length === metric.length ? { metrics, asWritten: written } : undefined;
}

/**
 * A missing meta.metric is "sum" with a warning (an error in strict mode, then undefined); any
 * other flaw is an error.
 */
function reportMetricFlaw(
	metric: Flaw,
	mode: 'strict' | 'compatible',
	diagnostics: DiagnosticCollector,
): { metrics: MetricName[]; asWritten: string } | undefined {
	const pointer = '/meta/metric';
	if (metric.missing) {
		const fields = {
			code: 'missing-field',
			message: 'meta.metric is missing; "sum" is assumed',
			hint: 'add "metric": "sum" (or another metric) to meta',
			pointer,
		};
		if (mode === 'strict') {
			diagnostics.error(fields);
			return undefined;
		}
		diagnostics.warning(fields);
		return { metrics: ['sum'], asWritten: 'sum' };
	}
	if (typeof metric.found === 'string') unknownMetric(metric.found, pointer, diagnostics);
	else {
		reportFlaw(
			metric,
			pointer,
			{
				empty: {
					code: 'unknown-metric',
					message: 'meta.metric is an empty list',
					hint: METRIC_HINT,
				},
				invalid: (found) => `meta.metric must be a metric name or a list of them, found ${found}`,
				hint: METRIC_HINT,
			},
			diagnostics,
		);
	}
	return undefined;
}

// ---------------------------------------------------------------- region_meta

/** `region_meta` as names in region order, or undefined (with errors) when it is unusable. */
function readRegionMeta(
	regionMeta: SuiteFile['region_meta'],
	diagnostics: DiagnosticCollector,
): string[] | undefined {
	const pointer = '/region_meta';
	if (regionMeta instanceof Flaw) {
		reportFlaw(
			regionMeta,
			pointer,
			{
				missing: "the suite has no 'region_meta'",
				invalid: (found) => `'region_meta' must be an object, found ${found}`,
				hint: 'write "region_meta": {"1": "name of region 1", "2": "name of region 2", ...}',
			},
			diagnostics,
		);
		return undefined;
	}
	const names = new Map<number, string>();
	/** Every well-formed region number, also those whose name is invalid (no gap then). */
	const numbers = new Set<number>();
	let ok = true;
	for (const [key, name] of regionMeta) {
		if (key instanceof Flaw) {
			const written = String(key.found);
			diagnostics.error({
				code: 'region-meta-key',
				message: `region_meta key ${JSON.stringify(written)} is not a region number`,
				hint: 'region_meta keys are the region numbers "1", "2", ... without leading zeros',
				pointer: jsonPointer('region_meta', written),
			});
			ok = false;
			continue;
		}
		numbers.add(Number(key));
		if (name instanceof Flaw) {
			diagnostics.error({
				code: 'invalid-type',
				message: `the name of region ${key} in region_meta must be a string, found ${name.foundText}`,
				hint: `write "${key}": "a short name for region ${key}"`,
				pointer: jsonPointer('region_meta', key),
			});
			ok = false;
		} else names.set(Number(key), name);
	}
	if (numbers.size === 0 && ok) {
		diagnostics.error({
			code: 'region-meta-gap',
			message: 'region_meta is empty',
			hint: 'name every region: {"1": "...", "2": "...", ...}',
			pointer,
		});
		return undefined;
	}
	const missing: number[] = [];
	let highest = 0;
	for (const number of numbers) highest = Math.max(highest, number);
	for (let number = 1; number <= highest && missing.length < 10; number++) {
		if (!numbers.has(number)) missing.push(number);
	}
	if (missing.length > 0) {
		diagnostics.error({
			code: 'region-meta-gap',
			message: `region_meta goes up to region ${highest} but has no name for region ${missing.join(', ')}${missing.length === 10 ? ', ...' : ''}`,
			hint: 'region numbers must run 1, 2, ..., N without gaps',
			pointer,
		});
		ok = false;
	}
	if (!ok) return undefined;
	return Array.from({ length: highest }, (_, index) => names.get(index + 1) ?? '');
}

// ---------------------------------------------------------------- items

function readItems(
	items: SuiteFile['items'],
	context: ReadContext,
): { items: Item[]; conditionNames: string[] | undefined } | undefined {
	const { diagnostics } = context;
	if (items instanceof Flaw) {
		const hint = 'write "items": [{"item_number": 1, "conditions": [...]}, ...]';
		reportFlaw(
			items,
			'/items',
			{
				missing: "the suite has no 'items' list",
				empty: {
					code: 'empty-items',
					message: 'the suite has no items',
					hint: 'add at least one item with its conditions',
				},
				invalid: (found) => `'items' must be a list, found ${found}`,
				hint,
			},
			diagnostics,
		);
		return undefined;
	}
	const read: Item[] = [];
	const itemIndexByNumber = new Map<number, number>();
	let reference: ConditionSet | undefined;
	items.forEach((entry, index) => {
		const item = readItem(v.parse(ITEM_FILE, entry), index, context);
		if (item === undefined) return;
		if (item.itemNumber !== undefined) {
			const first = itemIndexByNumber.get(item.itemNumber);
			if (first !== undefined) {
				diagnostics.error({
					code: 'duplicate-item-number',
					message: `item_number ${item.itemNumber} is used twice: by /items/${first} and by /items/${index}`,
					hint: 'give every item its own item_number; results are keyed by it',
					pointer: jsonPointer('items', index, 'item_number'),
				});
			} else itemIndexByNumber.set(item.itemNumber, index);
		}
		if (item.names !== undefined) {
			const { names } = item;
			if (reference === undefined) reference = { names, set: new Set(names), label: item.label };
			else compareConditionSets(reference, names, item.label, index, diagnostics);
		}
		if (item.itemNumber !== undefined && item.complete) {
			read.push({ itemNumber: item.itemNumber, conditions: item.conditions });
		}
	});
	return { items: read, conditionNames: reference?.names };
}

interface ConditionSet {
	readonly names: string[];
	readonly set: Set<string>;
	/** The item the set was taken from, for messages. */
	readonly label: string;
}

function compareConditionSets(
	reference: ConditionSet,
	names: string[],
	label: string,
	index: number,
	diagnostics: DiagnosticCollector,
): void {
	// names are unique within an item, so the same count and no new name means the same set
	if (names.length === reference.names.length && names.every((name) => reference.set.has(name))) {
		return;
	}
	const set = new Set(names);
	const missing = reference.names.filter((name) => !set.has(name));
	const extra = names.filter((name) => !reference.set.has(name));
	if (missing.length === 0 && extra.length === 0) return;
	const parts = [
		missing.length > 0 ? `lacks ${quoteList(missing)}` : '',
		extra.length > 0 ? `has ${quoteList(extra)} in addition` : '',
	].filter((part) => part !== '');
	diagnostics.error({
		code: 'condition-set-mismatch',
		message: `${label} ${parts.join(' and ')}, compared with ${reference.label}`,
		hint: `every item must have the same conditions: ${quoteList(reference.names)}`,
		pointer: jsonPointer('items', index, 'conditions'),
	});
}

function quoteList(names: readonly string[]): string {
	const shown = names.slice(0, 8).map((name) => `'${name}'`);
	const more = names.length > shown.length ? ` and ${names.length - shown.length} more` : '';
	return `condition${names.length === 1 ? '' : 's'} ${shown.join(', ')}${more}`;
}

function readItem(
	entry: ItemFile | Flaw,
	index: number,
	context: ReadContext,
): ItemRead | undefined {
	const { diagnostics } = context;
	const pointer = `/items/${index}`;
	if (entry instanceof Flaw) {
		reportFlaw(
			entry,
			pointer,
			{
				invalid: (found) => `the item at ${pointer} must be an object, found ${found}`,
				hint: 'write {"item_number": 1, "conditions": [...]}',
			},
			diagnostics,
		);
		return undefined;
	}
	const { item_number: itemNumber, conditions } = entry;
	const validNumber = itemNumber instanceof Flaw ? undefined : itemNumber;
	const label = validNumber !== undefined ? `item ${validNumber}` : `the item at ${pointer}`;
	reportUnknownFields(entry.otherFields, FIELD_NAMES.item, pointer, label, diagnostics);
	if (itemNumber instanceof Flaw) {
		reportFlaw(
			itemNumber,
			`${pointer}/item_number`,
			{
				missing: `${label} has no item_number`,
				invalid: (found) => `item_number of ${label} must be an integer, found ${found}`,
				hint: `write "item_number": ${index + 1}`,
			},
			diagnostics,
		);
	}
	if (conditions instanceof Flaw) {
		const hint = 'write "conditions": [{"condition_name": "...", "regions": [...]}, ...]';
		reportFlaw(
			conditions,
			`${pointer}/conditions`,
			{
				missing: `${label} has no 'conditions' list`,
				empty: { code: 'empty-conditions', message: `${label} has no conditions`, hint },
				invalid: (found) => `conditions of ${label} must be a list, found ${found}`,
				hint,
			},
			diagnostics,
		);
		return { itemNumber: validNumber, label, names: undefined, conditions: [], complete: false };
	}
	return {
		itemNumber: validNumber,
		label,
		...readItemConditions(conditions, index, label, context),
	};
}

/** Reads the conditions of item `index`, reporting a condition name used twice. */
function readItemConditions(
	conditionEntries: readonly (ConditionFile | Flaw)[],
	index: number,
	label: string,
	context: ReadContext,
): Pick<ItemRead, 'names' | 'conditions' | 'complete'> {
	const conditions: Condition[] = [];
	const firstByName = new Map<string, number>();
	let namesOk = true;
	let complete = true;
	conditionEntries.forEach((conditionEntry, conditionIndex) => {
		const { name, condition } = readCondition(
			conditionEntry,
			index,
			conditionIndex,
			label,
			context,
		);
		if (condition === undefined) complete = false;
		if (name === undefined) {
			namesOk = false;
			return;
		}
		const first = firstByName.get(name);
		if (first !== undefined) {
			context.diagnostics.error({
				code: 'duplicate-condition-name',
				message: `${label} has condition '${name}' twice (at positions ${first} and ${conditionIndex})`,
				hint: 'condition names must be unique within an item',
				pointer: jsonPointer('items', index, 'conditions', conditionIndex, 'condition_name'),
			});
			namesOk = false;
			complete = false;
			return;
		}
		firstByName.set(name, conditionIndex);
		if (condition !== undefined) conditions.push(condition);
	});
	return { names: namesOk ? [...firstByName.keys()] : undefined, conditions, complete };
}

interface ItemRead {
	readonly itemNumber: number | undefined;
	/** `item 4` (its item_number) or `the item at /items/3`, for messages. */
	readonly label: string;
	/** The condition names in file order, or undefined if some name is missing or repeated. */
	readonly names: string[] | undefined;
	readonly conditions: Condition[];
	/** Every condition was read without error. */
	readonly complete: boolean;
}

function readCondition(
	entry: ConditionFile | Flaw,
	itemIndex: number,
	conditionIndex: number,
	itemLabel: string,
	context: ReadContext,
): { name: string | undefined; condition: Condition | undefined } {
	const { diagnostics } = context;
	const pointer = `/items/${itemIndex}/conditions/${conditionIndex}`;
	const name = entry instanceof Flaw ? undefined : entry.condition_name;
	const validName = name instanceof Flaw ? undefined : name;
	const where =
		validName !== undefined
			? `condition '${validName}' of ${itemLabel}`
			: `condition ${conditionIndex + 1} of ${itemLabel}`;
	if (entry instanceof Flaw) {
		reportFlaw(
			entry,
			pointer,
			{
				invalid: (found) => `${where} must be an object, found ${found}`,
				hint: 'write {"condition_name": "...", "regions": [...]}',
			},
			diagnostics,
		);
		return { name: undefined, condition: undefined };
	}
	reportUnknownFields(entry.otherFields, FIELD_NAMES.condition, pointer, where, diagnostics);
	const nameOk = checkConditionName(entry.condition_name, where, pointer, context);
	const { regions } = entry;
	if (regions instanceof Flaw) {
		reportFlaw(
			regions,
			`${pointer}/regions`,
			{
				missing: `${where} has no 'regions' list`,
				invalid: (found) => `regions of ${where} must be a list, found ${found}`,
				hint: 'write "regions": [{"region_number": 1, "content": "..."}, ...]',
			},
			diagnostics,
		);
		return { name: validName, condition: undefined };
	}
	const { regions: read, ok: regionsOk } = readConditionRegions(
		regions,
		itemIndex,
		conditionIndex,
		where,
		context,
	);
	const ok = nameOk && regionsOk;
	if (ok && read.every((region) => region.content === '')) {
		diagnostics.warning({
			code: 'empty-sentence',
			message: `every region of ${where} is empty, so its sentence is empty`,
			hint: 'give the condition some region content',
			pointer: `${pointer}/regions`,
		});
	}
	if (!ok || validName === undefined) return { name: validName, condition: undefined };
	return { name: validName, condition: { conditionName: validName, regions: read } };
}

/**
 * Checks a condition_name: a missing or empty one is an error (false), one a formula cannot
 * refer to a warning (once per name).
 */
function checkConditionName(
	name: ConditionFile['condition_name'],
	where: string,
	pointer: string,
	context: ReadContext,
): boolean {
	const { diagnostics } = context;
	if (name instanceof Flaw) {
		reportFlaw(
			name,
			`${pointer}/condition_name`,
			{
				missing: `${where} has no condition_name`,
				invalid: (found) => `condition_name of ${where} must be a non-empty string, found ${found}`,
				hint: 'write "condition_name": "grammatical" (letters, digits, _ and - so formulas can refer to it)',
			},
			diagnostics,
		);
		return false;
	}
	if (!REFERENCEABLE_CONDITION_NAME.test(name) && !context.reportedNames.has(name)) {
		context.reportedNames.add(name);
		diagnostics.warning({
			code: 'condition-name-not-referenceable',
			message: `condition name '${name}' has characters a formula cannot refer to`,
			hint: 'use only letters, digits, _ and - in condition names, so (N;%name%) can refer to them',
			pointer: `${pointer}/condition_name`,
		});
	}
	return true;
}

/**
 * Reads a condition's regions, checking their count against region_meta or the first condition
 * read (which sets it). `ok` is false when a region or the count has an error.
 */
function readConditionRegions(
	regionEntries: readonly (RegionFile | Flaw)[],
	itemIndex: number,
	conditionIndex: number,
	where: string,
	context: ReadContext,
): { regions: Region[]; ok: boolean } {
	let ok = true;
	const regions: Region[] = [];
	regionEntries.forEach((regionEntry, regionIndex) => {
		const place = { itemIndex, conditionIndex, regionIndex, conditionLabel: where };
		const region = readRegion(regionEntry, place, context);
		if (region === undefined) ok = false;
		else regions.push(region);
	});
	if (context.regionCount === undefined) context.regionCount = regionEntries.length;
	else if (regionEntries.length !== context.regionCount) {
		context.diagnostics.error({
			code: 'region-count-mismatch',
			message: `${where} has ${regionEntries.length} regions, but ${context.regionCountFromMeta ? 'region_meta names' : 'the first condition has'} ${context.regionCount}`,
			hint: 'every condition must have one region per region_meta entry, in order (use "" for an empty region)',
			pointer: `/items/${itemIndex}/conditions/${conditionIndex}/regions`,
		});
		ok = false;
	}
	return { regions, ok };
}

/** Where a region is, for pointers and messages (built only when something is reported). */
interface RegionPlace {
	readonly itemIndex: number;
	readonly conditionIndex: number;
	readonly regionIndex: number;
	/** The condition's label, e.g. `condition 'good' of item 4`. */
	readonly conditionLabel: string;
}

function regionPointer(place: RegionPlace): string {
	// numeric segments need no escaping; a template is much cheaper than jsonPointer per region
	return `/items/${place.itemIndex}/conditions/${place.conditionIndex}/regions/${place.regionIndex}`;
}

function regionLabel(place: RegionPlace): string {
	return `region ${place.regionIndex + 1} of ${place.conditionLabel}`;
}

function readRegion(
	entry: RegionFile | Flaw,
	place: RegionPlace,
	context: ReadContext,
): Region | undefined {
	const { diagnostics } = context;
	if (entry instanceof Flaw) {
		const where = regionLabel(place);
		reportFlaw(
			entry,
			regionPointer(place),
			{
				invalid: (found) => `${where} must be an object, found ${found}`,
				hint: `write {"region_number": ${place.regionIndex + 1}, "content": "..."}`,
			},
			diagnostics,
		);
		return undefined;
	}
	if (entry.otherFields !== undefined) reportRegionFields(entry.otherFields, place, diagnostics);
	const numberOk = checkRegionNumber(entry.region_number, place, diagnostics);
	const { content } = entry;
	if (content instanceof Flaw) {
		const where = regionLabel(place);
		reportFlaw(
			content,
			`${regionPointer(place)}/content`,
			{
				missing: `${where} has no content`,
				invalid: (found) => `content of ${where} must be a string, found ${found}`,
				hint: 'write "content": "the words of the region" ("" for an empty region)',
			},
			diagnostics,
		);
		return undefined;
	}
	const text = hasStrayWhitespace(content) ? readPaddedContent(content, place, context) : content;
	const ok = numberOk && text !== undefined;
	if (text === '' && ok) {
		diagnostics.warning({
			code: 'empty-region',
			message: `${regionLabel(place)} is empty: it adds nothing to the sentence and its sum is 0`,
			hint: 'fine if intended; range, max and min of an empty region are undefined',
			pointer: `${regionPointer(place)}/content`,
		});
	}
	return ok ? { regionNumber: place.regionIndex + 1, content: text } : undefined;
}

/** Warns about each field of a region but region_number and content, in file order. */
function reportRegionFields(
	otherFields: OtherFields,
	place: RegionPlace,
	diagnostics: DiagnosticCollector,
): void {
	const where = regionLabel(place);
	for (const [key] of otherFields) {
		diagnostics.warning({
			code: 'unknown-field',
			message: REGION_OUTPUT_FIELDS.has(key)
				? `field ${JSON.stringify(key)} of ${where} is an output of syntaxgym-core and is ignored`
				: `unknown field ${JSON.stringify(key)} in ${where} is ignored`,
			hint: 'a region has only "region_number" and "content"',
			pointer: `${regionPointer(place)}${jsonPointer(key)}`,
		});
	}
}

/** A region's region_number must be its 1-based position; reports it and returns false if not. */
function checkRegionNumber(
	regionNumber: RegionFile['region_number'],
	place: RegionPlace,
	diagnostics: DiagnosticCollector,
): boolean {
	const { regionIndex } = place;
	if (regionNumber === regionIndex + 1) return true;
	const where = regionLabel(place);
	const pointer = `${regionPointer(place)}/region_number`;
	const hint = `write "region_number": ${regionIndex + 1} (its position in the list)`;
	if (regionNumber instanceof Flaw) {
		reportFlaw(
			regionNumber,
			pointer,
			{
				missing: `${where} has no region_number`,
				invalid: (found) => `region_number of ${where} must be an integer, found ${found}`,
				hint,
			},
			diagnostics,
		);
	} else {
		diagnostics.error({
			code: 'region-number-mismatch',
			message: `${where} is numbered ${regionNumber}; regions must be numbered 1, 2, ... in order`,
			hint,
			pointer,
		});
	}
	return false;
}

/**
 * Content with stray whitespace: an error in strict mode (then undefined), else normalized with a
 * warning.
 */
function readPaddedContent(
	content: string,
	place: RegionPlace,
	context: ReadContext,
): string | undefined {
	const where = regionLabel(place);
	const fields = {
		code: 'region-content-whitespace',
		hint: 'remove leading and trailing spaces and double spaces from region content',
		pointer: `${regionPointer(place)}/content`,
	};
	if (context.mode === 'strict') {
		context.diagnostics.error({
			...fields,
			message: `content ${JSON.stringify(content)} of ${where} has leading, trailing or double whitespace, which syntaxgym-core rejects`,
		});
		return undefined;
	}
	const text = normalizeWhitespace(content);
	context.diagnostics.warning({
		...fields,
		message: `content ${JSON.stringify(content)} of ${where} has stray whitespace; read as ${JSON.stringify(text)}`,
	});
	return text;
}

/** Warns once per field the schema does not know (`otherFields`, in file order). */
function reportUnknownFields(
	otherFields: OtherFields | undefined,
	known: readonly string[],
	pointer: string,
	where: string,
	diagnostics: DiagnosticCollector,
): void {
	if (otherFields === undefined) return;
	for (const [key] of otherFields) {
		diagnostics.warning({
			code: 'unknown-field',
			message: `unknown field ${JSON.stringify(key)} in ${where} is ignored`,
			hint: `known fields are ${known.map((name) => `"${name}"`).join(', ')}`,
			pointer: `${pointer}${jsonPointer(key)}`,
		});
	}
}
