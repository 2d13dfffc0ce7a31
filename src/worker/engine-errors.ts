/**
 * Named errors of inference (load, score, cancel), what the runtime's own errors become, and
 * their crossing of the worker boundary as `{ name, message }`. Plain classes: no model I/O here.
 */
import {
	AlignmentError,
	BenchtopError,
	FormulaEvaluationError,
	FormulaSyntaxError,
	InputFormatError,
	SuiteValidationError,
} from '../core/errors';
import type { ModelSpec } from '../core/model/model-spec';
import type { SerializedError } from './protocol';

/** A request stopped by its caller (AbortSignal / `cancel`). Scoring stops within one batch. */
export class CancelledError extends BenchtopError {
	override name = 'CancelledError';
	override readonly failureKind = 'run';
}

/** A file the model needs is not there (config, tokenizer or ONNX weights). */
export class ModelFileMissingError extends BenchtopError {
	override name = 'ModelFileMissingError';
}

/** The model loads but cannot score text: not a causal LM, or an unsupported tokenizer/graph. */
export class UnsupportedModelError extends BenchtopError {
	override name = 'UnsupportedModelError';
}

/** The backend ran out of memory (wasm heap, GPU buffers, Node). Smaller batches or models help. */
export class OutOfMemoryError extends BenchtopError {
	override name = 'OutOfMemoryError';
	override readonly failureKind = 'run';
}

/** The backend failed: WebGPU device lost with no WASM fallback, ORT session errors. */
export class BackendError extends BenchtopError {
	override name = 'BackendError';
	override readonly failureKind = 'run';
}

/** A request named a `modelKey` that is not loaded (never loaded, or disposed). */
export class ModelNotLoadedError extends BenchtopError {
	override name = 'ModelNotLoadedError';
	override readonly failureKind = 'run';
}

/** Hub access was needed but is not possible (offline, or remote models disabled). */
export class NetworkUnavailableError extends BenchtopError {
	override name = 'NetworkUnavailableError';
	override readonly failureKind = 'run';
}

/** Errors rebuilt with their own class on the main thread; others become `Error` with the name. */
const REBUILDERS: Readonly<Record<string, (message: string) => Error>> = {
	CancelledError: (m) => new CancelledError(m),
	ModelFileMissingError: (m) => new ModelFileMissingError(m),
	UnsupportedModelError: (m) => new UnsupportedModelError(m),
	OutOfMemoryError: (m) => new OutOfMemoryError(m),
	BackendError: (m) => new BackendError(m),
	ModelNotLoadedError: (m) => new ModelNotLoadedError(m),
	NetworkUnavailableError: (m) => new NetworkUnavailableError(m),
	BenchtopError: (m) => new BenchtopError(m),
	AlignmentError: (m) => new AlignmentError(m, {}),
	InputFormatError: (m) => new InputFormatError(m, {}),
	FormulaSyntaxError: (m) => new FormulaSyntaxError(m, 0),
	FormulaEvaluationError: (m) => new FormulaEvaluationError(m, 0),
	SuiteValidationError: (m) => new SuiteValidationError(m, []),
};

/** Turns anything thrown into plain data that survives structured clone. */
export function serializeError(error: unknown): SerializedError {
	if (error instanceof Error) return { name: error.name, message: error.message };
	if (typeof error === 'object' && error !== null && 'message' in error) {
		const { name, message } = error as { name?: unknown; message: unknown };
		return { name: typeof name === 'string' ? name : 'Error', message: String(message) };
	}
	return { name: 'Error', message: String(error) };
}

/** Rebuilds a named error: our classes by name (so `instanceof` works), others keep `name`. */
export function deserializeError(serialized: SerializedError): Error {
	const rebuild = REBUILDERS[serialized.name];
	if (rebuild) return rebuild(serialized.message);
	const error = new Error(serialized.message);
	error.name = serialized.name;
	return error;
}

/** The message of anything thrown. */
export function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

const OUT_OF_MEMORY_AT_LOAD =
	/out of memory|bad_alloc|allocation failed|Failed to allocate|Cannot enlarge memory|RangeError: Array buffer/i;
const OUT_OF_MEMORY =
	/out of memory|bad_alloc|allocation failed|Failed to allocate|Cannot enlarge memory/i;
const NETWORK_FAILURE =
	/fetch failed|Failed to fetch|NetworkError|ENOTFOUND|EAI_AGAIN|ECONNREFUSED/i;
const FILE_MISSING = /Could not locate|not found|404|ENOENT|no such file|Could not find/i;
const NOT_CAUSAL = /Unsupported model type|not a causal|AutoModelForCausalLM/i;

/**
 * Our named error for a failed load, by what transformers.js / ORT / fetch said.
 * `networkFailure`: the message of a fetch that failed without a response during the load.
 */
export function classifyLoadError(
	error: unknown,
	spec: ModelSpec,
	networkFailure: string | undefined,
): Error {
	if (error instanceof CancelledError || error instanceof UnsupportedModelError) return error;
	if (error instanceof ModelFileMissingError || error instanceof OutOfMemoryError) return error;
	const message = messageOf(error);
	const name = error instanceof Error ? error.name : '';
	const what = `${spec.source} model '${spec.id}'`;
	if (OUT_OF_MEMORY_AT_LOAD.test(`${name}: ${message}`)) {
		return new OutOfMemoryError(
			`Out of memory while loading the ${what} (${message}). Try a smaller model or dtype, or close other tabs.`,
		);
	}
	// NOTE: transformers.js reports a request that never got an answer as a missing file
	// ("Could not locate file"), so a failed fetch seen by our env.fetch decides first.
	if (spec.source === 'hub' && (networkFailure !== undefined || NETWORK_FAILURE.test(message))) {
		return new NetworkUnavailableError(
			`Cannot download the ${what} from the Hugging Face Hub (${networkFailure ?? message}). Hub models need a network connection the first time.`,
		);
	}
	if (name === 'ModelFileNotFoundError' || FILE_MISSING.test(message)) {
		return new ModelFileMissingError(`A file of the ${what} is missing: ${message}`);
	}
	if (NOT_CAUSAL.test(message)) {
		return new UnsupportedModelError(
			`The ${what} cannot be scored: it is not a causal language model transformers.js knows (${message}).`,
		);
	}
	return new BackendError(`Loading the ${what} failed: ${message}`);
}

/** Our named error for a failed forward pass (out of memory, else a backend failure). */
export function classifyRunError(error: unknown): Error {
	if (error instanceof CancelledError) return error;
	const message = messageOf(error);
	if (OUT_OF_MEMORY.test(message)) {
		return new OutOfMemoryError(
			`Out of memory while scoring (${message}). Use smaller batches (maxBatchSize) or a smaller model.`,
		);
	}
	return new BackendError(`The model failed while scoring: ${message}`);
}
