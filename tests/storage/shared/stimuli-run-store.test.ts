// The Stimuli kind through the generic run store, with no storage code of its own: imported from
// a bundle, listed with its models, progress and page, exported equal, deleted; a bad stored row
// is listed as unreadable with kind 'stimuli'.
import { beforeEach, describe, expect, it } from 'vitest';
import { RUN_KIND_REGISTRY } from '../../../src/core/kinds/registered-kinds';
import { STIMULI_RUN_KIND, type StimuliBundle } from '../../../src/core/stimuli/stimuli-run-kind';
import { db } from '../../../src/storage/shared/db';
import {
	createRunOfAnyKind,
	deleteRunOfAnyKind,
	exportRunBundleOfAnyKind,
	importRunBundleOfAnyKind,
	listResumableRunsOfEveryKind,
	listRunItemsOfAnyKind,
	listRunsOfEveryKind,
} from '../../../src/storage/shared/run-store';
import { clearDatabase } from '../clear-database';

const MODELS = [
	{ source: 'bundled', id: 'gpt2-random-tiny', dtype: 'fp32', backend: 'wasm' },
	{ source: 'hub', id: 'Xenova/distilgpt2', dtype: 'q8', backend: 'wasm' },
] as const;

const BUNDLE: StimuliBundle = {
	run: {
		title: 'SPR story',
		status: 'done',
		createdAt: Date.UTC(2026, 10, 28, 12),
		updatedAt: Date.UTC(2026, 10, 28, 13),
		fileName: 'story.tsv',
		fileSha256: 'ab'.repeat(32),
		choices: {
			layout: 'word-per-row',
			textColumn: 'word',
			groupColumn: 'passage',
			contextColumn: null,
			punctuation: 'split',
			delimiter: '\t',
		},
		models: MODELS,
		wordsTotal: 4,
		wordsDone: 4,
	},
	words: [0, 1].flatMap((model) =>
		['Once', 'upon'].map((word, wordIndex) => ({
			row: wordIndex,
			wordIndex,
			word,
			surprisalBits: 10 + wordIndex + model / 2,
			bowSurprisalBits: null,
			entropyBits: 7 + model,
			model,
		})),
	),
};

beforeEach(clearDatabase);

describe('a stimuli run in the generic run store', () => {
	it('is imported, listed with its models, progress and page, exported equal, and deleted', async () => {
		const text = STIMULI_RUN_KIND.bundle.write(BUNDLE);
		const run = await importRunBundleOfAnyKind(text);
		expect(run).toMatchObject({ kind: 'stimuli', title: 'SPR story', wordsDone: 4 });
		// The words are stored many to a row, a row per model here.
		const items = await listRunItemsOfAnyKind(run.id);
		expect(items.map((item) => item.key)).toEqual(['words/0/0', 'words/1/0']);
		expect(
			items.flatMap((item) =>
				Array.isArray(item['words'])
					? item['words'].map((word: { word: string }) => word.word)
					: [],
			),
		).toEqual(['Once', 'upon', 'Once', 'upon']);
		const { runs, unreadable } = await listRunsOfEveryKind();
		expect(runs.map(({ id, kind }) => [id, kind])).toEqual([[run.id, 'stimuli']]);
		expect(unreadable).toEqual([]);
		expect(RUN_KIND_REGISTRY.models(run)).toEqual(MODELS);
		expect(RUN_KIND_REGISTRY.progress(run)).toEqual({ done: 4, total: 4, noun: 'words' });
		expect(RUN_KIND_REGISTRY.openRoute(run.kind, run.id)).toBe(`#/stimuli/run/${run.id}`);
		const exported = await exportRunBundleOfAnyKind(run.id);
		expect(RUN_KIND_REGISTRY.readBundle(exported)).toEqual(RUN_KIND_REGISTRY.readBundle(text));
		await deleteRunOfAnyKind(run.id);
		expect(await listRunsOfEveryKind()).toEqual({ runs: [], unreadable: [] });
		expect(await db.runItems.count()).toBe(0);
	});

	it('is offered for resume while words are left', async () => {
		const run = await createRunOfAnyKind({
			...BUNDLE.run,
			kind: 'stimuli',
			status: 'running',
			wordsDone: 2,
		});
		const [resumable] = await listResumableRunsOfEveryKind();
		expect(resumable?.id).toBe(run.id);
		expect(RUN_KIND_REGISTRY.resumePlan(resumable!)).toEqual({
			done: 2,
			total: 4,
			interrupted: true,
		});
	});

	it('has a bad stored row listed as unreadable with kind stimuli, the others still shown', async () => {
		const good = await importRunBundleOfAnyKind(STIMULI_RUN_KIND.bundle.write(BUNDLE));
		const bad = await createRunOfAnyKind({ ...BUNDLE.run, kind: 'stimuli', wordsTotal: -1 });
		const { runs, unreadable } = await listRunsOfEveryKind();
		expect(runs.map(({ id }) => id)).toEqual([good.id]);
		expect(unreadable).toEqual([
			{ id: bad.id, kind: 'stimuli', problem: expect.stringMatching(/^\/wordsTotal: /) },
		]);
	});
});
