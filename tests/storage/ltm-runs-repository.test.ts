// LTM runs in IndexedDB: the run record, the state saved after every step, and a run stopped
// midway that resumes from the stored state to the same end as a run never stopped.
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import {
	LtmCancelledError,
	loadLtmSuite,
	runLtm,
	type LtmBenchmark,
	type LtmRunState,
} from '../../src/core/ltm';
import type {
	GenerateRequest,
	GenerationEvent,
	ModelCall,
	TextModel,
} from '../../src/core/model/generation';
import { db } from '../../src/storage/db';
import {
	createLtmRun,
	deleteLtmRun,
	getLtmRun,
	getLtmState,
	listLtmRuns,
	listResumableLtmRuns,
	saveLtmState,
	updateLtmRun,
	type LtmRunDraft,
} from '../../src/storage/ltm-runs-repository';
import { clearDatabase } from './clear-database';

beforeEach(clearDatabase);

const SUITE_PATH = 'suites/memory/classroom-basics.ltm-suite.json';

function benchmark(): LtmBenchmark {
	const loaded = loadLtmSuite(SUITE_PATH, readFileSync(SUITE_PATH, 'utf8'));
	if (!loaded.ok) throw new Error(JSON.stringify(loaded.diagnostics));
	return loaded.benchmark;
}

function draft(overrides: Partial<LtmRunDraft> = {}): LtmRunDraft {
	const loaded = benchmark();
	return {
		runName: loaded.config.runName,
		definitions: { files: { [SUITE_PATH]: 'a'.repeat(64) }, benchmark: loaded },
		models: {
			agent: { source: 'openai', model: 'm', baseUrl: 'http://127.0.0.1:8000/v1' },
		},
		agentParams: { temperature: 0 },
		replayTexts: {},
		memorySpan: loaded.config.memorySpan,
		isolated: false,
		createdAt: 1000,
		...overrides,
	};
}

/** An agent whose reply depends on the number of messages it sees (so a wrong history shows). */
function countingAgent(): TextModel & { calls: number } {
	const agent = {
		label: 'counting',
		calls: 0,
		abilities: { score: false, generate: true, chat: true },
		async *generate(request: GenerateRequest, _call: ModelCall): AsyncGenerator<GenerationEvent> {
			agent.calls++;
			const seen = request.prompt.kind === 'chat' ? request.prompt.messages.length : 0;
			const completion = `Reply after ${seen} messages.`;
			yield { type: 'token', text: completion };
			yield { type: 'done', completion, finishReason: 'stop' };
		},
		countTokens: (text: string) => Math.ceil(text.length / 4),
	};
	return agent;
}

const RUN_OPTIONS = { startTime: '2026-01-01T00:00:00.000Z', now: () => 0, runId: 'r' } as const;

describe('ltm runs repository', () => {
	it('creates a running run with no test done, lists it, updates and deletes it', async () => {
		const created = await createLtmRun(draft(), 2000);
		expect(created.status).toBe('running');
		expect(created.kind).toBe('ltm');
		expect(created.progress).toEqual({
			testsDone: 0,
			testsTotal: created.definitions.benchmark.tests.length,
			tokens: 0,
			elapsedMs: 0,
		});
		expect(created.models.agent).toEqual({
			source: 'openai',
			model: 'm',
			baseUrl: 'http://127.0.0.1:8000/v1',
		});
		expect(await listResumableLtmRuns()).toHaveLength(1);
		const failed = await updateLtmRun(created.id, { status: 'failed', errorMessage: 'x' }, 3000);
		expect(failed?.errorMessage).toBe('x');
		expect(failed?.updatedAt).toBe(3000);
		const cleared = await updateLtmRun(created.id, { status: 'done', errorMessage: undefined });
		expect(cleared).not.toHaveProperty('errorMessage');
		expect(await listResumableLtmRuns()).toEqual([]);
		await deleteLtmRun(created.id);
		expect(await getLtmRun(created.id)).toBeUndefined();
	});

	it('lists runs newest first', async () => {
		await createLtmRun(draft({ createdAt: 1 }));
		await createLtmRun(draft({ createdAt: 5, runName: 'newer' }));
		expect((await listLtmRuns()).map((run) => run.runName)).toEqual(['newer', 'Classroom basics']);
	});

	it('saves the state with the progress, and deletes the state with the run', async () => {
		const run = await createLtmRun(draft());
		expect(await getLtmState(run.id)).toBeUndefined();
		const state = await runLtm(benchmark(), { ...RUN_OPTIONS, agent: countingAgent() });
		const progress = { testsDone: 3, testsTotal: 5, tokens: state.totalTokens, elapsedMs: 12 };
		await saveLtmState(run.id, state, progress, 4000);
		expect(await getLtmState(run.id)).toEqual(state);
		expect((await getLtmRun(run.id))?.progress).toEqual(progress);
		await deleteLtmRun(run.id);
		expect(await db.ltmStates.count()).toBe(0);
	});

	it('a run stopped after 7 steps resumes from the stored state to the same end', async () => {
		const whole = await runLtm(benchmark(), { ...RUN_OPTIONS, agent: countingAgent() });

		const run = await createLtmRun(draft());
		const abort = new AbortController();
		let steps = 0;
		const first = countingAgent();
		const stopped = await runLtm(benchmark(), {
			...RUN_OPTIONS,
			agent: first,
			signal: abort.signal,
			onEvent: async ({ state }) => {
				await saveLtmState(run.id, state, { testsDone: 0, testsTotal: 1, tokens: 0, elapsedMs: 0 });
				steps++;
				if (steps === 7) abort.abort();
			},
		}).catch((error: unknown) => error);
		expect(stopped).toBeInstanceOf(LtmCancelledError);

		const stored = (await getLtmState(run.id)) as LtmRunState;
		expect(stored.log.length).toBeGreaterThan(0);
		const second = countingAgent();
		const resumed = await runLtm(benchmark(), {
			...RUN_OPTIONS,
			agent: second,
			resumeFrom: stored,
		});
		expect(resumed.log).toEqual(whole.log);
		expect(resumed.outcomes).toEqual(whole.outcomes);
		// No agent call was made twice: the two halves add up to the whole run's calls.
		const wholeCalls = whole.log.filter((entry) => entry.role === 'agent' && !entry.canned).length;
		expect(first.calls + second.calls).toBe(wholeCalls);
	});
});
