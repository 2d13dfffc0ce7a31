/**
 * Valibot schemas of untrusted JSON objects that keep a reader's located refusals: an object is a
 * JSON object (never an array), a missing field is refused as its own schema refuses a wrong value,
 * and a check across fields can name the element it is about. Unknown fields are dropped.
 */
import * as v from 'valibot';

/** Whether `value` is a JSON object: not null, not an array. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Any JSON object, as it is: put a v.variant of {@link jsonFields} after it. */
export function anyJsonObject(message: string) {
	return v.custom<Record<string, unknown>>(isJsonObject, message);
}

/**
 * The object of `entries` (checked in their order; unknown fields dropped, so `__proto__` and
 * `constructor` never reach the output); `message` refuses anything but a JSON object.
 */
export function jsonObject<const E extends v.ObjectEntries>(entries: E, message: string) {
	return v.pipe(anyJsonObject(message), jsonFields(entries, message));
}

/**
 * The fields of a JSON object alone, for a v.variant's options (put the variant after
 * {@link anyJsonObject}: valibot's objects take arrays). A missing field gets the message
 * its own schema gives `undefined` ("expected a string"), not valibot's "Invalid key".
 */
export function jsonFields<const E extends v.ObjectEntries>(entries: E, message: string) {
	return v.object(entries, (issue) => {
		const key = issue.path?.[0]?.key;
		const schema =
			typeof key === 'string' && Object.hasOwn(entries, key) ? entries[key] : undefined;
		if (schema === undefined) return message;
		return v.safeParse(schema, undefined, { abortEarly: true }).issues?.[0].message ?? message;
	});
}

/**
 * The path of an issue about `input` at `keys` (for a v.rawCheck's `addIssue`, when the element
 * it is about is known only at run time; v.forward does it for fixed paths).
 */
export function issuePathOf(
	input: unknown,
	keys: readonly [PropertyKey, ...PropertyKey[]],
): [v.IssuePathItem, ...v.IssuePathItem[]] {
	let at = input;
	const path = keys.map((key): v.IssuePathItem => {
		const value = isIndexable(at) ? (at as Record<PropertyKey, unknown>)[key] : undefined;
		const item: v.IssuePathItem = { type: 'unknown', origin: 'value', input: at, key, value };
		at = value;
		return item;
	});
	return path as [v.IssuePathItem, ...v.IssuePathItem[]];
}

function isIndexable(value: unknown): value is object {
	return typeof value === 'object' && value !== null;
}
