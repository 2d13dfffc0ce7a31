/**
 * The module worker: wires handler.ts to `self`, with the engine named by the worker's `name`
 * (see engine-choice.ts). Nothing else belongs here.
 */
import type { InferenceEngine } from './engine';
import { engineChoiceFromWorkerName } from './engine-choice';
import { BackendError, serializeError } from './engine-errors';
import { FakeEngine } from './fake-engine';
import { createRequestHandler } from './handler';
import type { WorkerEvent, WorkerRequest } from './protocol';

const post = (event: WorkerEvent): void => self.postMessage(event);

async function createEngine(): Promise<InferenceEngine> {
	const choice = engineChoiceFromWorkerName(self.name);
	if (choice.kind === 'fake') return new FakeEngine(choice.fake);
	throw new BackendError(
		'The real inference engine is not wired in yet (issue 3, in progress); open the app with ?engine=fake.',
	);
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
