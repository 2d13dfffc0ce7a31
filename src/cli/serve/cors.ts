/**
 * Which web pages may call `serve` (CORS): pages served from this machine (loopback origins, any
 * port, as Ollama allows) plus the origins the user lists; `*` only when listed explicitly.
 */

/** `http(s)://127.0.0.1`, `localhost` or `[::1]`, with or without a port. */
const LOOPBACK_ORIGIN = /^https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\])(?::\d{1,5})?$/;

/** Whether `origin` is a page served from this machine's loopback interface. */
export function isLoopbackOrigin(origin: string): boolean {
	return LOOPBACK_ORIGIN.test(origin);
}

/**
 * The `access-control-allow-origin` value for a request's `Origin`, or undefined when the origin
 * is not allowed (or the request has none: not a cross-origin browser request).
 * @param listed the `--allowed-origins` entries (exact origins, or `*` for any).
 */
export function corsGrant(
	listed: readonly string[],
	origin: string | undefined,
): string | undefined {
	if (origin === undefined) return undefined;
	if (listed.includes('*')) return '*';
	return isLoopbackOrigin(origin) || listed.includes(origin) ? origin : undefined;
}
