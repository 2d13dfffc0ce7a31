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
	if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
		return 'The base URL must start with http:// or https://, e.g. http://127.0.0.1:8000/v1.';
	}
	let url: URL;
	try {
		url = new URL(trimmed);
	} catch {
		return `"${trimmed}" is not a URL: type it as the server prints it, e.g. http://127.0.0.1:8000/v1.`;
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		return `The base URL must start with http:// or https:// (got ${url.protocol}).`;
	}
	if (url.username !== '' || url.password !== '') {
		return 'Put the API key in the key field, not in the URL.';
	}
	if (url.search !== '' || url.hash !== '') {
		return 'The base URL takes no ?query or #fragment: type only the server and path (e.g. …/v1).';
	}
	if (pageProtocol === 'https:' && url.protocol === 'http:' && !isLoopback(url.hostname)) {
		return (
			`This page is served over HTTPS, so the browser blocks plain-http ${url.host} (mixed ` +
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

/** The base URL as stored in a spec: trimmed, without trailing slashes. */
export function normalizeEndpointBaseUrl(baseUrl: string): string {
	return baseUrl.trim().replace(/\/+$/, '');
}
