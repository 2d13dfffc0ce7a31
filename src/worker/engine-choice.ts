/**
 * Which engine the inference worker runs: the real one, or FakeEngine for UI tests. Chosen by the
 * page URL (`?engine=fake&fakeBatchDelayMs=200`) and handed to the worker in its `name`.
 */
import type { FakeEngineOptions } from './fake-engine';

export interface EngineChoice {
	readonly kind: 'real' | 'fake';
	/** Only for `kind: 'fake'`. */
	readonly fake?: FakeEngineOptions;
}

const WORKER_NAME_PREFIX = 'benchtop-inference';

function readMs(params: URLSearchParams, key: string): number | undefined {
	const raw = params.get(key);
	if (raw === null) return undefined;
	const value = Number(raw);
	return Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** Reads `engine=fake`, `fakeBatchDelayMs`, `fakeLoadDelayMs` from a query string. */
export function engineChoiceFromSearch(search: string): EngineChoice {
	const params = new URLSearchParams(search);
	if (params.get('engine') !== 'fake') return { kind: 'real' };
	const batchDelayMs = readMs(params, 'fakeBatchDelayMs');
	const loadDelayMs = readMs(params, 'fakeLoadDelayMs');
	return {
		kind: 'fake',
		fake: {
			...(batchDelayMs !== undefined ? { batchDelayMs } : {}),
			...(loadDelayMs !== undefined ? { loadDelayMs } : {}),
		},
	};
}

/** The worker `name` that carries `choice` into the worker. */
export function workerNameFor(choice: EngineChoice): string {
	if (choice.kind === 'real') return WORKER_NAME_PREFIX;
	const params = new URLSearchParams({ engine: 'fake' });
	if (choice.fake?.batchDelayMs !== undefined) {
		params.set('fakeBatchDelayMs', String(choice.fake.batchDelayMs));
	}
	if (choice.fake?.loadDelayMs !== undefined) {
		params.set('fakeLoadDelayMs', String(choice.fake.loadDelayMs));
	}
	return `${WORKER_NAME_PREFIX}?${params.toString()}`;
}

/** Inverse of workerNameFor; any other name means the real engine. */
export function engineChoiceFromWorkerName(name: string): EngineChoice {
	const query = name.startsWith(`${WORKER_NAME_PREFIX}?`)
		? name.slice(WORKER_NAME_PREFIX.length)
		: '';
	return engineChoiceFromSearch(query);
}
