/**
 * Reads and validates a SyntaxGym suite (standard or legacy JSON) into the typed model of types.ts,
 * collecting every problem as a located Diagnostic. Pure and linear in the input size; it never
 * throws for bad input and never copies parsed keys onto ordinary objects.
 */
import { DiagnosticCollector } from './diagnostic-collector';
import { jsonPointer, locateJsonPointers, readJsonText } from './json-source';
import { describeJsonType, isJsonObject, ownValue, recordFromEntries } from './json-value';
import { readPredictions } from './parse-predictions';
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

const SUITE_FIELDS = new Set(['meta', 'region_meta', 'predictions', 'items']);
const ITEM_FIELDS = new Set(['item_number', 'conditions']);
const CONDITION_FIELDS = new Set(['condition_name', 'regions']);
const REGION_FIELDS = new Set(['region_number', 'content']);
/** Region fields that syntaxgym-core writes into its output suites; ignored on input. */
const REGION_OUTPUT_FIELDS = new Set(['metric_value', 'oovs']);
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
	if (!isJsonObject(value)) {
		diagnostics.error({
			code: 'suite-not-object',
			message: `a suite must be a JSON object, found ${describeJsonType(value)}`,
			hint: 'write {"meta": {...}, "region_meta": {...}, "predictions": [...], "items": [...]}',
			pointer: '',
		});
		return undefined;
	}
	reportUnknownFields(value, SUITE_FIELDS, '', 'the suite', diagnostics);
	const meta = readMeta(ownValue(value, 'meta'), mode, diagnostics);
	const regionNames = readRegionMeta(ownValue(value, 'region_meta'), diagnostics);
	const context: ReadContext = {
		mode,
		diagnostics,
		regionCount: regionNames?.length,
		regionCountFromMeta: regionNames !== undefined,
		reportedNames: new Set(),
	};
	const items = readItems(ownValue(value, 'items'), context);
	const predictionsValue = ownValue(value, 'predictions');
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

// ---------------------------------------------------------------- meta

const META_STRING_FIELDS = ['author', 'reference', 'comment'] as const;

function readMeta(
	value: unknown,
	mode: 'strict' | 'compatible',
	diagnostics: DiagnosticCollector,
): SuiteMeta | undefined {
	if (value === undefined) {
		diagnostics.error({
			code: 'missing-field',
			message: "the suite has no 'meta' object",
			hint: 'add "meta": {"name": "my_suite", "metric": "sum"}',
			pointer: '/meta',
		});
		return undefined;
	}
	if (!isJsonObject(value)) {
		diagnostics.error({
			code: 'invalid-type',
			message: `'meta' must be an object, found ${describeJsonType(value)}`,
			hint: 'write "meta": {"name": "my_suite", "metric": "sum"}',
			pointer: '/meta',
		});
		return undefined;
	}
	let ok = true;
	const name = ownValue(value, 'name');
	if (typeof name !== 'string' || name.trim() === '') {
		diagnostics.error({
			code: name === undefined ? 'missing-field' : 'invalid-type',
			message:
				name === undefined
					? 'meta.name is missing'
					: `meta.name must be a non-empty string, found ${describeJsonType(name)}`,
			hint: 'add "name": "my_suite" to meta; results are reported under this name',
			pointer: '/meta/name',
		});
		ok = false;
	}
	const metric = readMetric(value, mode, diagnostics);
	const extra: [string, unknown][] = [];
	const optional: { author?: string; reference?: string; comment?: string; tags?: string[] } = {};
	for (const key of Object.keys(value)) {
		if (key === 'name' || key === 'metric') continue;
		const field = value[key];
		if ((META_STRING_FIELDS as readonly string[]).includes(key)) {
			if (typeof field === 'string') {
				optional[key as (typeof META_STRING_FIELDS)[number]] = field;
				continue;
			}
			warnMetaType(key, 'a string', field, diagnostics);
		} else if (key === 'tags') {
			if (Array.isArray(field) && field.every((tag) => typeof tag === 'string')) {
				optional.tags = field as string[];
				continue;
			}
			warnMetaType(key, 'a list of strings', field, diagnostics);
		}
		extra.push([key, field]);
	}
	if (!ok || metric === undefined || typeof name !== 'string') return undefined;
	return {
		name,
		metrics: metric.metrics,
		metricAsWritten: metric.asWritten,
		...optional,
		extra: recordFromEntries(extra),
	};
}

function warnMetaType(
	key: string,
	expected: string,
	value: unknown,
	diagnostics: DiagnosticCollector,
): void {
	diagnostics.warning({
		code: 'invalid-type',
		message: `meta.${key} should be ${expected}, found ${describeJsonType(value)}; kept as extra data`,
		hint: `write meta.${key} as ${expected}`,
		pointer: jsonPointer('meta', key),
	});
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
	meta: Readonly<Record<string, unknown>>,
	mode: 'strict' | 'compatible',
	diagnostics: DiagnosticCollector,
): { metrics: MetricName[]; asWritten: string | string[] } | undefined {
	const value = ownValue(meta, 'metric');
	const pointer = '/meta/metric';
	if (value === undefined) {
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
	if (typeof value === 'string') {
		if (value === 'all') return { metrics: [...METRIC_NAMES], asWritten: value };
		if (isMetricName(value)) return { metrics: [value], asWritten: value };
		unknownMetric(value, pointer, diagnostics);
		return undefined;
	}
	if (!Array.isArray(value)) {
		diagnostics.error({
			code: 'invalid-type',
			message: `meta.metric must be a metric name or a list of them, found ${describeJsonType(value)}`,
			hint: METRIC_HINT,
			pointer,
		});
		return undefined;
	}
	if (value.length === 0) {
		diagnostics.error({
			code: 'unknown-metric',
			message: 'meta.metric is an empty list',
			hint: METRIC_HINT,
			pointer,
		});
		return undefined;
	}
	const metrics: MetricName[] = [];
	let ok = true;
	value.forEach((entry: unknown, index) => {
		if (!isMetricName(entry)) {
			unknownMetric(entry, `${pointer}/${index}`, diagnostics);
			ok = false;
		} else if (metrics.includes(entry)) {
			diagnostics.warning({
				code: 'duplicate-metric',
				message: `metric "${entry}" is listed twice; it is computed once`,
				hint: 'remove the repeated metric name',
				pointer: `${pointer}/${index}`,
			});
		} else metrics.push(entry);
	});
	return ok ? { metrics, asWritten: value as string[] } : undefined;
}

// ---------------------------------------------------------------- region_meta

/** `region_meta` as names in region order, or undefined (with errors) when it is unusable. */
function readRegionMeta(value: unknown, diagnostics: DiagnosticCollector): string[] | undefined {
	const pointer = '/region_meta';
	if (value === undefined || !isJsonObject(value)) {
		diagnostics.error({
			code: value === undefined ? 'missing-field' : 'invalid-type',
			message:
				value === undefined
					? "the suite has no 'region_meta'"
					: `'region_meta' must be an object, found ${describeJsonType(value)}`,
			hint: 'write "region_meta": {"1": "name of region 1", "2": "name of region 2", ...}',
			pointer,
		});
		return undefined;
	}
	const names = new Map<number, string>();
	/** Every well-formed region number, also those whose name is invalid (no gap then). */
	const numbers = new Set<number>();
	let ok = true;
	for (const key of Object.keys(value)) {
		const name = value[key];
		if (!/^[1-9][0-9]*$/.test(key) || !Number.isSafeInteger(Number(key))) {
			diagnostics.error({
				code: 'region-meta-key',
				message: `region_meta key ${JSON.stringify(key)} is not a region number`,
				hint: 'region_meta keys are the region numbers "1", "2", ... without leading zeros',
				pointer: jsonPointer('region_meta', key),
			});
			ok = false;
			continue;
		}
		numbers.add(Number(key));
		if (typeof name !== 'string') {
			diagnostics.error({
				code: 'invalid-type',
				message: `the name of region ${key} in region_meta must be a string, found ${describeJsonType(name)}`,
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
	value: unknown,
	context: ReadContext,
): { items: Item[]; conditionNames: string[] | undefined } | undefined {
	const { diagnostics } = context;
	if (value === undefined || !Array.isArray(value)) {
		diagnostics.error({
			code: value === undefined ? 'missing-field' : 'invalid-type',
			message:
				value === undefined
					? "the suite has no 'items' list"
					: `'items' must be a list, found ${describeJsonType(value)}`,
			hint: 'write "items": [{"item_number": 1, "conditions": [...]}, ...]',
			pointer: '/items',
		});
		return undefined;
	}
	if (value.length === 0) {
		diagnostics.error({
			code: 'empty-items',
			message: 'the suite has no items',
			hint: 'add at least one item with its conditions',
			pointer: '/items',
		});
		return undefined;
	}
	const items: Item[] = [];
	const itemIndexByNumber = new Map<number, number>();
	let reference: ConditionSet | undefined;
	value.forEach((entry: unknown, index) => {
		const item = readItem(entry, index, context);
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
			items.push({ itemNumber: item.itemNumber, conditions: item.conditions });
		}
	});
	return { items, conditionNames: reference?.names };
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

function readItem(entry: unknown, index: number, context: ReadContext): ItemRead | undefined {
	const { diagnostics } = context;
	const pointer = `/items/${index}`;
	if (!isJsonObject(entry)) {
		diagnostics.error({
			code: 'invalid-type',
			message: `the item at ${pointer} must be an object, found ${describeJsonType(entry)}`,
			hint: 'write {"item_number": 1, "conditions": [...]}',
			pointer,
		});
		return undefined;
	}
	const itemNumber = ownValue(entry, 'item_number');
	const validNumber = typeof itemNumber === 'number' && Number.isSafeInteger(itemNumber);
	const label = validNumber ? `item ${itemNumber}` : `the item at ${pointer}`;
	reportUnknownFields(entry, ITEM_FIELDS, pointer, label, diagnostics);
	if (!validNumber) {
		diagnostics.error({
			code: itemNumber === undefined ? 'missing-field' : 'invalid-type',
			message:
				itemNumber === undefined
					? `${label} has no item_number`
					: `item_number of ${label} must be an integer, found ${describeJsonType(itemNumber)}`,
			hint: `write "item_number": ${index + 1}`,
			pointer: `${pointer}/item_number`,
		});
	}
	const conditionsValue = ownValue(entry, 'conditions');
	if (!Array.isArray(conditionsValue) || conditionsValue.length === 0) {
		reportConditionsList(conditionsValue, label, pointer, diagnostics);
		return {
			itemNumber: validNumber ? itemNumber : undefined,
			label,
			names: undefined,
			conditions: [],
			complete: false,
		};
	}
	return {
		itemNumber: validNumber ? itemNumber : undefined,
		label,
		...readItemConditions(conditionsValue, index, label, context),
	};
}

/** Reports an item's `conditions` that is missing, not a list, or empty. */
function reportConditionsList(
	conditionsValue: unknown,
	label: string,
	pointer: string,
	diagnostics: DiagnosticCollector,
): void {
	diagnostics.error({
		code: Array.isArray(conditionsValue)
			? 'empty-conditions'
			: conditionsValue === undefined
				? 'missing-field'
				: 'invalid-type',
		message: Array.isArray(conditionsValue)
			? `${label} has no conditions`
			: conditionsValue === undefined
				? `${label} has no 'conditions' list`
				: `conditions of ${label} must be a list, found ${describeJsonType(conditionsValue)}`,
		hint: 'write "conditions": [{"condition_name": "...", "regions": [...]}, ...]',
		pointer: `${pointer}/conditions`,
	});
}

/** Reads the conditions of item `index`, reporting a condition name used twice. */
function readItemConditions(
	conditionsValue: readonly unknown[],
	index: number,
	label: string,
	context: ReadContext,
): Pick<ItemRead, 'names' | 'conditions' | 'complete'> {
	const conditions: Condition[] = [];
	const firstByName = new Map<string, number>();
	let namesOk = true;
	let complete = true;
	conditionsValue.forEach((conditionEntry: unknown, conditionIndex) => {
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
	entry: unknown,
	itemIndex: number,
	conditionIndex: number,
	itemLabel: string,
	context: ReadContext,
): { name: string | undefined; condition: Condition | undefined } {
	const { diagnostics } = context;
	const pointer = `/items/${itemIndex}/conditions/${conditionIndex}`;
	const rawName = isJsonObject(entry) ? ownValue(entry, 'condition_name') : undefined;
	const where =
		typeof rawName === 'string' && rawName !== ''
			? `condition '${rawName}' of ${itemLabel}`
			: `condition ${conditionIndex + 1} of ${itemLabel}`;
	if (!isJsonObject(entry)) {
		diagnostics.error({
			code: 'invalid-type',
			message: `${where} must be an object, found ${describeJsonType(entry)}`,
			hint: 'write {"condition_name": "...", "regions": [...]}',
			pointer,
		});
		return { name: undefined, condition: undefined };
	}
	reportUnknownFields(entry, CONDITION_FIELDS, pointer, where, diagnostics);
	const name = ownValue(entry, 'condition_name');
	const nameOk = checkConditionName(name, where, pointer, context);
	const validName = typeof name === 'string' && name !== '' ? name : undefined;
	const regionsValue = ownValue(entry, 'regions');
	if (!Array.isArray(regionsValue)) {
		diagnostics.error({
			code: regionsValue === undefined ? 'missing-field' : 'invalid-type',
			message:
				regionsValue === undefined
					? `${where} has no 'regions' list`
					: `regions of ${where} must be a list, found ${describeJsonType(regionsValue)}`,
			hint: 'write "regions": [{"region_number": 1, "content": "..."}, ...]',
			pointer: `${pointer}/regions`,
		});
		return { name: validName, condition: undefined };
	}
	const { regions, ok: regionsOk } = readConditionRegions(
		regionsValue,
		itemIndex,
		conditionIndex,
		where,
		context,
	);
	const ok = nameOk && regionsOk;
	if (ok && regions.every((region) => region.content === '')) {
		diagnostics.warning({
			code: 'empty-sentence',
			message: `every region of ${where} is empty, so its sentence is empty`,
			hint: 'give the condition some region content',
			pointer: `${pointer}/regions`,
		});
	}
	if (!ok || validName === undefined) return { name: validName, condition: undefined };
	return { name: validName, condition: { conditionName: validName, regions } };
}

/**
 * Checks a condition_name: a missing or empty one is an error (false), one a formula cannot
 * refer to a warning (once per name).
 */
function checkConditionName(
	name: unknown,
	where: string,
	pointer: string,
	context: ReadContext,
): boolean {
	const { diagnostics } = context;
	if (typeof name !== 'string' || name === '') {
		diagnostics.error({
			code: name === undefined ? 'missing-field' : 'invalid-type',
			message:
				name === undefined
					? `${where} has no condition_name`
					: `condition_name of ${where} must be a non-empty string, found ${describeJsonType(name)}`,
			hint: 'write "condition_name": "grammatical" (letters, digits, _ and - so formulas can refer to it)',
			pointer: `${pointer}/condition_name`,
		});
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
	regionsValue: readonly unknown[],
	itemIndex: number,
	conditionIndex: number,
	where: string,
	context: ReadContext,
): { regions: Region[]; ok: boolean } {
	let ok = true;
	const regions: Region[] = [];
	regionsValue.forEach((regionEntry: unknown, regionIndex) => {
		const region = readRegion(regionEntry, itemIndex, conditionIndex, regionIndex, where, context);
		if (region === undefined) ok = false;
		else regions.push(region);
	});
	if (context.regionCount === undefined) context.regionCount = regionsValue.length;
	else if (regionsValue.length !== context.regionCount) {
		context.diagnostics.error({
			code: 'region-count-mismatch',
			message: `${where} has ${regionsValue.length} regions, but ${context.regionCountFromMeta ? 'region_meta names' : 'the first condition has'} ${context.regionCount}`,
			hint: 'every condition must have one region per region_meta entry, in order (use "" for an empty region)',
			pointer: `/items/${itemIndex}/conditions/${conditionIndex}/regions`,
		});
		ok = false;
	}
	return { regions, ok };
}

function readRegion(
	entry: unknown,
	itemIndex: number,
	conditionIndex: number,
	regionIndex: number,
	conditionLabel: string,
	context: ReadContext,
): Region | undefined {
	const { diagnostics } = context;
	// numeric segments need no escaping; a template is much cheaper than jsonPointer per region
	const pointer = `/items/${itemIndex}/conditions/${conditionIndex}/regions/${regionIndex}`;
	const where = `region ${regionIndex + 1} of ${conditionLabel}`;
	if (!isJsonObject(entry)) {
		diagnostics.error({
			code: 'invalid-type',
			message: `${where} must be an object, found ${describeJsonType(entry)}`,
			hint: `write {"region_number": ${regionIndex + 1}, "content": "..."}`,
			pointer,
		});
		return undefined;
	}
	for (const key of Object.keys(entry)) {
		if (REGION_FIELDS.has(key)) continue;
		diagnostics.warning({
			code: 'unknown-field',
			message: REGION_OUTPUT_FIELDS.has(key)
				? `field ${JSON.stringify(key)} of ${where} is an output of syntaxgym-core and is ignored`
				: `unknown field ${JSON.stringify(key)} in ${where} is ignored`,
			hint: 'a region has only "region_number" and "content"',
			pointer: `${pointer}${jsonPointer(key)}`,
		});
	}
	const numberOk = checkRegionNumber(
		ownValue(entry, 'region_number'),
		regionIndex,
		where,
		pointer,
		diagnostics,
	);
	const content = ownValue(entry, 'content');
	if (typeof content !== 'string') {
		diagnostics.error({
			code: content === undefined ? 'missing-field' : 'invalid-type',
			message:
				content === undefined
					? `${where} has no content`
					: `content of ${where} must be a string, found ${describeJsonType(content)}`,
			hint: 'write "content": "the words of the region" ("" for an empty region)',
			pointer: `${pointer}/content`,
		});
		return undefined;
	}
	const { text, ok: contentOk } = readRegionContent(content, where, pointer, context);
	const ok = numberOk && contentOk;
	if (text === '' && ok) {
		diagnostics.warning({
			code: 'empty-region',
			message: `${where} is empty: it adds nothing to the sentence and its sum is 0`,
			hint: 'fine if intended; range, max and min of an empty region are undefined',
			pointer: `${pointer}/content`,
		});
	}
	return ok ? { regionNumber: regionIndex + 1, content: text } : undefined;
}

/** A region's region_number must be its 1-based position; reports it and returns false if not. */
function checkRegionNumber(
	regionNumber: unknown,
	regionIndex: number,
	where: string,
	pointer: string,
	diagnostics: DiagnosticCollector,
): boolean {
	if (regionNumber === regionIndex + 1) return true;
	const isInteger = typeof regionNumber === 'number' && Number.isInteger(regionNumber);
	diagnostics.error({
		code: isInteger
			? 'region-number-mismatch'
			: regionNumber === undefined
				? 'missing-field'
				: 'invalid-type',
		message: isInteger
			? `${where} is numbered ${regionNumber}; regions must be numbered 1, 2, ... in order`
			: regionNumber === undefined
				? `${where} has no region_number`
				: `region_number of ${where} must be an integer, found ${describeJsonType(regionNumber)}`,
		hint: `write "region_number": ${regionIndex + 1} (its position in the list)`,
		pointer: `${pointer}/region_number`,
	});
	return false;
}

/**
 * A region's content with stray whitespace: an error in strict mode (`ok` false), else
 * normalized with a warning.
 */
function readRegionContent(
	content: string,
	where: string,
	pointer: string,
	context: ReadContext,
): { text: string; ok: boolean } {
	if (!hasStrayWhitespace(content)) return { text: content, ok: true };
	const fields = {
		code: 'region-content-whitespace',
		hint: 'remove leading and trailing spaces and double spaces from region content',
		pointer: `${pointer}/content`,
	};
	if (context.mode === 'strict') {
		context.diagnostics.error({
			...fields,
			message: `content ${JSON.stringify(content)} of ${where} has leading, trailing or double whitespace, which syntaxgym-core rejects`,
		});
		return { text: content, ok: false };
	}
	const text = normalizeWhitespace(content);
	context.diagnostics.warning({
		...fields,
		message: `content ${JSON.stringify(content)} of ${where} has stray whitespace; read as ${JSON.stringify(text)}`,
	});
	return { text, ok: true };
}

function reportUnknownFields(
	entry: Readonly<Record<string, unknown>>,
	known: ReadonlySet<string>,
	pointer: string,
	where: string,
	diagnostics: DiagnosticCollector,
): void {
	for (const key of Object.keys(entry)) {
		if (known.has(key)) continue;
		diagnostics.warning({
			code: 'unknown-field',
			message: `unknown field ${JSON.stringify(key)} in ${where} is ignored`,
			hint: `known fields are ${[...known].map((name) => `"${name}"`).join(', ')}`,
			pointer: `${pointer}${jsonPointer(key)}`,
		});
	}
}
