/**
 * Routes WorkerRequests to an InferenceEngine and posts WorkerEvents back: results, errors as
 * `{ name, message }`, progress, and cancellation by request id (the id bookkeeping is
 * rpc/rpc-handler.ts's). Knows no transport.
 */
import type { InferenceEngine } from './engine';
import { serializeError } from './engine-errors';
import type { CallKind, Calls, SerializedError, WorkerEvent, WorkerRequest } from './protocol';
import { createRpcHandler } from './rpc/rpc-handler';
import type { RpcCallRequest } from './rpc/rpc-protocol';

/** Sends one event to the main thread (`self.postMessage` in the worker). */
export type PostEvent = (event: WorkerEvent) => void;

/** Returns the function that handles one incoming request message. */
export function createRequestHandler(
	engine: InferenceEngine,
	post: PostEvent,
): (request: WorkerRequest) => void {
	async function run(
		request: RpcCallRequest<Calls>,
		signal: AbortSignal,
	): Promise<Calls[CallKind]['result']> {
		const { id } = request;
		switch (request.kind) {
			case 'loadModel':
				return engine.loadModel(request.params, {
					signal,
					onProgress: (progress) => post({ type: 'load-progress', id, progress }),
				});
			case 'scoreTexts':
				return engine.scoreTexts(request.params, {
					signal,
					onProgress: (progress) => post({ type: 'score-progress', id, progress }),
				});
			case 'tokenize':
				return engine.tokenize(request.params);
			case 'generate':
				return engine.generate(request.params, {
					signal,
					onToken: (text) => post({ type: 'generate-progress', id, progress: { text } }),
				});
			case 'disposeModel':
				await engine.disposeModel(request.params.modelKey);
				return null;
			case 'listCachedModels':
				return engine.listCachedModels();
			case 'deleteCachedModel':
				return engine.deleteCachedModel(request.params.id);
			default: {
				const unknown: never = request;
				throw new Error(`Unknown request kind: ${(unknown as { kind: string }).kind}`);
			}
		}
	}

	return createRpcHandler<Calls, SerializedError>({
		run: (request, { signal }) => run(request, signal),
		serializeError,
		post,
	});
}
