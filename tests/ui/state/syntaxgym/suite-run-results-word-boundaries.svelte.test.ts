// SuiteRunResults with word-boundary values: the drill-down's corrected region words and the
// corrected word TSV, and neither offered for a run (or an item) scored without them. Expected
// values are worked out by hand from the rule surprisal(w) = Σ s(t) + b(last of w) − b(token
// before w), the first word of a sentence without the minus term.
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ItemResult } from '../../../../src/core/syntaxgym/run/suite-run';
import type { ScoredToken } from '../../../../src/core/scoring/scored-token';
import { saveItemResult } from '../../../../src/storage/syntaxgym/suite-results-repository';
import {
	createSuiteRun,
	updateSuiteRun,
} from '../../../../src/storage/syntaxgym/suite-runs-repository';
import { saveSuite } from '../../../../src/storage/syntaxgym/suites-repository';
import { SuiteRunResults } from '../../../../src/ui/state/syntaxgym/suite-run-results.svelte';
import { clearDatabase } from '../../../storage/clear-database';

// Mini suite: 1 good "The dog barks ." · 1 bad "The dog bark ." · 2 good "A cat meows ." ·
// 2 bad "A cat meow"; regions subject, verb, end.
const SUITE_TEXT = readFileSync('tests/fixtures/scoring/mini-suite.json', 'utf8');

/** Tokens with offsets from [piece, surprisal, boundary?] (a leading space is written `Ġ`). */
function tokensOf(
	pieces: readonly (readonly [string, number, number | undefined] | readonly [string, number])[],
): ScoredToken[] {
	let start = 0;
	return pieces.map(([piece, surprisalBits, boundary]) => {
		const token: ScoredToken = {
			token: piece.replace(' ', 'Ġ'),
			surprisalBits,
			start,
			end: start + piece.length,
			...(boundary === undefined ? {} : { boundarySurprisalBits: boundary }),
		};
		start += piece.length;
		return token;
	});
}

// good: The=0+1=1 · dog=5+0.5−1=4.5 · barks=(6+2)+0.25−0.5=7.75 · .=2+2−0.25=3.75
// bad:  The=0+1=1 · dog=5+0.5−1=4.5 · bark=12+0.125−0.5=11.625 · .=3+2−0.125=4.875
const ITEM_1: ItemResult = {
	itemNumber: 1,
	sentences: [
		{
			conditionName: 'good',
			text: 'The dog barks .',
			tokens: tokensOf([
				['The', 0, 1],
				[' dog', 5, 0.5],
				[' bar', 6, 4],
				['ks', 2, 0.25],
				[' .', 2, 2],
			]),
		},
		{
			conditionName: 'bad',
			text: 'The dog bark .',
			tokens: tokensOf([
				['The', 0, 1],
				[' dog', 5, 0.5],
				[' bark', 12, 0.125],
				[' .', 3, 2],
			]),
		},
	],
};

function item2(withBoundaries: boolean): ItemResult {
	const b = (bits: number) => (withBoundaries ? bits : undefined);
	return {
		itemNumber: 2,
		sentences: [
			{
				conditionName: 'good',
				text: 'A cat meows .',
				tokens: tokensOf([
					['A', 0, b(1)],
					[' cat', 6, b(1)],
					[' meows', 9, b(1)],
					[' .', 2, b(1)],
				]),
			},
			{
				conditionName: 'bad',
				text: 'A cat meow',
				tokens: tokensOf([
					['A', 0, b(1)],
					[' cat', 6, b(1)],
					[' meow', 7, b(1)],
				]),
			},
		],
	};
}

/** Strips the boundary values, as a run scored without word boundaries stores its tokens. */
function plain(item: ItemResult): ItemResult {
	return {
		...item,
		sentences: item.sentences.map((sentence) => ({
			...sentence,
			tokens: sentence.tokens.map(({ boundarySurprisalBits: _b, ...token }) => token),
		})),
	};
}

async function storeRun(items: readonly ItemResult[], wordBoundaries: boolean): Promise<number> {
	const suite = await saveSuite({ text: SUITE_TEXT, name: 'mini', origin: 'paste' });
	const run = await createSuiteRun({
		suiteSha256: suite.sha256,
		suiteName: 'mini',
		model: { source: 'bundled', id: 'gpt2-random-tiny', dtype: 'fp32', backend: 'wasm' },
		convention: 'reference',
		...(wordBoundaries ? { wordBoundaries: true } : {}),
		itemCount: 2,
		appVersion: '0.1.0',
		createdAt: 1_700_000_000_000,
	});
	for (const item of items) await saveItemResult(run.id, item);
	await updateSuiteRun(run.id, { status: 'done' });
	return run.id;
}

let results: SuiteRunResults;

beforeEach(async () => {
	await clearDatabase();
	results = new SuiteRunResults();
});

afterEach(() => results.close());

describe('SuiteRunResults with word-boundary values', () => {
	it('gives the drill-down corrected region words, region sums of corrected words', async () => {
		await results.open(await storeRun([ITEM_1, item2(true)], true));
		expect(results.wordBoundaries).toBe(true);
		results.selectItem(1);
		const drill = results.drillDown;
		expect(drill?.wordBoundaries).toBe(true);
		expect(
			drill?.sentences.map((s) => [
				s.conditionName,
				s.correctedWordRegions?.map((r) => [
					r.sumBits,
					r.tokens.map((w) => [w.text, w.surprisalBits]),
				]),
			]),
		).toEqual([
			[
				'good',
				[
					[
						5.5,
						[
							['The', 1],
							[' dog', 4.5],
						],
					],
					[7.75, [[' barks', 7.75]]],
					[3.75, [[' .', 3.75]]],
				],
			],
			[
				'bad',
				[
					[
						5.5,
						[
							['The', 1],
							[' dog', 4.5],
						],
					],
					[11.625, [[' bark', 11.625]]],
					[4.875, [[' .', 4.875]]],
				],
			],
		]);
		// The token regions are the plain ones.
		expect(drill?.sentences[0]?.regions[1]?.tokens.map((t) => t.surprisalBits)).toEqual([6, 2]);
	});

	it('exports the corrected word TSV under surprisal_bow, plain one unchanged', async () => {
		await results.open(await storeRun([ITEM_1, item2(true)], true));
		const file = results.exportWordSurprisalsTsv({ bowCorrected: true });
		expect(file?.fileName).toMatch(/^mini-run\d+-word-surprisals-bow\.tsv$/);
		const lines = (file?.text ?? '').trimEnd().split('\n');
		expect(lines[0]).toBe(
			'sentence_id\tword_id\tword\tsurprisal_bow\ttoken_count\titem_number\tcondition_name',
		);
		expect(lines.slice(1, 9)).toEqual([
			'1\t1\tThe\t1.0\t1\t1\tgood',
			'1\t2\tdog\t4.5\t1\t1\tgood',
			'1\t3\tbarks\t7.75\t2\t1\tgood',
			'1\t4\t.\t3.75\t1\t1\tgood',
			'2\t1\tThe\t1.0\t1\t1\tbad',
			'2\t2\tdog\t4.5\t1\t1\tbad',
			'2\t3\tbark\t11.625\t1\t1\tbad',
			'2\t4\t.\t4.875\t1\t1\tbad',
		]);
		const plainLines = (results.exportWordSurprisalsTsv()?.text ?? '').split('\n');
		expect(plainLines[0]).toMatch(/\tsurprisal\t/);
		expect(plainLines[3]).toBe('1\t3\tbarks\t8.0\t2\t1\tgood');
	});

	it('offers neither for a run scored without word boundaries', async () => {
		await results.open(await storeRun([plain(ITEM_1), item2(false)], false));
		expect(results.wordBoundaries).toBe(false);
		expect(results.exportWordSurprisalsTsv({ bowCorrected: true })).toBeNull();
		expect(results.exportWordSurprisalsTsv()?.text).toMatch(/\tsurprisal\t/);
		results.selectItem(1);
		expect(results.drillDown?.wordBoundaries).toBe(false);
		expect(results.drillDown?.sentences.map((s) => s.correctedWordRegions)).toEqual([
			undefined,
			undefined,
		]);
	});

	it('corrects an item that has the values, exports corrected only when every item has them', async () => {
		await results.open(await storeRun([ITEM_1, item2(false)], true));
		expect(results.wordBoundaries).toBe(false);
		expect(results.exportWordSurprisalsTsv({ bowCorrected: true })).toBeNull();
		results.selectItem(1);
		expect(results.drillDown?.wordBoundaries).toBe(true);
		results.selectItem(2);
		expect(results.drillDown?.wordBoundaries).toBe(false);
	});
});
