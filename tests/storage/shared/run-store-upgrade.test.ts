// Version 6 moves every run of the three run tables of versions 1-5 (and version 5's LTM log) into
// one `runs` table and one `runItems` table. A database filled at an older schema (declared here
// as the release declared it) is opened by the app's db module: every run, item, verdict, state
// and cache entry reads back through the repositories, and opening it again changes nothing.
import { Dexie } from 'dexie';
import { beforeEach, describe, expect, it } from 'vitest';
import type { EvalEvent } from '../../../src/core/evals/shared/types';
import { LtmCancelledError, runLtm, type LogEntry, type LtmRunState } from '../../../src/core/ltm';
import type { ItemResult } from '../../../src/core/syntaxgym/run/suite-run';
import type { CachedResponse } from '../../../src/providers/response-cache';
import { DATABASE_NAME, db } from '../../../src/storage/shared/db';
import {
	getEvalsRun,
	listEvalsRuns,
	listEvalsSamples,
	listResumableEvalsRuns,
} from '../../../src/storage/evals/evals-runs-repository';
import {
	getLtmRun,
	getLtmState,
	listLtmRuns,
	listResumableLtmRuns,
} from '../../../src/storage/ltm/ltm-runs-repository';
import {
	getCachedResponse,
	listCachedResponses,
	responseCacheSize,
} from '../../../src/storage/shared/response-cache-repository';
import {
	getItemResult,
	listItemResults,
} from '../../../src/storage/syntaxgym/suite-results-repository';
import {
	getSuiteRun,
	listResumableSuiteRuns,
	listSuiteRuns,
} from '../../../src/storage/syntaxgym/suite-runs-repository';
import { listAllRuns } from '../../../src/storage/shared/runs-repository';
import { listSuites } from '../../../src/storage/syntaxgym/suites-repository';
import {
	countingAgent,
	evalsRunDraft,
	itemResult,
	ltmBenchmark,
	ltmRunDraft,
	runDraft,
	sampleResult,
	SUITE_TEXT,
} from '../fixtures';

/** The schema as versions 1-4 (the release) and 5 (the LTM log) declared it. */
function legacyDatabase(version: 1 | 4 | 5): Dexie {
	const legacy = new Dexie(DATABASE_NAME);
	legacy.version(1).stores({
		suites: '&sha256, name, listed, savedAt',
		runs: '++id, suiteSha256, status, createdAt',
		itemResults: '[runId+itemNumber], runId',
	});
	if (version === 1) return legacy;
	legacy.version(2).stores({
		evalsRuns: '++id, status, createdAt, evalName',
		evalsSamples: '[runId+sampleId], runId',
	});
	legacy.version(3).stores({ responseCache: '&key, model, createdAt' });
	legacy.version(4).stores({ ltmRuns: '++id, status, createdAt', ltmStates: '&runId' });
	if (version === 5) legacy.version(5).stores({ ltmLog: '[runId+index], runId' });
	return legacy;
}

/** An item's scored sentences column-wise, as the release stored them. */
function itemRow(runId: number, item: ItemResult, savedAt: number) {
	return {
		runId,
		itemNumber: item.itemNumber,
		savedAt,
		sentences: item.sentences.map((sentence) => ({
			conditionName: sentence.conditionName,
			text: sentence.text,
			tokens: sentence.tokens.map((t) => t.token),
			surprisalsBits: Float64Array.from(sentence.tokens, (t) => t.surprisalBits),
			starts: Int32Array.from(sentence.tokens, (t) => t.start ?? -1),
			ends: Int32Array.from(sentence.tokens, (t) => t.end ?? -1),
			special: Uint8Array.from(sentence.tokens, (t) => (t.special ? 1 : 0)),
		})),
	};
}

function cacheEntry(key: string, createdAt: string): CachedResponse {
	return {
		key,
		model: 'openai/m @ http://127.0.0.1:8000/v1',
		request: { prompt: { kind: 'text', text: `prompt ${key}` }, params: { temperature: 0 } },
		completion: ` answer ${key}`,
		finishReason: 'stop',
		usage: { promptTokens: 3, completionTokens: 2 },
		createdAt,
	};
}

/** The `match` event a finished Evals sample recorded. */
function sampleEvent(index: number, correct: boolean): EvalEvent {
	return {
		run_id: '261124041600ABCDEFGH',
		event_id: index,
		sample_id: `capitals.dev.${index}`,
		type: 'match',
		data: { correct, expected: 'Paris' },
		created_by: '',
		created_at: '2026-01-02 03:04:05.678901+00:00',
	};
}

const RUN_OPTIONS = { startTime: '2026-01-01T00:00:00.000Z', now: () => 0, runId: 'r' } as const;

/** A whole LTM run's final state, and a copy of its state after 7 steps (a run interrupted). */
async function ltmStates(): Promise<{ whole: LtmRunState; midway: LtmRunState }> {
	const whole = await runLtm(ltmBenchmark(), { ...RUN_OPTIONS, agent: countingAgent() });
	const abort = new AbortController();
	let midway: LtmRunState | undefined;
	let steps = 0;
	const stopped = await runLtm(ltmBenchmark(), {
		...RUN_OPTIONS,
		agent: countingAgent(),
		signal: abort.signal,
		onEvent: ({ state }) => {
			steps++;
			if (steps === 7) {
				midway = structuredClone(state);
				abort.abort();
			}
		},
	}).catch((error: unknown) => error);
	expect(stopped).toBeInstanceOf(LtmCancelledError);
	if (!midway) throw new Error('the LTM run stopped before 7 steps');
	return { whole, midway };
}

const ERROR = 'The endpoint answered 500.';

type States = Awaited<ReturnType<typeof ltmStates>>;

/** Suite runs (done, interrupted, failed), their items and their suite; their ids. */
async function fillSuiteRuns(legacy: Dexie) {
	await legacy.table('suites').add({
		sha256: 'a'.repeat(64),
		name: 'tiny agreement',
		text: SUITE_TEXT,
		origin: 'paste',
		listed: 1,
		savedAt: 1,
	});
	const suiteRun = async (createdAt: number, status: string, itemsDone: number, extra = {}) =>
		(await legacy.table('runs').add({
			...runDraft({ createdAt }),
			status,
			itemsDone,
			updatedAt: createdAt + 10,
			scoringMs: 40,
			tokenCount: 21,
			...extra,
		})) as number;
	const done = await suiteRun(1000, 'done', 3);
	const interrupted = await suiteRun(2000, 'running', 1, { wordBoundaries: false });
	const failed = await suiteRun(3000, 'failed', 0, { errorMessage: ERROR });
	const items = [itemRow(done, itemResult(1), 5), itemRow(done, itemResult(2), 5)];
	items.push(itemRow(done, itemResult(3), 5), itemRow(interrupted, itemResult(2), 6));
	await legacy.table('itemResults').bulkAdd(items);
	return { done, interrupted, failed };
}

/** Evals runs (done with a report, interrupted, failed) and their samples. */
async function fillEvalsRuns(legacy: Dexie): Promise<void> {
	const evalsRun = async (createdAt: number, status: string, done: number, extra = {}) => {
		const { total, ...draft } = evalsRunDraft({ createdAt });
		return (await legacy.table('evalsRuns').add({
			...draft,
			kind: 'evals',
			status,
			progress: { done, total, tokens: 7 * done, elapsedMs: 30 },
			updatedAt: createdAt + 5,
			...extra,
		})) as number;
	};
	const done = await evalsRun(1500, 'done', 2, { report: { accuracy: 0.5 } });
	const interrupted = await evalsRun(2500, 'running', 1);
	await evalsRun(3500, 'failed', 0, { errorMessage: ERROR });
	const sample = (runId: number, index: number, completion: string, correct: boolean) => ({
		runId,
		sampleId: `capitals.dev.${index}`,
		position: index,
		result: sampleResult(index, completion, correct),
		events: [sampleEvent(index, correct)],
		savedAt: 9,
	});
	await legacy
		.table('evalsSamples')
		.bulkAdd([
			sample(done, 0, 'Paris', true),
			sample(done, 1, 'Quito', false),
			sample(interrupted, 0, 'Paris', true),
		]);
}

/** LTM runs (done, interrupted midway, failed before a step), their states and log rows. */
async function fillLtmRuns(legacy: Dexie, version: 4 | 5, states: States): Promise<void> {
	const ltmRun = async (createdAt: number, status: string, testsDone: number, extra = {}) => {
		const draft = ltmRunDraft({ createdAt });
		const testsTotal = draft.definitions.benchmark.tests.length;
		return (await legacy.table('ltmRuns').add({
			...draft,
			kind: 'ltm',
			status,
			progress: { testsDone, testsTotal, tokens: 100, elapsedMs: 20 },
			updatedAt: createdAt + 3,
			...extra,
		})) as number;
	};
	const done = await ltmRun(1700, 'done', 5);
	const interrupted = await ltmRun(2700, 'running', 0);
	await ltmRun(3700, 'failed', 0, { errorMessage: ERROR });
	// Version 5 keeps an interrupted run's log apart: its state without log and tests, one row
	// per log entry. The release kept the whole state (log and tests inside).
	const midway = version === 5 ? { ...states.midway, tests: [], log: [] } : states.midway;
	await legacy.table('ltmStates').bulkAdd([
		{ runId: done, state: states.whole, savedAt: 11 },
		{ runId: interrupted, state: midway, savedAt: 12 },
	]);
	if (version === 5) {
		const rows = states.midway.log.map((entry: LogEntry, index) => ({
			runId: interrupted,
			index,
			entry,
		}));
		await legacy.table('ltmLog').bulkAdd(rows);
	}
}

async function fillResponseCache(legacy: Dexie): Promise<void> {
	const rows = ['k1', 'k2', 'k3'].map((key, i) => {
		const entry = cacheEntry(key, `2026-01-0${i + 1}T00:00:00.000Z`);
		return { ...entry, bytes: JSON.stringify(entry).length };
	});
	await legacy.table('responseCache').bulkAdd(rows);
}

/** Every row of every table, to compare two openings. */
async function snapshot(): Promise<Record<string, unknown[]>> {
	const entries = await Promise.all(
		db.tables.map(async (table) => [table.name, await table.toArray()] as const),
	);
	return Object.fromEntries(entries);
}

async function openWithApp(): Promise<void> {
	await db.open();
	expect(db.verno).toBe(6);
}

beforeEach(async () => {
	db.close();
	await Dexie.delete(DATABASE_NAME);
});

describe.each([4, 5] as const)('version 6 opening a database of version %i', (version) => {
	let states: States;
	let suiteIds: { done: number; interrupted: number; failed: number };

	beforeEach(async () => {
		states = await ltmStates();
		const legacy = legacyDatabase(version);
		await legacy.open();
		suiteIds = await fillSuiteRuns(legacy);
		await fillEvalsRuns(legacy);
		await fillLtmRuns(legacy, version, states);
		await fillResponseCache(legacy);
		legacy.close();
		await openWithApp();
	});

	it('keeps only the suites, the response cache and the one run store', () => {
		expect(db.tables.map((table) => table.name).sort()).toEqual([
			'responseCache',
			'runItems',
			'runs',
			'suites',
		]);
	});

	it('keeps suite runs under their ids (#/results/<id> links) with every item', async () => {
		const { done, interrupted, failed } = suiteIds;
		expect((await listSuiteRuns()).map((run) => [run.id, run.status])).toEqual([
			[failed, 'failed'],
			[interrupted, 'running'],
			[done, 'done'],
		]);
		expect(await getSuiteRun(done)).toEqual({
			...runDraft({ createdAt: 1000 }),
			id: done,
			status: 'done',
			itemsDone: 3,
			updatedAt: 1010,
			scoringMs: 40,
			tokenCount: 21,
		});
		expect((await getSuiteRun(failed))?.errorMessage).toBe(ERROR);
		expect(await listItemResults(done)).toEqual([itemResult(1), itemResult(2), itemResult(3)]);
		expect(await getItemResult(interrupted, 2)).toEqual(itemResult(2));
		expect((await listResumableSuiteRuns()).map((run) => run.id)).toEqual([failed, interrupted]);
	});

	it('moves Evals runs under new ids with their report, samples and verdicts', async () => {
		const evalsRuns = await listEvalsRuns();
		expect(evalsRuns.map((run) => [run.createdAt, run.status, run.title])).toEqual([
			[3500, 'failed', 'capitals'],
			[2500, 'running', 'capitals'],
			[1500, 'done', 'capitals'],
		]);
		const [failed, interrupted, done] = evalsRuns.map((run) => run.id) as [number, number, number];
		expect(await getEvalsRun(done)).toMatchObject({
			spec: evalsRunDraft().spec,
			models: evalsRunDraft().models,
			report: { accuracy: 0.5 },
			progress: { done: 2, total: 2, tokens: 14, elapsedMs: 30 },
		});
		expect((await getEvalsRun(failed))?.errorMessage).toBe(ERROR);
		expect(await listEvalsSamples(done)).toEqual([
			{
				sampleId: 'capitals.dev.0',
				position: 0,
				result: sampleResult(0, 'Paris', true),
				events: [sampleEvent(0, true)],
			},
			{
				sampleId: 'capitals.dev.1',
				position: 1,
				result: sampleResult(1, 'Quito', false),
				events: [sampleEvent(1, false)],
			},
		]);
		expect(await listEvalsSamples(interrupted)).toHaveLength(1);
		expect((await listResumableEvalsRuns()).map((run) => run.id)).toEqual([failed, interrupted]);
		for (const id of [failed, interrupted, done]) {
			expect(id).toBeGreaterThan(Math.max(...Object.values(suiteIds)));
			expect(await getSuiteRun(id)).toBeUndefined();
		}
	});

	it('moves LTM runs with their states and log rows; the interrupted one resumes', async () => {
		const ltmRuns = await listLtmRuns();
		expect(ltmRuns.map((run) => [run.createdAt, run.status, run.title])).toEqual([
			[3700, 'failed', 'Classroom basics'],
			[2700, 'running', 'Classroom basics'],
			[1700, 'done', 'Classroom basics'],
		]);
		const [failed, interrupted, done] = ltmRuns.map((run) => run.id) as [number, number, number];
		expect(await getLtmState(done)).toEqual(states.whole);
		expect(await getLtmState(interrupted)).toEqual(states.midway);
		expect(await getLtmState(failed)).toBeUndefined();
		expect((await getLtmRun(failed))?.errorMessage).toBe(ERROR);
		expect((await listResumableLtmRuns()).map((run) => run.id)).toEqual([failed, interrupted]);
		const logRows = await db.runItems.where('runId').equals(interrupted).toArray();
		expect(logRows.flatMap((row) => (row.kind === 'ltm-log' ? [row.entry] : []))).toEqual(
			version === 5 ? states.midway.log : [],
		);
		const resumed = await runLtm(ltmBenchmark(), {
			...RUN_OPTIONS,
			agent: countingAgent(),
			resumeFrom: (await getLtmState(interrupted)) as LtmRunState,
		});
		expect(resumed.log).toEqual(states.whole.log);
		expect(resumed.outcomes).toEqual(states.whole.outcomes);
	});

	it('leaves the response cache and the suite library as they were', async () => {
		expect((await listCachedResponses()).map((entry) => entry.key)).toEqual(['k3', 'k2', 'k1']);
		expect(await getCachedResponse('k2')).toEqual(cacheEntry('k2', '2026-01-02T00:00:00.000Z'));
		expect((await responseCacheSize()).entries).toBe(3);
		expect((await listSuites()).map((suite) => suite.sha256)).toEqual(['a'.repeat(64)]);
	});

	it('lists every kind in one history; opening again changes nothing', async () => {
		expect((await listAllRuns()).map((run) => [run.kind, run.createdAt])).toEqual([
			['ltm', 3700],
			['evals', 3500],
			['suite', 3000],
			['ltm', 2700],
			['evals', 2500],
			['suite', 2000],
			['ltm', 1700],
			['evals', 1500],
			['suite', 1000],
		]);
		// 4 suite items, 3 Evals samples, 3 Evals inputs (one a run), 2 LTM states, version 5's log rows.
		const logCount = version === 5 ? states.midway.log.length : 0;
		expect(await db.runItems.count()).toBe(4 + 3 + 3 + 2 + logCount);
		const before = await snapshot();
		db.close();
		await openWithApp();
		expect(await snapshot()).toEqual(before);
	});
});

describe('version 6 opening a database of version 1 (suite runs only)', () => {
	it('keeps the runs under their ids with their items', async () => {
		const legacy = legacyDatabase(1);
		await legacy.open();
		const id = (await legacy.table('runs').add({
			...runDraft(),
			status: 'done',
			itemsDone: 1,
			updatedAt: 2,
			scoringMs: 3,
			tokenCount: 4,
		})) as number;
		await legacy.table('itemResults').add(itemRow(id, itemResult(7), 5));
		legacy.close();

		await openWithApp();
		expect((await getSuiteRun(id))?.itemsDone).toBe(1);
		expect(await listItemResults(id)).toEqual([itemResult(7)]);
		expect(await listAllRuns()).toEqual([
			expect.objectContaining({ id, kind: 'suite', title: runDraft().suiteName }),
		]);
	});
});
