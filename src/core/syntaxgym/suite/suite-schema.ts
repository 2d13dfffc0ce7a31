/**
 * The valibot schema of a SyntaxGym suite file: its objects, lists and field types. A field that
 * is missing or of the wrong type does not fail the parse: it becomes a Flaw in place, so one pass
 * checks every field and parse-suite.ts reports each Flaw where it sits. No semantic checks here.
 */
import * as v from 'valibot';
import { describeJsonType, isJsonObject } from './json-value';
import { METRIC_NAMES } from './types';

/**
 * What a checked field holds when it is missing or does not match its schema: the value as
 * written and valibot's first issue about it (none when the field is missing).
 */
export class Flaw {
	constructor(
		/** The value as written; undefined when the field is absent. */
		readonly found: unknown,
		readonly issue: v.BaseIssue<unknown> | undefined,
	) {}

	/** The field is absent (or undefined, in an already-parsed value). */
	get missing(): boolean {
		return this.found === undefined;
	}

	/** `the number 3`, `a list`, `nothing`...: what was found, for messages. */
	get foundText(): string {
		return describeJsonType(this.found);
	}
}

/**
 * `schema`, but a value it rejects (or a missing object field) becomes a Flaw instead of an
 * issue, so the rest of the suite is still checked and typed.
 */
function checked<const TSchema extends v.GenericSchema>(schema: TSchema) {
	// NOTE: valibot calls an object field's fallback without a dataset when the field is absent.
	return v.fallback(
		schema as v.GenericSchema<v.InferInput<TSchema>, v.InferOutput<TSchema> | Flaw>,
		(dataset) => new Flaw(dataset?.value, dataset?.issues?.[0]),
	);
}

/** Own fields of an object that its schema does not name, in file order, with their values. */
export type OtherFields = readonly (readonly [name: string, value: unknown])[];

/**
 * A JSON object (not a list, not null) with the fields of `entries`, each read as an own
 * property only; every other field, `__proto__` included, is listed in `otherFields` as plain
 * data. (valibot's strictObject stops at the first unknown key, and its record, looseObject and
 * objectWithRest skip `__proto__`, `constructor` and `prototype`.)
 */
function fileObject<const TEntries extends v.ObjectEntries>(entries: TEntries) {
	const names = new Set(Object.keys(entries));
	// absent (no other fields) unless the object is copied below
	const fields = v.object({
		...entries,
		otherFields: v.optional(v.custom<OtherFields>(Array.isArray)),
	});
	return v.pipe(
		v.custom<Readonly<Record<string, unknown>>>(isJsonObject),
		v.transform((input) => {
			// NOTE: most objects have only known fields, and are read as they are (no copy).
			const plain = Object.getPrototypeOf(input) === Object.prototype;
			if (plain && hasOnlyFields(input, names)) return input as v.InferInput<typeof fields>;
			const own: Record<string, unknown> = {};
			const otherFields: [string, unknown][] = [];
			for (const name of Object.keys(input)) {
				if (names.has(name)) own[name] = input[name];
				else otherFields.push([name, input[name]]);
			}
			own['otherFields'] = otherFields;
			return own as v.InferInput<typeof fields>;
		}),
		fields,
	);
}

/** Every enumerable key of `input` (own or inherited) is an own one among `names`. */
function hasOnlyFields(
	input: Readonly<Record<string, unknown>>,
	names: ReadonlySet<string>,
): boolean {
	for (const name in input) {
		if (!names.has(name) || !Object.hasOwn(input, name)) return false;
	}
	return true;
}

/**
 * A region. `metric_value` and `oovs`, which syntaxgym-core writes into its output suites, are
 * not read: like any other field they end up in `otherFields` (see REGION_OUTPUT_FIELDS).
 */
const REGION_FIELDS = {
	region_number: checked(v.pipe(v.number(), v.integer())),
	content: checked(v.string()),
};

/** Region fields that syntaxgym-core writes into its output suites; ignored on input. */
export const REGION_OUTPUT_FIELDS: ReadonlySet<string> = new Set(['metric_value', 'oovs']);

const CONDITION_FIELDS = {
	condition_name: checked(v.pipe(v.string(), v.minLength(1))),
	regions: checked(v.array(checked(fileObject(REGION_FIELDS)))),
};

const ITEM_FIELDS = {
	item_number: checked(v.pipe(v.number(), v.safeInteger())),
	conditions: checked(v.pipe(v.array(checked(fileObject(CONDITION_FIELDS))), v.minLength(1))),
};

/** `meta.metric`: a metric name, `"all"`, or a non-empty list of metric names. */
const METRIC = checked(
	v.union([
		v.picklist(['all', ...METRIC_NAMES]),
		v.pipe(v.array(checked(v.picklist(METRIC_NAMES))), v.minLength(1)),
	]),
);

/**
 * Optional `meta` fields, with their schema and its words for messages. They are read from the
 * meta's other fields in file order: one of another type is kept as extra data (with a warning).
 */
export const META_OPTIONAL_FIELDS: ReadonlyMap<
	string,
	{ readonly schema: v.GenericSchema; readonly words: string }
> = new Map([
	['author', { schema: v.string(), words: 'a string' }],
	['reference', { schema: v.string(), words: 'a string' }],
	['comment', { schema: v.string(), words: 'a string' }],
	['tags', { schema: v.array(v.string()), words: 'a list of strings' }],
]);

const META_FIELDS = {
	name: checked(
		v.pipe(
			v.string(),
			v.check((name) => name.trim() !== ''),
		),
	),
	metric: METRIC,
};

/**
 * `region_meta` as `[region number as written, name]` in file order. Its keys are checked one by
 * one rather than with valibot's record, which would skip a `__proto__` key without a word.
 */
const REGION_META = checked(
	v.pipe(
		v.custom<Readonly<Record<string, unknown>>>(isJsonObject),
		v.transform((names) => Object.entries(names)),
		v.array(
			v.tuple([
				checked(
					v.pipe(
						v.string(),
						v.regex(/^[1-9][0-9]*$/),
						v.check((key) => Number.isSafeInteger(Number(key))),
					),
				),
				checked(v.string()),
			]),
		),
	),
);

/**
 * One item of `items`. parse-suite.ts checks each item as it reads it, so the typed copy of a
 * large suite never exists whole and each item's copy dies young (checking all items up front
 * made parseSuite about 40% slower on a synthetic 20 000-item suite).
 */
export const ITEM_FILE = checked(fileObject(ITEM_FIELDS));

const SUITE_FIELDS = {
	meta: checked(fileObject(META_FIELDS)),
	region_meta: REGION_META,
	/** Read, with its own diagnostics, by parse-predictions.ts. */
	predictions: v.optional(v.unknown()),
	/** A non-empty list of ITEM_FILE. */
	items: checked(v.pipe(v.array(v.unknown()), v.minLength(1))),
};

/** A suite file: fails (with one issue) only when the value is not a JSON object. */
export const SUITE_FILE = fileObject(SUITE_FIELDS);

/** The known fields of each object, in the order hints list them. */
export const FIELD_NAMES = {
	suite: Object.keys(SUITE_FIELDS),
	item: Object.keys(ITEM_FIELDS),
	condition: Object.keys(CONDITION_FIELDS),
} as const;

export type SuiteFile = v.InferOutput<typeof SUITE_FILE>;
export type MetaFile = Exclude<SuiteFile['meta'], Flaw>;
export type ItemFile = Exclude<v.InferOutput<typeof ITEM_FILE>, Flaw>;
export type ConditionFile = Exclude<Exclude<ItemFile['conditions'], Flaw>[number], Flaw>;
export type RegionFile = Exclude<Exclude<ConditionFile['regions'], Flaw>[number], Flaw>;
