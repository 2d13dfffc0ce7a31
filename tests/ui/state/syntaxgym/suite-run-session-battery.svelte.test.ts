// SuiteRunSession batteries over the in-thread FakeEngine: several suites scored in one pooled
// request (after the first item), each item stored into its own suite's run; cancel keeps
// finished items and resume scores only the missing ones; a failure stops every unfinished run;
// a battery left running by a reload is offered as one entry.
import { beforeEach, describe, expect, it } from 'vitest';
import type { SuiteRun } from '../../../../src/core/syntaxgym/run/suite-run';
import { buildSuiteSentences } from '../../../../src/core/syntaxgym/suite/build-sentences';
import { parseSuite } from '../../../../src/core/syntaxgym/suite/parse-suite';
import {
	listFinishedItemNumbers,
	listItemResults,
} from '../../../../src/storage/syntaxgym/suite-results-repository';
import {
	getSuiteRun,
	listBatteryRuns,
	updateSuiteRun,
} from '../../../../src/storage/syntaxgym/suite-runs-repository';
import { db } from '../../../../src/storage/shared/db';
import { ModelCatalog } from '../../../../src/ui/state/shared/model-catalog.svelte';
import { SAVE_INTERVAL_MS } from '../../../../src/ui/state/syntaxgym/suite-scoring';
import {
	SuiteRunSession,
	type SuiteRunInput,
} from '../../../../src/ui/state/syntaxgym/suite-run-session.svelte';
import { FakeEngine } from '../../../../src/worker/fake-engine';
import { createInThreadClient } from '../../../../src/worker/inference-client';
import type {
	CallKind,
	CallOptions,
	Calls,
	InferenceClientApi,
} from '../../../../src/worker/protocol';
import { clearDatabase } from '../../../storage/clear-database';

const SPEC = {
	source: 'bundled',
	id: 'gpt2-random-tiny',
	dtype: 'fp32',
	backend: 'wasm',
} as const;

/** A suite of `items` items with two conditions; `subject` varies the text between suites, and
 * suites that share it share every sentence's prefix. */
function suiteInput(name: string, items: number, subject: string): SuiteRunInput {
	const text = JSON.stringify({
		meta: { name, metric: 'sum' },
		region_meta: { '1': 'subject', '2': 'verb' },
		predictions: [{ type: 'formula', formula: '(2;%bad%) > (2;%good%)' }],
		items: Array.from({ length: items }, (_, index) => ({
			item_number: index + 1,
			conditions: [
				['good', name.includes('plural') ? 'run' : 'runs'],
				['bad', name.includes('plural') ? 'runs' : 'run'],
			].map(([condition, verb]) => ({
				condition_name: condition,
				regions: [
					{ region_number: 1, content: `${subject} ${index}` },
					{ region_number: 2, content: verb },
				],
			})),
		})),
	});
	const parsed = parseSuite(text);
	if (!parsed.ok) throw new Error('fixture suite does not parse');
	return { suiteText: text, suite: parsed.suite, origin: 'paste', sourceName: `${name}.json` };
}

/** Three suites, 3 + 4 + 2 items; the first two share their subjects. */
function battery(): SuiteRunInput[] {
	return [
		suiteInput('singular dog', 3, 'The dog'),
		suiteInput('plural dogs', 4, 'The dog'),
		suiteInput('singular cat', 2, 'A cat'),
	];
}

const TOTAL_ITEMS = 9;

/** The sentences of every item of `input` not in `finished`, in suite order. */
function pendingTexts(input: SuiteRunInput, finished: readonly number[]): string[] {
	return buildSuiteSentences(input.suite)
		.filter((sentence) => !finished.includes(sentence.itemNumber))
		.map((sentence) => sentence.text);
}

interface Harness {
	session: SuiteRunSession;
	requests: string[][];
	started: SuiteRun[];
	batteries: { id: string; runIds: number[] }[];
	saved: { runId: number; itemNumber: number }[];
}

function createSession(
	options: { batchDelayMs?: number; failSecondRequest?: boolean } = {},
): Harness {
	const inner = createInThreadClient(
		new FakeEngine({ batchDelayMs: options.batchDelayMs ?? 0, defaultBatchSize: 2 }),
	);
	const requests: string[][] = [];
	const client: InferenceClientApi = {
		call<K extends CallKind>(kind: K, params: Calls[K]['params'], callOptions?: CallOptions) {
			if (kind === 'scoreTexts') {
				requests.push([...(params as Calls['scoreTexts']['params']).texts]);
				if (options.failSecondRequest && requests.length === 2) {
					return Promise.reject(new Error('the engine crashed'));
				}
			}
			return inner.call(kind, params, callOptions);
		},
		dispose: () => inner.dispose(),
	};
	const harness: Harness = {
		session: new SuiteRunSession({
			client,
			models: new ModelCatalog(client),
			appVersion: '9.9.9',
			onRunStarted: (run) => harness.started.push(run),
			onBatteryStarted: (id, runs) =>
				harness.batteries.push({ id, runIds: runs.map((run) => run.id) }),
			onItemSaved: (runId, item) => harness.saved.push({ runId, itemNumber: item.itemNumber }),
		}),
		requests,
		started: [],
		batteries: [],
		saved: [],
	};
	return harness;
}

async function cancelAfterItems(session: SuiteRunSession, items: number): Promise<void> {
	while (session.itemsDone < items) await new Promise((resolve) => setTimeout(resolve, 5));
	session.cancel();
}

beforeEach(clearDatabase);

describe('SuiteRunSession batteries', () => {
	it('scores three suites in one pooled request after the first item, each into its run', async () => {
		const { session, requests, started, batteries, saved } = createSession();
		const inputs = battery();
		const runs = await session.startBattery(inputs, SPEC, 'reference');
		expect(runs?.map((run) => run.status)).toEqual(['done', 'done', 'done']);
		expect(session.status).toBe('done');
		expect(session.message).toBeNull();
		// The first item alone, then every other sentence of every suite in ONE request.
		const texts = inputs.flatMap((input) => pendingTexts(input, []));
		expect(requests).toEqual([texts.slice(0, 2), texts.slice(2)]);
		expect(started).toEqual([]);
		expect(batteries).toHaveLength(1);
		const batteryId = batteries[0]?.id ?? '';
		expect(session.batteryId).toBe(batteryId);
		expect(batteries[0]?.runIds).toEqual(runs?.map((run) => run.id));
		expect(runs?.map((run) => run.battery)).toEqual(
			[0, 1, 2].map((index) => ({ id: batteryId, index, size: 3 })),
		);
		expect((await listBatteryRuns(batteryId)).map((run) => run.id)).toEqual(
			runs?.map((run) => run.id),
		);
		expect(saved).toHaveLength(TOTAL_ITEMS);
		for (const [index, input] of inputs.entries()) {
			const runId = runs?.[index]?.id ?? -1;
			const items = await listItemResults(runId);
			expect(items.flatMap((item) => item.sentences.map((s) => s.text))).toEqual(
				pendingTexts(input, []),
			);
			expect(await getSuiteRun(runId)).toMatchObject({
				suiteName: input.suite.meta.name,
				itemsDone: input.suite.items.length,
				status: 'done',
			});
			expect((await getSuiteRun(runId))?.tokenCount).toBeGreaterThan(0);
		}
		expect(session.run?.id).toBe(runs?.[0]?.id);
		expect(session.batterySuites).toEqual(
			inputs.map((input, index) => ({
				runId: runs?.[index]?.id,
				suiteName: input.suite.meta.name,
				itemsDone: input.suite.items.length,
				itemsTotal: input.suite.items.length,
			})),
		);
		expect([session.itemsDone, session.itemsTotal]).toEqual([TOTAL_ITEMS, TOTAL_ITEMS]);
	});

	it('stores for each suite the same items as a run of that suite alone', async () => {
		const { session } = createSession();
		const inputs = battery();
		const runs = await session.startBattery(inputs, SPEC, 'reference');
		for (const [index, input] of inputs.entries()) {
			const alone = await session.start(input, SPEC, 'reference');
			expect(session.batteryId).toBeNull();
			expect(session.batterySuites).toEqual([]);
			const pooled = await listItemResults(runs?.[index]?.id ?? -1);
			expect(pooled).toEqual(await listItemResults(alone?.id ?? -1));
		}
	});

	it('stores the first item at once and the rest at most every SAVE_INTERVAL_MS, all by the end', async () => {
		// 40 items of 2 sentences, 2 sentences a batch, a batch every 10 ms: an item finishes every
		// ~10 ms, and a save for each would be ~40 transactions.
		const { session, saved } = createSession({ batchDelayMs: 10 });
		const inputs = [suiteInput('many items', 40, 'The bird')];
		const started = Date.now();
		const runs = await session.startBattery(inputs, SPEC, 'reference');
		const elapsedMs = Date.now() - started;
		expect(runs?.map((run) => run.status)).toEqual(['done']);
		expect(saved).toHaveLength(40);
		const rows = await db.runItems
			.where('runId')
			.equals(runs?.[0]?.id ?? -1)
			.toArray();
		const stamps = new Map(
			rows.flatMap((row) => (row.kind === 'suite-item' ? [[row.key, row.savedAt] as const] : [])),
		);
		expect(stamps.size).toBe(40);
		// Each save stamps its rows with one time: the saves are the distinct stamps.
		const saves = new Set(stamps.values()).size;
		expect(saves).toBeGreaterThanOrEqual(2);
		expect(saves).toBeLessThanOrEqual(2 + Math.ceil(elapsedMs / SAVE_INTERVAL_MS));
		expect(saves).toBeLessThan(20);
		expect(stamps.get(1)).toBeLessThan(Math.max(...stamps.values()));
	});

	it('keeps finished items when cancelled; resume scores only the missing items', async () => {
		const { session, requests } = createSession({ batchDelayMs: 30 });
		const inputs = battery();
		const running = session.startBattery(inputs, SPEC, 'reference');
		await cancelAfterItems(session, 2);
		const cancelled = (await running) ?? [];
		expect(session.status).toBe('cancelled');
		const finished = await Promise.all(cancelled.map((run) => listFinishedItemNumbers(run.id)));
		const stored = finished.reduce((sum, items) => sum + items.length, 0);
		expect(stored).toBeGreaterThanOrEqual(2);
		expect(stored).toBeLessThan(TOTAL_ITEMS);
		for (const [index, run] of cancelled.entries()) {
			const complete = finished[index]?.length === run.itemCount;
			expect(run.status).toBe(complete ? 'done' : 'cancelled');
			expect(run.itemsDone).toBe(finished[index]?.length);
		}
		expect(session.message).toBe(
			`Battery cancelled after ${stored} of ${TOTAL_ITEMS} items in 3 suites; they are kept and the battery can be resumed.`,
		);

		requests.length = 0;
		const resumed = await session.resumeBattery(cancelled[0]?.battery?.id ?? '');
		expect(resumed?.map((run) => run.status)).toEqual(['done', 'done', 'done']);
		// Exactly the unfinished items' sentences were sent, in the battery's order.
		expect(requests.flat()).toEqual(
			inputs.flatMap((input, index) => pendingTexts(input, finished[index] ?? [])),
		);
		expect(requests.length).toBeLessThanOrEqual(2);
		for (const [index, input] of inputs.entries()) {
			const items = await listItemResults(resumed?.[index]?.id ?? -1);
			expect(items.flatMap((item) => item.sentences.map((s) => s.text))).toEqual(
				pendingTexts(input, []),
			);
		}
	});

	it('resumes the whole battery from the resume of one of its runs', async () => {
		const { session, batteries, started } = createSession({ batchDelayMs: 30 });
		const running = session.startBattery(battery(), SPEC, 'reference');
		await cancelAfterItems(session, 1);
		const cancelled = (await running) ?? [];
		const member = cancelled[1];
		expect(member?.status).toBe('cancelled');
		const record = await session.resume(member?.id ?? -1);
		expect(record).toMatchObject({ id: member?.id, status: 'done' });
		expect(started).toEqual([]);
		expect(batteries.map((b) => b.id)).toEqual([member?.battery?.id, member?.battery?.id]);
		for (const run of cancelled) expect((await getSuiteRun(run.id))?.status).toBe('done');
	});

	it('marks every unfinished run failed with the message when scoring fails', async () => {
		const { session } = createSession({ failSecondRequest: true });
		// The first suite has one item: the first request finishes it before the failure.
		const inputs = [suiteInput('one item', 1, 'A bird'), ...battery().slice(1)];
		const runs = await session.startBattery(inputs, SPEC, 'reference');
		expect(session.status).toBe('failed');
		expect(session.message).toBe(
			'The run stopped: the engine crashed. Finished items are kept; fix the cause and resume.',
		);
		expect(runs?.map((run) => run.status)).toEqual(['done', 'failed', 'failed']);
		for (const run of runs?.slice(1) ?? []) {
			expect((await getSuiteRun(run.id))?.errorMessage).toBe('the engine crashed');
		}
		expect((await getSuiteRun(runs?.[0]?.id ?? -1))?.errorMessage).toBeUndefined();
	});

	it('fails every run when the model cannot be loaded', async () => {
		const { session } = createSession();
		const runs = await session.startBattery(
			battery(),
			{ ...SPEC, source: 'hub', id: 'fake-missing-file', revision: 'main' },
			'reference',
		);
		expect(runs?.map((run) => run.status)).toEqual(['failed', 'failed', 'failed']);
		expect(session.message).toMatch(/^The run stopped: /);
		expect(session.active).toBe(false);
	});

	it('does not show the last battery as done while the next one is being stored', async () => {
		const { session } = createSession();
		await session.startBattery(battery(), SPEC, 'reference');
		expect(session.status).toBe('done');
		const seen: { status: string; batteryId: string | null }[] = [];
		const next = session.startBattery(battery(), SPEC, 'reference');
		// Saving the suites and storing the runs takes a few turns of the event loop.
		await new Promise((resolve) => setTimeout(resolve, 0));
		seen.push({ status: session.status, batteryId: session.batteryId });
		await next;
		expect(seen[0]?.status).not.toBe('done');
		expect(session.status).toBe('done');
	});

	it('refuses a battery of no suites', async () => {
		const { session, batteries } = createSession();
		expect(await session.startBattery([], SPEC, 'reference')).toBeNull();
		expect(session.status).toBe('failed');
		expect(session.message).toBe(
			'The battery could not be started: a battery needs at least one suite.',
		);
		expect(batteries).toEqual([]);
	});

	it('offers a battery left running by a reload as one entry, beside runs of one suite', async () => {
		const first = createSession({ batchDelayMs: 30 });
		const runningBattery = first.session.startBattery(battery(), SPEC, 'reference');
		await cancelAfterItems(first.session, 1);
		const runs = (await runningBattery) ?? [];
		// Long enough not to end before the cancel (progress is shown every 200 ms at most).
		const single = first.session.start(suiteInput('alone', 40, 'A fox'), SPEC, 'reference');
		await cancelAfterItems(first.session, 1);
		const alone = await single;
		// As after a reload while scoring: the unfinished runs are still `running`.
		for (const run of [...runs, alone]) {
			if (run && run.status !== 'done') await updateSuiteRun(run.id, { status: 'running' });
		}
		const { session } = createSession();
		await session.findInterrupted();
		expect(session.interrupted.map((run) => run.id)).toEqual([alone?.id]);
		const batteryId = runs[0]?.battery?.id;
		const done = (await Promise.all(runs.map((run) => getSuiteRun(run.id)))).reduce(
			(sum, run) => sum + (run?.itemsDone ?? 0),
			0,
		);
		expect(session.interruptedBatteries).toEqual([
			expect.objectContaining({ id: batteryId, size: 3, itemsDone: done, itemCount: TOTAL_ITEMS }),
		]);
		expect(session.interruptedBatteries[0]?.runs.map((run) => run.id)).toEqual(
			runs.map((run) => run.id),
		);
		await session.dismissInterruptedBattery(batteryId ?? '');
		expect(session.interruptedBatteries).toEqual([]);
		for (const run of runs) {
			expect((await getSuiteRun(run.id))?.status).toBe(
				run.status === 'done' ? 'done' : 'cancelled',
			);
		}
		expect((await getSuiteRun(alone?.id ?? -1))?.status).toBe('running');
	});
});
