/**
 * Any thrown value as one sentence for the user. Named errors keep their message; unknown
 * values are stringified; raw engine text (transformers.js, onnxruntime, fetch) is replaced by
 * our own words saying what happened and what to do. No stack traces in the UI.
 */

/** Library messages we recognise, and what we say instead. First match wins. */
const ENGINE_MESSAGES: readonly { readonly pattern: RegExp; readonly message: string }[] = [
	{
		pattern:
			/local_files_only\s*=\s*true|`local_files_only`|allowRemoteModels|env\.allowRemoteModels/i,
		message:
			'The model files are not in this browser yet and cannot be downloaded now (offline). Connect to the network once and load the model, then it works offline.',
	},
	{
		pattern: /Failed to fetch|NetworkError|net::ERR_|ERR_INTERNET_DISCONNECTED|Load failed/i,
		message:
			'The download failed: the network is unreachable. Check the connection and try again; models used before still work offline.',
	},
	{
		pattern: /Could not locate file|404|Not Found/i,
		message:
			'A model file was not found (config.json, tokenizer.json or onnx/model.onnx). Check the model id, revision and dtype.',
	},
	{
		pattern: /\b(401|403)\b|Unauthorized|Forbidden|gated/i,
		message:
			'The hub refused the download: the model is private or gated. Pick a public model, or load it from a local folder.',
	},
	{
		pattern: /out of memory|OOM|Array buffer allocation failed|RangeError: .*allocation/i,
		message:
			'The browser ran out of memory for this model. Try a smaller model, q8 weights, or close other tabs.',
	},
	{
		pattern: /Unsupported model type|Unsupported model|not a causal/i,
		message:
			'This model cannot score text: Benchtop needs a causal (left-to-right) language model such as GPT-2.',
	},
	{
		pattern: /Cannot read propert|is not a function|is not defined|undefined \(reading/i,
		message:
			'The model files could not be read: one is missing or not in the expected layout (config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx). Check the model folder or id.',
	},
	{
		pattern: /webgpu|GPUDevice|adapter/i,
		message: 'WebGPU failed in this browser. Choose WASM (CPU) as the backend and run again.',
	},
	{
		pattern: /onnxruntime|ort-wasm|\bORT\b|InferenceSession|Can't create a session/i,
		message:
			'The model runtime (ONNX Runtime) failed to start or run this model. Reload the page and try again; if it persists, try WASM and fp32.',
	},
];

/** Our own message for a raw library message, or null when it is not one we recognise. */
export function describeEngineMessage(message: string): string | null {
	return ENGINE_MESSAGES.find((entry) => entry.pattern.test(message))?.message ?? null;
}

/** Text that comes from a library, not from us: never shown as it is. */
const RAW_LIBRARY_TEXT =
	/local_files_only|allowRemoteModels|Could not locate file|onnxruntime|ort-wasm|ERROR_CODE|Failed to fetch|NetworkError|net::ERR_|Cannot read propert|is not a function|\bat \S+:\d+:\d+/i;

/**
 * What to tell the user about `error`: our own message when it carries no library text; for
 * library text (raw, or quoted inside one of our messages), our words for it; anything else
 * as it is.
 */
export function describeError(error: unknown): string {
	// Our endpoint errors (EndpointAuthError, EndpointUnreachableError, ... in src/providers)
	// already say what to do for that server: a 401 there is the endpoint's key, not the hub's.
	if (isEndpointError(error)) return error.message || error.name;
	const text =
		error instanceof Error
			? error.message || error.name
			: typeof error === 'string'
				? error
				: String(error);
	if (!RAW_LIBRARY_TEXT.test(text)) return text;
	return describeEngineMessage(text) ?? text;
}

/** An error of ours about an OpenAI-compatible endpoint: its name starts with `Endpoint`. */
function isEndpointError(error: unknown): error is Error {
	return error instanceof Error && error.name.startsWith('Endpoint');
}

/** `text` as one sentence: trimmed, ending with exactly one `.`, `!` or `?` (no `..`). */
export function asSentence(text: string): string {
	const trimmed = text.trim().replace(/\.+$/, '');
	if (trimmed === '') return '';
	return /[!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/**
 * For a JSON syntax problem at the end of the text (a cut-off paste or download), a plain
 * sentence saying so; null for any other message.
 */
export function explainEarlyEnd(message: string): string | null {
	return /end of (file|input|text)|unexpected end/i.test(message)
		? 'The file ends early: it looks cut off (a partial copy, paste or download). Use the whole file.'
		: null;
}
