import { describe, expect, it } from 'vitest';
import {
	engineChoiceFromSearch,
	engineChoiceFromWorkerName,
	workerNameFor,
	type EngineChoice,
} from '../../src/worker/engine-choice';

describe('engineChoiceFromSearch', () => {
	it.each<[string, EngineChoice]>([
		['', { kind: 'real' }],
		['?engine=real', { kind: 'real' }],
		['?engine=fake', { kind: 'fake', fake: {} }],
		['?engine=fake&fakeBatchDelayMs=200', { kind: 'fake', fake: { batchDelayMs: 200 } }],
		[
			'?engine=fake&fakeBatchDelayMs=-1&fakeLoadDelayMs=5',
			{ kind: 'fake', fake: { loadDelayMs: 5 } },
		],
		['?fakeBatchDelayMs=200', { kind: 'real' }],
	])('%j → %j', (search, expected) => {
		expect(engineChoiceFromSearch(search)).toEqual(expected);
	});
});

describe('workerNameFor / engineChoiceFromWorkerName', () => {
	it.each<EngineChoice>([
		{ kind: 'real' },
		{ kind: 'fake', fake: {} },
		{ kind: 'fake', fake: { batchDelayMs: 150, loadDelayMs: 10 } },
	])('round-trips %j', (choice) => {
		expect(engineChoiceFromWorkerName(workerNameFor(choice))).toEqual(choice);
	});

	it('treats any other worker name as the real engine', () => {
		expect(engineChoiceFromWorkerName('')).toEqual({ kind: 'real' });
		expect(engineChoiceFromWorkerName('other?engine=fake')).toEqual({ kind: 'real' });
	});
});
