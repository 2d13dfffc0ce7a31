// Sliding windows over long passages: every word scored exactly once, with the stated context
// before it, and window texts that are slices of the passage; the long table's columns and cells.
import { describe, expect, it } from 'vitest';
import { readStimulusTable } from '../../../src/core/stimuli/read-stimulus-table';
import {
	findStimulusWords,
	type StimulusPassage,
} from '../../../src/core/stimuli/stimulus-passages';
import {
	collectStimulusWords,
	describeStimulusProvenance,
	formatBitsForR,
	stimulusTableRows,
	stimulusTokenTableRows,
	stimulusValueColumnNames,
	writeStimulusTable,
} from '../../../src/core/stimuli/stimulus-table';
import { checkWindowSize, planStimulusWindows } from '../../../src/core/stimuli/stimulus-windows';
import type { StimulusToken } from '../../../src/core/stimuli/stimulus-word-surprisals';

function passageOf(text: string): StimulusPassage {
	return { text, words: findStimulusWords(text).map((s) => ({ ...s, rowIndex: 0 })) };
}

/** One token per word (the space before it included), with surprisal = the word's length. */
function tokensPerWord(text: string): StimulusToken[] {
	return findStimulusWords(text).map(({ start, end }, i) => {
		const from = i === 0 ? 0 : start - 1;
		return { token: text.slice(from, end), surprisalBits: end - start, start: from, end };
	});
}

describe('planStimulusWindows', () => {
	const text = 'w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11';
	const passages = [passageOf(text), passageOf('short one')];

	it.each([
		[4, 2],
		[4, 4],
		[5, 3],
		[1, 1],
		[11, 3],
		[20, 7],
	])(
		'context %i, stride %i: each word once, with its stated context',
		(contextWords, strideWords) => {
			const windows = planStimulusWindows(passages, { contextWords, strideWords });
			const scored = new Map<string, number>();
			for (const window of windows) {
				const passage = passages[window.passageIndex] as StimulusPassage;
				expect(window.spans.length).toBeLessThanOrEqual(contextWords);
				expect(passage.text).toContain(window.text);
				window.spans.forEach((span, k) => {
					const word = passage.words[window.firstWord + k];
					expect(window.text.slice(span.start, span.end)).toBe(
						passage.text.slice(word?.start, word?.end),
					);
					if (k < window.contextCount) return;
					const key = `${window.passageIndex}:${window.firstWord + k}`;
					scored.set(key, (scored.get(key) ?? 0) + 1);
					expect(k).toBeGreaterThanOrEqual(
						Math.min(window.firstWord + k, contextWords - strideWords),
					);
				});
			}
			const all = passages.flatMap((p, i) => p.words.map((_, k) => `${i}:${k}`));
			expect([...scored.keys()].sort()).toEqual([...all].sort());
			expect([...scored.values()].every((count) => count === 1)).toBe(true);
		},
	);

	it('without a size: one window per passage, its whole text', () => {
		expect(planStimulusWindows(passages).map((w) => w.text)).toEqual([text, 'short one']);
	});

	it('gives the words of a windowed passage the values of their own window', () => {
		const size = { contextWords: 4, strideWords: 2 };
		const windows = planStimulusWindows([passages[0] as StimulusPassage], size);
		const words = collectStimulusWords(
			[passages[0] as StimulusPassage],
			windows,
			windows.map((w) => tokensPerWord(w.text)),
		);
		expect(words.map((w) => w.word)).toEqual(text.split(' '));
		expect(words.map((w) => w.surprisalBits)).toEqual(text.split(' ').map((w) => w.length));
		expect(words.map((w) => w.wordIndex)).toEqual(text.split(' ').map((_, i) => i));
	});

	it('the token table has every token once, from the window that scores its word', () => {
		const table = readStimulusTable(`id,text\n1,${text}\n`);
		const passage = { ...(passages[0] as StimulusPassage) };
		const windows = planStimulusWindows([passage], { contextWords: 5, strideWords: 2 });
		const rows = stimulusTokenTableRows(
			table,
			[passage],
			windows,
			windows.map((w) => tokensPerWord(w.text)),
			'm',
		);
		expect(rows[0]?.slice(2)).toEqual([
			'word_index',
			'token_index',
			'token',
			'special',
			'ignored',
			'surprisal_bits',
			'model',
		]);
		const words = text.split(' ');
		expect(rows.slice(1).map((row) => row[2])).toEqual(words.map((_, i) => String(i + 1)));
		expect(rows.slice(1).map((row) => row[3])).toEqual(words.map((_, i) => String(i + 1)));
		expect(rows.slice(1).map((row) => Number(row[7]))).toEqual(words.map((w) => w.length));
	});

	it.each([
		[0, 1],
		[2.5, 1],
		[3, 4],
		[3, 0],
	])('refuses context %s, stride %s', (contextWords, strideWords) => {
		expect(() => checkWindowSize({ contextWords, strideWords })).toThrow(RangeError);
	});
});

describe('the long table', () => {
	it('names added columns apart from the input’s, however often they collide', () => {
		expect(stimulusValueColumnNames(['item', 'word', 'word_lm', 'model'])).toEqual([
			'word_index',
			'word_lm_lm',
			'tokens',
			'token_count',
			'surprisal_bits',
			'surprisal_bow_bits',
			'entropy_bits',
			'model_lm',
		]);
	});

	it.each<[number | null, string]>([
		[null, 'NA'],
		[Number.NaN, 'NA'],
		[Infinity, 'Inf'],
		[-Infinity, '-Inf'],
		[0.1 + 0.2, '0.30000000000000004'],
		[1e-7, '1e-7'],
	])('writes %s as %s', (bits, text) => {
		expect(formatBitsForR(bits)).toBe(text);
		if (Number.isFinite(bits)) expect(Number(text)).toBe(bits);
	});

	it('puts every input column first, then the word’s values, one row per word', () => {
		const table = readStimulusTable('item,word,sentence\n7,x,=1+1 is two\n');
		const passage = {
			text: '=1+1 is two',
			words: findStimulusWords('=1+1 is two').map((s) => ({ ...s, rowIndex: 0 })),
		};
		const windows = planStimulusWindows([passage]);
		const words = collectStimulusWords([passage], windows, [tokensPerWord(passage.text)]);
		const rows = stimulusTableRows(table, words, 'gpt2-random-tiny');
		expect(rows[0]).toEqual([
			'item',
			'word',
			'sentence',
			'word_index',
			'word_lm',
			'tokens',
			'token_count',
			'surprisal_bits',
			'surprisal_bow_bits',
			'entropy_bits',
			'model',
		]);
		expect(rows[1]).toEqual([
			'7',
			'x',
			'=1+1 is two',
			'1',
			'=1+1',
			'=1+1',
			'1',
			'4',
			'NA',
			'NA',
			'gpt2-random-tiny',
		]);
		expect(rows).toHaveLength(4);
		const csv = writeStimulusTable(rows, 'csv');
		expect(csv.split('\r\n')[1]).toBe(
			`7,x,"'=1+1 is two",1,"'=1+1","'=1+1",1,4,NA,NA,gpt2-random-tiny`,
		);
	});

	it('states the conventions in the provenance', () => {
		const lines = describeStimulusProvenance({
			source: 's.csv',
			delimiter: 'comma',
			layout: { kind: 'word', wordColumn: 'w', groupColumn: 'sent' },
			punctuation: 'keep',
			ignoreRegex: '^\\p{P}+$',
			models: [
				{ model: 'gpt2-en-small', convention: 'bos', conventionReason: '--convention' },
				{ model: 'gpt2-random-tiny', convention: 'reference', conventionReason: 'its default' },
			],
			window: { contextWords: 100, strideWords: 50 },
			bow: true,
			entropy: false,
			passages: 3,
			words: 12,
		});
		const text = lines.join('\n');
		expect(text).toContain(
			"one word per row (column 'w'), grouped by 'sent', ordered by row order",
		);
		expect(text).toContain('model: gpt2-en-small; start-of-text convention: bos (--convention)');
		expect(text).toContain('model: gpt2-random-tiny; start-of-text convention: reference');
		expect(text).toContain('12 words for each of 2 models');
		expect(text).toContain("a word's leading space is counted in that word");
		expect(text).toContain('/^\\p{P}+$/u');
		expect(text).toContain('100 words of context length, stride 50 words');
		expect(text).toContain('entropy_bits: NA');
	});
});
