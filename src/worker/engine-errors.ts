/**
 * Named errors of inference (load, score, cancel) and their crossing of the worker boundary as
 * `{ name, message }`. Plain classes: no model I/O here.
 */
import {
	AlignmentError,
	BenchtopError,
	FormulaEvaluationError,
	FormulaSyntaxError,
	InputFormatError,
	SuiteValidationError,
} from '../core/errors';
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
