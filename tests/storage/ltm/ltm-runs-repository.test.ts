// LTM runs in IndexedDB: the run record, the state saved after every step, and a run stopped
// midway that resumes from the stored state to the same end as a run never stopped.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { LtmCancelledError, runLtm, type LtmRunState } from '../../../src/core/ltm';
import { db } from '../../../src/storage/shared/db';
import {
	createLtmRun,
	deleteLtmRun,
	getLtmRun,
	getLtmState,
	listLtmRuns,
	listResumableLtmRuns,
	saveLtmState,
	updateLtmRun,
} from '../../../src/storage/ltm/ltm-runs-repository';
import { clearDatabase } from '../clear-database';
import { countingAgent, ltmBenchmark, ltmRunDraft } from '../fixtures';

beforeEach(clearDatabase);

const RUN_OPTIONS = { startTime: '2026-01-01T00:00:00.000Z', now: () => 0, runId: 'r' } as const;

describe('ltm runs repository', () => {
	it('creates a running run with no test done, lists it, updates and deletes it', async () => {
		const created = await createLtmRun(ltmRunDraft(), 2000);
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
		await createLtmRun(ltmRunDraft({ createdAt: 1 }));
		await createLtmRun(ltmRunDraft({ createdAt: 5, runName: 'newer' }));
		expect((await listLtmRuns()).map((run) => run.runName)).toEqual(['newer', 'Classroom basics']);
	});

	it('saves the state with the progress, and deletes the state with the run', async () => {
		const run = await createLtmRun(ltmRunDraft());
		expect(await getLtmState(run.id)).toBeUndefined();
		const state = await runLtm(ltmBenchmark(), { ...RUN_OPTIONS, agent: countingAgent() });
		const progress = { testsDone: 3, testsTotal: 5, tokens: state.totalTokens, elapsedMs: 12 };
		await saveLtmState(run.id, state, 0, progress, 4000);
		expect(await getLtmState(run.id)).toEqual(state);
		expect((await getLtmRun(run.id))?.progress).toEqual(progress);
		// Stored apart: the state without log and tests, and one item per log entry.
		const stored = await db.runItems.get([run.id, 'state']);
		expect(stored?.kind === 'ltm-state' && [stored.state.log, stored.state.tests]).toEqual([
			[],
			[],
		]);
		expect(await db.runItems.where('runId').equals(run.id).count()).toBe(state.log.length + 1);
		await deleteLtmRun(run.id);
		expect(await db.runItems.count()).toBe(0);
	});

	it('a run stopped after 7 steps resumes from the stored state to the same end', async () => {
		const whole = await runLtm(ltmBenchmark(), { ...RUN_OPTIONS, agent: countingAgent() });

		const run = await createLtmRun(ltmRunDraft());
		const abort = new AbortController();
		let steps = 0;
		const first = countingAgent();
		const stopped = await runLtm(ltmBenchmark(), {
			...RUN_OPTIONS,
			agent: first,
			signal: abort.signal,
			onEvent: async ({ state, logFrom }) => {
				await saveLtmState(run.id, state, logFrom, {
					testsDone: 0,
					testsTotal: 1,
					tokens: 0,
					elapsedMs: 0,
				});
				steps++;
				if (steps === 7) abort.abort();
			},
		}).catch((error: unknown) => error);
		expect(stopped).toBeInstanceOf(LtmCancelledError);

		const stored = (await getLtmState(run.id)) as LtmRunState;
		expect(stored.log.length).toBeGreaterThan(0);
		const second = countingAgent();
		const resumed = await runLtm(ltmBenchmark(), {
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

	it('each step stores only its new log entries; without progress the run record is left alone', async () => {
		const run = await createLtmRun(ltmRunDraft(), 1000);
		const logItems = () =>
			db.runItems
				.where('runId')
				.equals(run.id)
				.filter((item) => item.kind === 'ltm-log')
				.toArray();
		let steps = 0;
		const state = await runLtm(ltmBenchmark(), {
			...RUN_OPTIONS,
			agent: countingAgent(),
			onEvent: async ({ state: current, logFrom }) => {
				const before = await logItems();
				const put = vi.spyOn(db.runItems, 'bulkPut');
				await saveLtmState(run.id, current, logFrom, undefined, 5000 + steps++);
				expect(put.mock.calls.map(([items]) => (items as unknown[]).length)).toEqual([
					current.log.length - logFrom,
				]);
				put.mockRestore();
				const after = await logItems();
				expect(after.slice(0, before.length)).toEqual(before);
				expect(after.map((item) => item.key)).toEqual(current.log.map((_, index) => index));
			},
		});
		expect(steps).toBeGreaterThan(5);
		expect(await getLtmState(run.id)).toEqual(state);
		const record = await getLtmRun(run.id);
		expect([record?.updatedAt, record?.progress.tokens]).toEqual([1000, 0]);
	});

	it('a state an earlier release saved (log and tests inside) reads and resumes, then is kept apart', async () => {
		const whole = await runLtm(ltmBenchmark(), { ...RUN_OPTIONS, agent: countingAgent() });
		const run = await createLtmRun(ltmRunDraft());
		const abort = new AbortController();
		let steps = 0;
		let stopped: LtmRunState | undefined;
		await runLtm(ltmBenchmark(), {
			...RUN_OPTIONS,
			agent: countingAgent(),
			signal: abort.signal,
			onEvent: ({ state }) => {
				stopped = state;
				if (++steps === 6) abort.abort();
			},
		}).catch(() => undefined);
		// As the earlier release stored it (and the version 6 upgrade keeps it): the whole state.
		const old = JSON.parse(JSON.stringify(stopped)) as LtmRunState;
		await db.runItems.put({
			runId: run.id,
			kind: 'ltm-state',
			key: 'state',
			state: old,
			savedAt: 1,
		});
		const read = (await getLtmState(run.id)) as LtmRunState;
		expect(read).toEqual(old);
		const resumed = await runLtm(ltmBenchmark(), {
			...RUN_OPTIONS,
			agent: countingAgent(),
			resumeFrom: read,
			onEvent: async ({ state, logFrom }) => saveLtmState(run.id, state, logFrom),
		});
		expect(resumed.log).toEqual(whole.log);
		expect(await getLtmState(run.id)).toEqual(resumed);
		const stored = await db.runItems.get([run.id, 'state']);
		expect(stored?.kind === 'ltm-state' && stored.state.log).toEqual([]);
	});
});
