/**
 * JSON text that does not depend on key order: what the core hashes when two writers (or a writer
 * and a tool that rewrote the file) must agree on a digest (response cache keys, a run bundle's
 * results fingerprint). Pure.
 */

/** An array index as an object key: JavaScript lists such keys first, in numeric order. */
const INDEX_KEY = /^(?:0|[1-9]\d{0,9})$/u;

/** JSON with sorted keys, written by hand: for objects with array-index keys (see below). */
function writeSorted(value: unknown): string {
	if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
	if (Array.isArray(value)) {
		let out = '[';
		for (let i = 0; i < value.length; i++) {
			if (i > 0) out += ',';
			out += writeSorted(value[i] ?? null);
		}
		return `${out}]`;
	}
	const record = value as Record<string, unknown>;
	let out = '{';
	for (const key of Object.keys(record).sort()) {
		const item = record[key];
		if (item === undefined) continue;
		if (out.length > 1) out += ',';
		out += `${JSON.stringify(key)}:${writeSorted(item)}`;
	}
	return `${out}}`;
}

/**
 * JSON with object keys sorted at every depth (UTF-16 code units, as `Array.sort`; arrays keep
 * their order), `undefined` dropped (in an array: `null`). Native JSON.stringify writes it, each
 * object handed over with its keys in order (a copy only where they were not): a 30 MiB run
 * bundle's results in about half the time of a writer by hand. An object with an array-index key
 * ("9", "10") cannot be handed over in string order (JavaScript lists those keys first,
 * numerically), so a value that has one is written by hand.
 */
export function canonicalJson(value: unknown): string {
	let indexKeys = false;
	const text = JSON.stringify(value, (_key, item: unknown) => {
		if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
		const record = item as Record<string, unknown>;
		const keys = Object.keys(record);
		let sorted = true;
		for (let i = 0; i < keys.length; i++) {
			const key = keys[i] as string;
			const first = key.charCodeAt(0);
			if (first >= 48 && first <= 57 && INDEX_KEY.test(key)) indexKeys = true;
			if (i > 0 && (keys[i - 1] as string) > key) sorted = false;
		}
		if (sorted || indexKeys) return item;
		const copy: Record<string, unknown> = {};
		for (const key of keys.sort()) copy[key] = record[key];
		return copy;
	});
	if (indexKeys) return writeSorted(value);
	return text ?? 'null';
}
