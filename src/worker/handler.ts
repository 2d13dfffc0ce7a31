/**
 * Routes WorkerRequests to an InferenceEngine and posts WorkerEvents back: results, errors as
 * `{ name, message }`, progress, and cancellation by request id. Knows no transport.
 */
import type { InferenceEngine } from './engine';
import { serializeError } from './engine-errors';
import type { CallKind, Calls, WorkerEvent, WorkerRequest } from './protocol';

/** Sends one event to the main thread (`self.postMessage` in the worker). */
export type PostEvent = (event: WorkerEvent) => void;

type CallRequest = Extract<WorkerRequest, { type: 'call' }>;

/** Returns the function that handles one incoming request message. */
export function createRequestHandler(
	engine: InferenceEngine,
	post: PostEvent,
): (request: WorkerRequest) => void {
	const inFlight = new Map<number, AbortController>();

	async function run(
		request: CallRequest,
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

	return (request) => {
		if (request.type === 'cancel') {
			inFlight.get(request.id)?.abort();
			return;
		}
		const controller = new AbortController();
		inFlight.set(request.id, controller);
		run(request, controller.signal).then(
			(result) => {
				inFlight.delete(request.id);
				post({ type: 'result', id: request.id, result });
			},
			(error: unknown) => {
				inFlight.delete(request.id);
				post({ type: 'error', id: request.id, error: serializeError(error) });
			},
		);
	};
}
