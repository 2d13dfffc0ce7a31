// SuiteRunSession over the in-thread FakeEngine: every item is stored as it finishes, progress is
// reported, a cancelled run keeps its finished items, and resume scores only the missing ones.
import { beforeEach, describe, expect, it } from 'vitest';
import type { SuiteRun } from '../../../../src/core/syntaxgym/run/suite-run';
import { parseSuite } from '../../../../src/core/syntaxgym/suite/parse-suite';
import {
	listFinishedItemNumbers,
	listItemResults,
} from '../../../../src/storage/syntaxgym/suite-results-repository';
import {
	getSuiteRun,
	updateSuiteRun,
} from '../../../../src/storage/syntaxgym/suite-runs-repository';
import { ModelCatalog } from '../../../../src/ui/state/shared/model-catalog.svelte';
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

const ITEM_COUNT = 6;

function suiteText(items = ITEM_COUNT): string {
	return JSON.stringify({
		meta: { name: 'tiny agreement', metric: 'sum' },
		region_meta: { '1': 'subject', '2': 'verb' },
		predictions: [{ type: 'formula', formula: '(2;%bad%) > (2;%good%)' }],
		items: Array.from({ length: items }, (_, index) => ({
			item_number: index + 1,
			conditions: [
				{
					condition_name: 'good',
					regions: [
						{ region_number: 1, content: `The dog ${index}` },
						{ region_number: 2, content: 'runs' },
					],
				},
				{
					condition_name: 'bad',
					regions: [
						{ region_number: 1, content: `The dog ${index}` },
						{ region_number: 2, content: 'run' },
					],
				},
			],
		})),
	});
}

function runInput(): SuiteRunInput {
	const text = suiteText();
	const parsed = parseSuite(text);
	if (!parsed.ok) throw new Error('fixture suite does not parse');
	return { suiteText: text, suite: parsed.suite, origin: 'paste', sourceName: 'test' };
}

const SPEC = {
	source: 'bundled',
	id: 'gpt2-random-tiny',
	dtype: 'fp32',
	backend: 'wasm',
} as const;

/** A client whose worker never hears a cancel (as when the engine does not yield). */
function deafToCancel(inner: InferenceClientApi): InferenceClientApi {
	return {
		call<K extends CallKind>(kind: K, params: Calls[K]['params'], options?: CallOptions) {
			const heard: CallOptions = {
				...(options?.onLoadProgress ? { onLoadProgress: options.onLoadProgress } : {}),
				...(options?.onScoreProgress ? { onScoreProgress: options.onScoreProgress } : {}),
			};
			return inner.call(kind, params, heard);
		},
		dispose: () => inner.dispose(),
	};
}

const DEVICE_LOST = { backend: 'wasm', reason: 'WebGPU device lost (destroyed): test' } as const;

/** A client whose engine says, from the second scoring batch on, that the model fell back from
 * WebGPU to WASM (as after a lost device). */
function fallingBackMidRun(inner: InferenceClientApi): InferenceClientApi {
	return {
		call<K extends CallKind>(kind: K, params: Calls[K]['params'], options?: CallOptions) {
			const onScoreProgress = options?.onScoreProgress;
			if (kind !== 'scoreTexts' || !onScoreProgress) return inner.call(kind, params, options);
			let batches = 0;
			return inner
				.call(kind, params, {
					...options,
					onScoreProgress: (progress) =>
						onScoreProgress(++batches > 1 ? { ...progress, fallback: DEVICE_LOST } : progress),
				})
				.then((result) => ({ ...result, fallback: DEVICE_LOST }));
		},
		dispose: () => inner.dispose(),
	};
}

function createSession(
	batchDelayMs = 0,
	wrap: (client: InferenceClientApi) => InferenceClientApi = (client) => client,
): {
	session: SuiteRunSession;
	catalog: ModelCatalog;
	started: SuiteRun[];
	saved: number[];
} {
	const client = wrap(createInThreadClient(new FakeEngine({ batchDelayMs, defaultBatchSize: 2 })));
	const started: SuiteRun[] = [];
	const saved: number[] = [];
	const catalog = new ModelCatalog(client);
	const session = new SuiteRunSession({
		client,
		models: catalog,
		appVersion: '9.9.9',
		onRunStarted: (run) => started.push(run),
		onItemSaved: (_, item) => saved.push(item.itemNumber),
	});
	return { session, catalog, started, saved };
}

beforeEach(clearDatabase);

describe('SuiteRunSession', () => {
	it('runs a suite, storing every item with each condition in suite order', async () => {
		const { session, started, saved } = createSession();
		const record = await session.start(runInput(), SPEC, 'reference');
		expect(record?.status).toBe('done');
		expect(session.status).toBe('done');
		expect(started.map((run) => run.id)).toEqual([record?.id]);
		expect(saved.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
		expect(session.itemsDone).toBe(ITEM_COUNT);
		expect(session.firstResultMs).not.toBeNull();
		const items = await listItemResults(record?.id ?? 0);
		expect(items).toHaveLength(ITEM_COUNT);
		expect(items[2]?.sentences.map((s) => s.conditionName)).toEqual(['good', 'bad']);
		expect(items[2]?.sentences[0]?.text).toBe('The dog 2 runs');
		const stored = await getSuiteRun(record?.id ?? 0);
		expect(stored).toMatchObject({ itemsDone: ITEM_COUNT, appVersion: '9.9.9', status: 'done' });
		expect(stored?.tokenCount).toBeGreaterThan(0);
	});

	it('keeps finished items when cancelled, and resume scores only the missing ones', async () => {
		const { session, saved } = createSession(30);
		const running = session.start(runInput(), SPEC, 'reference');
		while (session.itemsDone < 1) await new Promise((resolve) => setTimeout(resolve, 5));
		session.cancel();
		expect(session.status).toBe('cancelling');
		expect(session.active).toBe(true);
		const cancelled = await running;
		expect(cancelled?.status).toBe('cancelled');
		expect(session.status).toBe('cancelled');
		expect(session.active).toBe(false);
		const runId = cancelled?.id ?? 0;
		const finished = await listFinishedItemNumbers(runId);
		expect(finished.length).toBeGreaterThanOrEqual(1);
		expect(finished.length).toBeLessThan(ITEM_COUNT);
		expect(session.message).toBe(
			`Run cancelled after ${finished.length} of ${ITEM_COUNT} items; they are kept and the run can be resumed.`,
		);

		saved.length = 0;
		const resumed = await session.resume(runId);
		expect(resumed?.status).toBe('done');
		expect(saved.sort((a, b) => a - b)).toEqual(
			[1, 2, 3, 4, 5, 6].filter((n) => !finished.includes(n)),
		);
		expect(await listFinishedItemNumbers(runId)).toEqual([1, 2, 3, 4, 5, 6]);
	});

	it('ends a cancelled run at once even when the worker keeps scoring', async () => {
		const { session, saved } = createSession(30, deafToCancel);
		const running = session.start(runInput(), SPEC, 'reference');
		while (session.itemsDone < 1) await new Promise((resolve) => setTimeout(resolve, 5));
		session.cancel();
		const cancelled = await running;
		expect(cancelled?.status).toBe('cancelled');
		const storedAtCancel = await listFinishedItemNumbers(cancelled?.id ?? 0);
		expect(storedAtCancel.length).toBeLessThan(ITEM_COUNT);
		// The worker's later answers are not stored.
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(await listFinishedItemNumbers(cancelled?.id ?? 0)).toEqual(storedAtCancel);
		expect(saved.sort((a, b) => a - b)).toEqual(storedAtCancel);
		expect((await getSuiteRun(cancelled?.id ?? 0))?.itemsDone).toBe(storedAtCancel.length);
	});

	it('records a WebGPU → WASM fallback that happens mid-run, with its reason', async () => {
		const { session, catalog, saved } = createSession(0, fallingBackMidRun);
		const record = await session.start(runInput(), { ...SPEC, backend: 'webgpu' }, 'reference');
		expect(record?.status).toBe('done');
		expect(saved).toHaveLength(ITEM_COUNT);
		const stored = await getSuiteRun(record?.id ?? 0);
		expect(stored?.model).toMatchObject({ id: SPEC.id, backend: 'wasm' });
		expect(stored?.fallbackReason).toBe(DEVICE_LOST.reason);
		expect(session.run?.model).toMatchObject({ backend: 'wasm' });
		// The model picker shows where the model runs now.
		expect(catalog.loaded).toMatchObject({
			spec: { backend: 'wasm' },
			fallbackReason: DEVICE_LOST.reason,
		});
	});

	it('offers runs left running by an earlier page for resume', async () => {
		const { session } = createSession();
		const record = await session.start(runInput(), SPEC, 'reference');
		await updateSuiteRun(record?.id ?? 0, { status: 'running' });
		// A run left `running` with every item stored is complete, so it is not offered.
		await session.findInterrupted();
		expect(session.interrupted).toEqual([]);

		const { session: second } = createSession(30);
		const running = second.start(runInput(), SPEC, 'reference');
		while (second.itemsDone < 1) await new Promise((resolve) => setTimeout(resolve, 5));
		second.cancel();
		const partial = await running;
		await updateSuiteRun(partial?.id ?? 0, { status: 'running' });
		const { session: reloaded } = createSession();
		await reloaded.findInterrupted();
		expect(reloaded.interrupted.map((run) => run.id)).toEqual([partial?.id]);
		await reloaded.dismissInterrupted(partial?.id ?? 0);
		expect(reloaded.interrupted).toEqual([]);
		expect((await getSuiteRun(partial?.id ?? 0))?.status).toBe('cancelled');
	});

	it('fails with a message when the model cannot be loaded, and stays usable', async () => {
		const { session } = createSession();
		const record = await session.start(
			runInput(),
			{ ...SPEC, source: 'hub', id: 'fake-missing-file', revision: 'main' },
			'reference',
		);
		expect(record?.status).toBe('failed');
		expect(session.status).toBe('failed');
		expect(session.message).toMatch(/The run stopped/);
		expect(session.active).toBe(false);
		const again = await session.start(runInput(), SPEC, 'reference');
		expect(again?.status).toBe('done');
	});
});
