/**
 * Pure parts of choosing an OpenAI-compatible endpoint in the app: checking a typed base URL
 * (scheme, mixed content from an HTTPS page) and model id, in words that say what to do. No I/O.
 */

/** Hosts a browser treats as potentially trustworthy over plain http (no mixed-content block). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function isLoopback(hostname: string): boolean {
	return LOOPBACK_HOSTS.has(hostname) || hostname.endsWith('.localhost');
}

/**
 * Why `baseUrl` cannot be used from a page served over `pageProtocol` (`http:` / `https:`), or
 * null when it can. The URL is what servers print: `http://host:8000/v1` (a path is allowed).
 */
export function checkEndpointBaseUrl(baseUrl: string, pageProtocol: string): string | null {
	const trimmed = baseUrl.trim();
	if (trimmed === '') return 'Type the endpoint base URL, e.g. http://127.0.0.1:8000/v1.';
	const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(trimmed);
	if (!scheme) {
		return 'The base URL must start with http:// or https://, e.g. http://127.0.0.1:8000/v1.';
	}
	const protocol = `${(scheme[1] ?? '').toLowerCase()}:`;
	if (protocol !== 'http:' && protocol !== 'https:') {
		return `The base URL must start with http:// or https:// (got ${protocol}).`;
	}
	// scheme://[userinfo@]host[:port][/path][?query][#fragment] (core has no URL class).
	const parts =
		/^[^:]+:\/\/(?:([^@/?#]*)@)?(\[[0-9a-f:.]+\]|[^\s/?#:@[\]]+)(?::(\d{1,5}))?(\/[^\s?#]*)?(\?[^#]*)?(#.*)?$/i.exec(
			trimmed,
		);
	if (!parts) {
		return `"${trimmed}" is not a URL: type it as the server prints it, e.g. http://127.0.0.1:8000/v1.`;
	}
	const [, userinfo, host = '', , , query, fragment] = parts;
	if (userinfo !== undefined) {
		return 'The base URL holds a user name or password (user:password@host): remove it and give the key in the key field (app) or as OPENAI_API_KEY (CLI), so it never lands in logs, records or links.';
	}
	if (query !== undefined || fragment !== undefined) {
		return 'The base URL takes no ?query or #fragment: type only the server and path (e.g. …/v1).';
	}
	const hostname = host.toLowerCase();
	if (pageProtocol === 'https:' && protocol === 'http:' && !isLoopback(hostname)) {
		return (
			`This page is served over HTTPS, so the browser blocks plain-http ${hostname} (mixed ` +
			'content). Serve the endpoint over https (e.g. behind a reverse proxy), use localhost, or ' +
			'open the app over http from the same network.'
		);
	}
	return null;
}

/** Why a typed model id cannot be sent, or null. Ids are as the server lists them. */
export function checkEndpointModelId(modelId: string): string | null {
	const trimmed = modelId.trim();
	if (trimmed === '')
		return 'Type the model id as the server lists it (Test connection lists them).';
	if (/\s/.test(trimmed)) return 'A model id has no spaces: copy it from the list of models.';
	return null;
}

/** The base URL as stored in a spec: trimmed, without trailing slashes (`http://h:8000/v1/` → `http://h:8000/v1`). */
export function normalizeEndpointBaseUrl(baseUrl: string): string {
	return baseUrl.trim().replace(/\/+$/, '');
}
