/**
 * Safe reading of already-parsed JSON values: own properties only (a key such as `constructor`
 * or `__proto__` never reaches a prototype) and short type names for messages.
 */

/** A JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Readonly<Record<string, unknown>> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `object[key]` if it is an own property, else undefined (never an inherited member). */
export function ownValue(object: Readonly<Record<string, unknown>>, key: string): unknown {
	return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** `null`, `an array`, `an object`, `a string "..."`, `the number 3`, `true`, `nothing`. */
export function describeJsonType(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'string') {
		const shown = value.length > 30 ? `${value.slice(0, 30)}...` : value;
		return `the string ${JSON.stringify(shown)}`;
	}
	if (typeof value === 'number') return `the number ${value}`;
	if (typeof value === 'boolean') return String(value);
	if (typeof value === 'object') return 'an object';
	return typeof value;
}

/** A null-prototype record built from entries: keys like `__proto__` stay ordinary own data. */
export function recordFromEntries<T>(entries: Iterable<readonly [string, T]>): Record<string, T> {
	const record = Object.create(null) as Record<string, T>;
	for (const [key, value] of entries) {
		Object.defineProperty(record, key, {
			value,
			enumerable: true,
			writable: true,
			configurable: true,
		});
	}
	return record;
}
