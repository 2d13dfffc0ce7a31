// A stimuli run's plan, its stored pieces and the table rebuilt from them: word keys that let a
// resume find where to go on, and the same long table the CLI writes from the same words.
import { describe, expect, it } from 'vitest';
import {
	firstUnscoredWindow,
	planStimuliRun,
	stimuliTableRows,
	stimuliWordsItemOf,
	stimuliRequests,
	stimulusLayoutOf,
} from '../../../src/core/stimuli/stimuli-run';
import {
	STIMULI_WORD_KEY_STRIDE,
	storedStimuliWords,
	type StimuliChoices,
} from '../../../src/core/stimuli/stimuli-run-kind';
import { collectStimulusWords, stimulusTableRows } from '../../../src/core/stimuli/stimulus-table';
import type { StimulusToken } from '../../../src/core/stimuli/stimulus-word-surprisals';

const TEXT_CHOICES: StimuliChoices = {
	layout: 'text-per-row',
	textColumn: 'sentence',
	groupColumn: null,
	contextColumn: null,
	punctuation: 'keep',
	delimiter: ',',
};
const FILE = 'item,sentence\n1,The cat sat down.\n2,A dog ran.\n3,Birds sing.\n';

/** One token per word, with a leading-space token form, as a byte-level BPE would give. */
function tokensOf(text: string, bits: (word: string) => number): StimulusToken[] {
	const tokens: StimulusToken[] = [];
	for (const match of text.matchAll(/\s?\S+/gu)) {
		const start = match.index;
		const end = start + match[0].length;
		tokens.push({
			token: match[0].replace(/^ /u, 'Ġ'),
			start,
			end,
			surprisalBits: bits(match[0].trim()),
		});
	}
	return tokens;
}

describe('stimuli run plan', () => {
	it('maps each layout to the core layout with its columns', () => {
		expect(stimulusLayoutOf({ ...TEXT_CHOICES, groupColumn: 'item' })).toEqual({
			kind: 'text',
			textColumn: 'sentence',
			groupColumn: 'item',
		});
		expect(
			stimulusLayoutOf({
				...TEXT_CHOICES,
				layout: 'word-per-row',
				textColumn: 'word',
				groupColumn: 'sid',
				orderColumn: 'n',
			}),
		).toEqual({ kind: 'word', wordColumn: 'word', groupColumn: 'sid', orderColumn: 'n' });
		expect(
			stimulusLayoutOf({
				...TEXT_CHOICES,
				layout: 'context-target',
				textColumn: 'target',
				contextColumn: 'context',
			}),
		).toEqual({ kind: 'context-target', contextColumn: 'context', targetColumn: 'target' });
	});

	it('counts the words each window scores, windows included', () => {
		const plan = planStimuliRun(FILE, TEXT_CHOICES, 'pilot.csv');
		expect(plan.windows).toHaveLength(3);
		expect(plan.firstWordOf).toEqual([0, 4, 7]);
		expect(plan.wordCount).toBe(9);
		const windowed = planStimuliRun(
			FILE,
			{ ...TEXT_CHOICES, window: { contextWords: 2, strideWords: 1 } },
			'pilot.csv',
		);
		// "The cat sat down." → [The cat] [cat sat] [sat down.]: each word scored once.
		expect(windowed.wordCount).toBe(9);
		expect(windowed.windows.length).toBeGreaterThan(3);
	});

	it('locates a missing column in the file', () => {
		expect(() =>
			planStimuliRun(FILE, { ...TEXT_CHOICES, textColumn: 'text' }, 'pilot.csv'),
		).toThrow(/pilot\.csv.*text/su);
	});

	it('cuts requests at whole windows: a small first one, then larger ones', () => {
		const plan = planStimuliRun(FILE, TEXT_CHOICES, 'pilot.csv');
		// Windows of 4, 3 and 2 words.
		expect(stimuliRequests(plan, 0, 4, 5)).toEqual([
			[0, 1],
			[1, 3],
		]);
		expect(stimuliRequests(plan, 0, 1, 1)).toEqual([
			[0, 1],
			[1, 2],
			[2, 3],
		]);
		expect(stimuliRequests(plan, 1)).toEqual([[1, 3]]);
		expect(stimuliRequests(plan, 3)).toEqual([]);
	});

	it('goes on from the first window with a word not stored', () => {
		const plan = planStimuliRun(FILE, TEXT_CHOICES, 'pilot.csv');
		expect(firstUnscoredWindow(plan, 0)).toBe(0);
		expect(firstUnscoredWindow(plan, 4)).toBe(1);
		expect(firstUnscoredWindow(plan, 7)).toBe(2);
		expect(firstUnscoredWindow(plan, 9)).toBe(3);
	});
});

describe('stimuli run pieces and table', () => {
	const plan = planStimuliRun(FILE, TEXT_CHOICES, 'pilot.csv');
	const scored = plan.windows.map((window) => tokensOf(window.text, (word) => word.length));

	it("keys a request's words by model and the run-wide place of its first word", () => {
		const later = collectStimulusWords(plan.passages, plan.windows.slice(1), scored.slice(1));
		const item = stimuliWordsItemOf(plan, 1, later, 1);
		expect(item).toMatchObject({ kind: 'stimuli-words', key: 'words/1/4' });
		expect(item.words).toHaveLength(5);
		expect(item.words[0]).toMatchObject({ word: 'A', row: 1, wordIndex: 0, model: 1 });
		expect(() => stimuliWordsItemOf(plan, 9, later, 1)).toThrow(RangeError);
	});

	it("reads a run's words back in run order, model by model, from rows of many words and of one", () => {
		const words = collectStimulusWords(plan.passages, plan.windows, scored);
		const first = stimuliWordsItemOf(plan, 0, words.slice(0, 4), 0);
		const rest = stimuliWordsItemOf(plan, 1, words.slice(4), 0);
		const other = stimuliWordsItemOf(plan, 0, words, 1);
		// Older runs stored a row per word, keyed model × STIMULI_WORD_KEY_STRIDE + place.
		const single = first.words.map((word, place) => ({
			kind: 'stimuli-word',
			key: place,
			...word,
		}));
		const expected = [...first.words, ...rest.words, ...other.words];
		// As storage lists them (keys in order: numbers before strings), or in any order.
		expect(storedStimuliWords([other, ...single, rest])).toEqual(expected);
		expect(storedStimuliWords([rest, other, first])).toEqual(expected);
		expect(
			storedStimuliWords([
				{ kind: 'stimuli-word', key: STIMULI_WORD_KEY_STRIDE + 1, ...other.words[1]! },
				{ kind: 'stimuli-word', key: STIMULI_WORD_KEY_STRIDE, ...other.words[0]! },
			]),
		).toEqual(other.words.slice(0, 2));
	});

	it('leaves out stored rows whose key or words are not of their form', () => {
		const words = collectStimulusWords(plan.passages, plan.windows, scored);
		const good = stimuliWordsItemOf(plan, 0, words, 0);
		expect(
			storedStimuliWords([
				{ kind: 'stimuli-words', key: 'words/0', words: good.words },
				{ kind: 'stimuli-words', key: 'words/x/0', words: good.words },
				{ kind: 'stimuli-words', key: 7, words: good.words },
				{ kind: 'stimuli-words', key: 'words/0/0', words: 'not a list' },
				{ kind: 'stimuli-word', key: 'words/0/0', ...good.words[0]! },
				{ kind: 'stimuli-input', key: 'input', text: 'sentence\nThe cat.' },
			]),
		).toEqual([]);
	});

	it('rebuilds the table the CLI writes from the same words, models one after the other', () => {
		const words = collectStimulusWords(plan.passages, plan.windows, scored);
		const items = [0, 1].flatMap((model) => stimuliWordsItemOf(plan, 0, words, model).words);
		const rows = stimuliTableRows(plan.table, items, ['m-one', 'm-two']);
		const cliOne = stimulusTableRows(plan.table, words, 'm-one');
		const cliTwo = stimulusTableRows(plan.table, words, 'm-two');
		expect(rows).toEqual([...cliOne, ...cliTwo.slice(1)]);
		expect(rows[1]).toEqual([
			'1',
			'The cat sat down.',
			'1',
			'The',
			'The',
			'1',
			'3',
			'NA',
			'NA',
			'm-one',
		]);
	});
});
