// Small hand-made runs for the storage tests.
import type { ItemResult, RunDraft } from '../../src/core/run/run-types';

export const SUITE_TEXT = JSON.stringify({
	meta: { name: 'tiny agreement', metric: 'sum' },
	region_meta: { '1': 'subject', '2': 'verb' },
	predictions: [{ type: 'formula', formula: '(2;%bad%) > (2;%good%)' }],
	items: [],
});

export function runDraft(overrides: Partial<RunDraft> = {}): RunDraft {
	return {
		suiteSha256: 'a'.repeat(64),
		suiteName: 'tiny agreement',
		model: { source: 'bundled', id: 'gpt2-random-tiny', dtype: 'fp32', backend: 'wasm' },
		convention: 'reference',
		itemCount: 3,
		appVersion: '0.1.0',
		createdAt: 1_700_000_000_000,
		...overrides,
	};
}

export function itemResult(itemNumber: number): ItemResult {
	return {
		itemNumber,
		sentences: [
			{
				conditionName: 'good',
				text: 'The dog runs',
				tokens: [
					{ token: 'The', surprisalBits: 0, start: 0, end: 3 },
					{ token: 'Ġdog', surprisalBits: 7.25 + itemNumber, start: 3, end: 7 },
					{ token: 'Ġruns', surprisalBits: 11.5, start: 7, end: 12 },
				],
			},
			{
				conditionName: 'bad',
				text: 'The dog run',
				tokens: [
					{ token: '<|endoftext|>', surprisalBits: 0, start: 0, end: 0, special: true },
					{ token: 'The', surprisalBits: 3.125 },
					{ token: 'Ġdog', surprisalBits: 7.25 },
					{ token: 'Ġrun', surprisalBits: 14.75 },
				],
			},
		],
	};
}
