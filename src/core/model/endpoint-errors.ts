/**
 * What went wrong talking to an OpenAI-compatible endpoint, and what to do about it: one message
 * per failure kind (CORS / network, 401, 404, 429, 5xx, bad request, cannot score, incomplete,
 * timeout, too large). Pure: the client classifies a response or a failed fetch into an
 * {@link EndpointFailure}.
 */

export type EndpointFailureKind =
	| 'network'
	| 'mixed-content'
	| 'unauthorized'
	| 'not-found'
	| 'rate-limited'
	| 'server'
	| 'bad-request'
	| 'cannot-score'
	/** A 2xx answer that is not a complete one: cut off, empty, not JSON, an HTML page. */
	| 'incomplete'
	/** No answer headers, or no stream event, within the idle timeout; or past the deadline. */
	| 'timeout'
	/** A body over the size cap, or a stream past its `max_tokens`. */
	| 'too-large';

export interface EndpointFailure {
	readonly kind: EndpointFailureKind;
	/** HTTP status, when the server answered. */
	readonly status?: number;
	/** What the server said (its error message), when it said something. */
	readonly detail?: string;
}

export interface EndpointContext {
	readonly baseUrl: string;
	/** The model id asked for (404s are often a wrong id). */
	readonly model?: string;
	/** Origin of the page making the call (`http://127.0.0.1:4173`); absent in Node. */
	readonly pageOrigin?: string;
}

/** The kind of failure an HTTP status means (2xx → undefined). */
export function failureKindOfStatus(status: number): EndpointFailureKind | undefined {
	if (status >= 200 && status < 300) return undefined;
	if (status === 401 || status === 403) return 'unauthorized';
	if (status === 404) return 'not-found';
	if (status === 429) return 'rate-limited';
	if (status >= 500) return 'server';
	return 'bad-request';
}

/**
 * Whether a failure is a transport fault worth retrying with backoff: 429, 5xx, an incomplete
 * answer (dropped mid-body, cut-off stream, HTML or empty 200), or no answer at all (reset,
 * refused). Not a `timeout` (the wait was already as long as the user allows) nor a `too-large`
 * answer (a server that ignores `max_tokens` does so again).
 */
export function isRetryableFailure(kind: EndpointFailureKind): boolean {
	return (
		kind === 'rate-limited' || kind === 'server' || kind === 'incomplete' || kind === 'network'
	);
}

function isLoopbackHost(host: string): boolean {
	return host === 'localhost' || host === '[::1]' || /^127\./.test(host);
}

/**
 * A fetch that failed without a response: from an https page to a plain-http non-loopback server
 * it is mixed content (the browser never sent it); otherwise network or CORS (indistinguishable
 * from the page).
 */
export function failureOfFetchError(context: EndpointContext): EndpointFailure {
	const match = /^([a-z][a-z0-9+.-]*):\/\/(\[[^\]]*\]|[^/:?#]+)/i.exec(context.baseUrl.trim());
	const scheme = match?.[1]?.toLowerCase();
	const host = match?.[2]?.toLowerCase() ?? '';
	if (context.pageOrigin?.startsWith('https:') && scheme === 'http' && !isLoopbackHost(host)) {
		return { kind: 'mixed-content' };
	}
	return { kind: 'network' };
}

/** The message for a user: what happened at which URL, and what to do. */
export function endpointFailureMessage(failure: EndpointFailure, context: EndpointContext): string {
	const where = context.baseUrl;
	const said = failure.detail ? ` The server said: ${failure.detail}` : '';
	const status = failure.status !== undefined ? ` (HTTP ${failure.status})` : '';
	const origin = context.pageOrigin;
	// Where the limits are set: the CLI reads them from the environment; a page has its defaults.
	const limitsSetting = (sentence: string): string => (origin === undefined ? ` ${sentence}` : '');
	switch (failure.kind) {
		case 'network':
			// CORS advice only where there is a page: a terminal has no origin.
			if (origin === undefined) {
				return (
					`Cannot reach ${where}${failure.detail ? ` (${failure.detail})` : ''}: no answer (the ` +
					`connection was refused, reset or timed out) after retries. Check the URL and that the ` +
					`server is up and reachable from here.`
				);
			}
			return (
				`Cannot reach ${where}: the server is not running there, or (from a web page) it does not ` +
				`allow this origin (CORS). Check the URL and that the server is up, then allow ${origin}: ` +
				`vLLM \`--allowed-origins '["${origin}"]'\`, llama.cpp server \`--cors-origins ${origin}\` ` +
				`(it allows any origin by default), Ollama \`OLLAMA_ORIGINS=${origin}\`, Benchtop ` +
				`\`serve --allowed-origins ${origin}\`.`
			);
		case 'mixed-content':
			return (
				`This page is served over HTTPS and cannot call the plain-HTTP server ${where} (mixed ` +
				`content). Serve the endpoint over HTTPS, reach it through localhost (e.g. an SSH tunnel), ` +
				`or open Benchtop from http://localhost.`
			);
		case 'unauthorized':
			return `${where} refused the API key${status}. Check the key (OPENAI_API_KEY in the CLI) and that it is allowed to use this model.${said}`;
		case 'not-found':
			return (
				`${where} has no such endpoint or model${status}${context.model ? ` ('${context.model}')` : ''}. ` +
				`Check that the base URL ends in /v1 and that the model id is one the server lists at /v1/models.${said}`
			);
		case 'rate-limited':
			return `${where} is rate limiting the requests${status} and retries did not get through. Wait, or lower the concurrency.${said}`;
		case 'server':
			return `${where} failed${status} and retries did not help. Look at the server's log; it may be overloaded or out of memory.${said}`;
		case 'bad-request':
			return `${where} rejected the request${status}.${said}`;
		case 'incomplete':
			return (
				`${where} sent an incomplete answer${status} and retries did not get a complete one: ` +
				`${failure.detail ?? 'the answer was cut off'}. Nothing of it was kept: check the server ` +
				`(and any proxy or login page in front of it).`
			);
		case 'timeout':
			return (
				`${where} did not answer in time${status}: ${failure.detail ?? 'the wait ran out'}. ` +
				`Nothing of it was kept, and it was not retried: check that the server is not stalled or ` +
				`overloaded.${limitsSetting('The limits are set with BENCHTOP_ENDPOINT_IDLE_S and BENCHTOP_ENDPOINT_DEADLINE_S.')}`
			);
		case 'too-large':
			return (
				`${where} sent an answer too large to take${status}: ${failure.detail ?? 'over the cap'}. ` +
				`Nothing of it was kept, and it was not retried: check the server (does it honour ` +
				`max_tokens?).${limitsSetting('The size cap is set with BENCHTOP_ENDPOINT_MAX_BODY_MIB.')}`
			);
		case 'cannot-score':
			return (
				`${where} cannot score text: it does not return prompt logprobs (\`echo: true, logprobs\` on ` +
				`/v1/completions). Only vLLM (and Benchtop's serve) do; llama.cpp, Ollama and OpenAI chat ` +
				`models cannot be used for surprisal.${said}`
			);
	}
}
