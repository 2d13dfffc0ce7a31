/**
 * JSON text that does not depend on key order: what the core hashes when two writers (or a writer
 * and a tool that rewrote the file) must agree on a digest (response cache keys, a run bundle's
 * results fingerprint). Pure.
 */

/** JSON with object keys sorted at every depth (arrays keep their order), `undefined` dropped. */
export function canonicalJson(value: unknown): string {
	if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
	if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
	const entries = Object.entries(value as Record<string, unknown>)
		.filter(([, v]) => v !== undefined)
		.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
