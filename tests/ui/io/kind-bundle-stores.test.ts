// The Library's bundles dispatched by kind (kind-bundle-stores.ts): each family that keeps its own
// tables through its store, every other kind (here one registered only in this test) through the
// generic run store; imports of any kind with the same progress, cancel and all-or-nothing rules.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EvalsRunBundle } from '../../../src/core/evals/evals-run-bundle';
import { RUN_KIND_REGISTRY } from '../../../src/core/kinds/registered-kinds';
import type { LtmRunBundle } from '../../../src/core/ltm/ltm-run-bundle';
import {
	createEvalsRun,
	listEvalsSamples,
	saveEvalsSample,
	updateEvalsRun,
} from '../../../src/storage/evals/evals-runs-repository';
import { createLtmRun, updateLtmRun } from '../../../src/storage/ltm/ltm-runs-repository';
import { db } from '../../../src/storage/shared/db';
import { ImportCancelledError } from '../../../src/storage/shared/storage-errors';
import { runStoreBundles } from '../../../src/ui/io/kind-bundle-store';
import { bundleStoreOf } from '../../../src/ui/io/kind-bundle-stores';
import { libraryExportFile } from '../../../src/ui/io/library-bundles';
import {
	PARSE_IN_WORKER_BYTES,
	createInThreadParseClient,
} from '../../../src/ui/io/parse-inputs-client';
import { RunHistory } from '../../../src/ui/state/shared/run-history.svelte';
import { COIN_FLIPS as TALLY, TALLY_KIND } from '../../support/tally-kind';
import { clearDatabase } from '../../storage/clear-database';
import { evalsRunDraft, ltmRunDraft, sampleResult } from '../../storage/fixtures';

beforeAll(() => {
	RUN_KIND_REGISTRY.register(TALLY_KIND);
});
beforeEach(clearDatabase);

/** Rows of every table a run writes (runs, their pieces, suites). */
async function storedRows(): Promise<number> {
	return (await db.runs.count()) + (await db.runItems.count()) + (await db.suites.count());
}

/** A finished Evals run of three samples written as its bundle, then the database emptied. */
async function evalsBundle(): Promise<{ text: string; bundle: EvalsRunBundle }> {
	const run = await createEvalsRun(evalsRunDraft({ total: 3 }), 1);
	const answers = ['Paris', 'Lima', 'Quito'];
	for (const [position, answer] of answers.entries()) {
		await saveEvalsSample(run.id, {
			sampleId: `capitals.dev.${position}`,
			position,
			result: sampleResult(position, answer, position < 2),
			events: [],
		});
	}
	const progress = { done: 3, total: 3, tokens: 9, elapsedMs: 40 };
	await updateEvalsRun(run.id, { status: 'done', progress, report: { accuracy: 2 / 3 } }, 2);
	const text = await bundleStoreOf('evals').exportText(run.id);
	await clearDatabase();
	const read = RUN_KIND_REGISTRY.readBundle(text);
	if (!read.ok || read.kind !== 'evals') throw new Error('expected an Evals bundle');
	return { text, bundle: read.bundle };
}

/** A cancelled Memory run written as its bundle, then the database emptied. */
async function ltmBundle(): Promise<LtmRunBundle> {
	const run = await createLtmRun(ltmRunDraft(), 2);
	await updateLtmRun(run.id, { status: 'cancelled' }, 3);
	const read = RUN_KIND_REGISTRY.readBundle(await bundleStoreOf('ltm').exportText(run.id));
	await clearDatabase();
	if (!read.ok || read.kind !== 'ltm') throw new Error('expected a Memory bundle');
	return read.bundle;
}

describe('bundle stores by kind', () => {
	it('a kind with no store of its own goes through the generic run store, in the Library too', async () => {
		const text = TALLY_KIND.bundle.write(TALLY);
		const history = new RunHistory();
		const target = await history.importBundle(text, 'tally.json');
		if (target === null) throw new Error(history.message ?? 'not imported');
		expect(target.route).toBe(`#/tally/run/${target.runId}`);
		expect(await db.runItems.where('runId').equals(target.runId).count()).toBe(3);
		const file = await libraryExportFile([
			{ id: target.runId, kind: 'tally', title: 'Coin flips' },
		]);
		if (!('text' in file)) throw new Error('expected one bundle');
		expect(RUN_KIND_REGISTRY.readBundle(file.text)).toEqual(RUN_KIND_REGISTRY.readBundle(text));
		// The fallback is the generic store's: the same export as the run store gives.
		expect(await bundleStoreOf('tally').exportText(target.runId)).toBe(
			await runStoreBundles('tally').exportText(target.runId),
		);
	});

	it('the generic store heeds a cancel before it stores anything', async () => {
		const importing = bundleStoreOf('tally').importBundle(TALLY, {
			sourceName: 'tally.json',
			signal: AbortSignal.abort(),
		});
		await expect(importing).rejects.toBeInstanceOf(ImportCancelledError);
		expect(await storedRows()).toBe(0);
	});

	it('each kind exports through its own store (each says a run is gone in its words)', async () => {
		await expect(bundleStoreOf('suite').exportText(404)).rejects.toThrow(
			'There is no run 404 in this browser (deleted?).',
		);
		await expect(bundleStoreOf('evals').exportText(404)).rejects.toThrow(
			'Run 404 is no longer stored.',
		);
		await expect(bundleStoreOf('ltm').exportText(404)).rejects.toThrow(
			'Run 404 is no longer stored.',
		);
		await expect(bundleStoreOf('tally').exportText(404)).rejects.toThrow(
			'Run 404 is not stored here (or cannot be read).',
		);
	});

	it('reads a big bundle file of any kind in the parse worker: an Evals bundle over the size', async () => {
		const { text } = await evalsBundle();
		// JSON allows whitespace after the value: the same bundle, over the in-thread size.
		const file = new File([text, ' '.repeat(PARSE_IN_WORKER_BYTES)], 'big-evals.json');
		const history = new RunHistory();
		const target = await history.importBundleFile(file, createInThreadParseClient);
		expect(history.message).toMatch(/^Imported big-evals\.json as run \d+\./);
		expect(target?.route).toBe(`#/evals/run/${target?.runId}`);
		expect((await listEvalsSamples(target?.runId ?? 0)).map((s) => s.sampleId)).toEqual([
			'capitals.dev.0',
			'capitals.dev.1',
			'capitals.dev.2',
		]);
	});
});

describe('an Evals import', () => {
	it('counts its samples as progress', async () => {
		const { bundle } = await evalsBundle();
		const said: [number, number][] = [];
		const runId = await bundleStoreOf('evals').importBundle(bundle, {
			sourceName: 'e.json',
			onProgress: (stored, total) => said.push([stored, total]),
		});
		expect(said).toEqual([
			[0, 3],
			[1, 3],
			[2, 3],
			[3, 3],
		]);
		expect((await listEvalsSamples(runId)).map((sample) => sample.sampleId)).toEqual(
			bundle.samples.map((sample) => sample.sampleId),
		);
	});

	it('cancelled between samples stores nothing', async () => {
		const { bundle } = await evalsBundle();
		const abort = new AbortController();
		const importing = bundleStoreOf('evals').importBundle(bundle, {
			sourceName: 'e.json',
			signal: abort.signal,
			onProgress: (stored) => {
				if (stored === 1) abort.abort();
			},
		});
		await expect(importing).rejects.toBeInstanceOf(ImportCancelledError);
		expect(await storedRows()).toBe(0);
	});

	it('cancelled in the Library shows its progress, then says nothing was stored', async () => {
		const { text } = await evalsBundle();
		const history = new RunHistory();
		const importing = history.importBundle(text, 'e.json');
		expect(history.importing).toEqual({ name: 'e.json', stored: 0, total: 3, noun: 'samples' });
		history.cancelImport();
		expect(await importing).toBeNull();
		expect(history.message).toBe('Import of e.json cancelled; nothing of it was stored.');
		expect(history.importing).toBeNull();
		expect(await storedRows()).toBe(0);
	});

	it('that fails on a sample deletes what it stored', async () => {
		const { bundle } = await evalsBundle();
		const [first, second] = bundle.samples;
		// A value IndexedDB cannot store (a function) makes the second sample's write fail.
		const broken = { ...second!, result: { ...second!.result, unstorable: () => 0 } };
		const importing = bundleStoreOf('evals').importBundle(
			{ ...bundle, samples: [first!, broken] },
			{ sourceName: 'e.json' },
		);
		await expect(importing).rejects.toThrow(/clone/i);
		expect(await storedRows()).toBe(0);
	});
});

describe('a Memory import', () => {
	it('imports as a new run, heeds a cancel, and deletes what it stored when it fails', async () => {
		const bundle = await ltmBundle();
		const store = bundleStoreOf('ltm');
		const runId = await store.importBundle(bundle, { sourceName: 'm.json' });
		expect(await db.runs.get(runId)).toMatchObject({ kind: 'ltm', status: 'cancelled' });
		await clearDatabase();

		const cancelled = store.importBundle(bundle, {
			sourceName: 'm.json',
			signal: AbortSignal.abort(),
		});
		await expect(cancelled).rejects.toBeInstanceOf(ImportCancelledError);
		expect(await storedRows()).toBe(0);

		// A scheduler state IndexedDB cannot store (a function) fails after the record is written.
		const state = { log: [], tests: [], unstorable: () => 0 } as unknown as LtmRunBundle['state'];
		await expect(
			store.importBundle({ ...bundle, state }, { sourceName: 'm.json' }),
		).rejects.toThrow(/clone/i);
		expect(await storedRows()).toBe(0);
	});
});
