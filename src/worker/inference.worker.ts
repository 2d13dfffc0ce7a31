/**
 * The module worker: wires handler.ts to `self`, with the engine named by the worker's `name`
 * (see engine-choice.ts): the real transformers.js engine by default, FakeEngine on request.
 * Nothing else belongs here.
 */
import type { InferenceEngine } from './engine';
import { engineChoiceFromWorkerName } from './engine-choice';
import { serializeError } from './engine-errors';
import { FakeEngine } from './fake-engine';
import { createRequestHandler } from './handler';
import type { WorkerEvent, WorkerRequest } from './protocol';

const post = (event: WorkerEvent): void => self.postMessage(event);

/** How long a model freshly loaded on WASM runs on texts of our own before any request comes
 * (model-warm-up.ts: 4 s did better than 2 s on the Battery page). */
const WARM_UP_MS = 4000;

async function createEngine(): Promise<InferenceEngine> {
	const choice = engineChoiceFromWorkerName(self.name);
	if (choice.kind === 'fake') return new FakeEngine(choice.fake);
	// Loaded on demand: the fake engine never pulls in transformers.js and onnxruntime-web.
	const [{ TransformersEngine }, { createWebOrtRuntime }] = await Promise.all([
		import('./transformers-engine'),
		import('./ort-web'),
	]);
	return new TransformersEngine({
		runtime: createWebOrtRuntime(),
		// Bundled models are served by the app itself (public/models/ → <base>models/).
		bundledModelsPath: `${import.meta.env.BASE_URL}models/`,
		onLog: (level, message) => post({ type: 'log', level, message }),
		warmUpMs: WARM_UP_MS,
	});
}

const handlerReady = createEngine().then((engine) => createRequestHandler(engine, post));

self.addEventListener('message', (event: MessageEvent<WorkerRequest>) => {
	const request = event.data;
	handlerReady.then(
		(handle) => handle(request),
		(error: unknown) => {
			if (request.type === 'call')
				post({ type: 'error', id: request.id, error: serializeError(error) });
		},
	);
});
