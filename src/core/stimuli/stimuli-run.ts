/**
 * A stimuli run as the app makes it: the plan (the file read with the run's choices, its passages
 * and windows, where each window's scored words start), the stored pieces (the input, one item
 * per scoring request's words, keyed so a resume knows what is left), and the long table rebuilt
 * from them, the same table the CLI's `stimuli` writes. Pure.
 */
import type { StoredRunItem } from '../run/run-kind';
import { readStimulusTable, type StimulusTable } from './read-stimulus-table';
import {
	buildStimulusPassages,
	type StimulusLayout,
	type StimulusPassage,
} from './stimulus-passages';
import { planStimulusWindows, type StimulusWindow } from './stimulus-windows';
import { stimulusTableRows, type StimulusWordResult } from './stimulus-table';
import {
	stimuliWordsKey,
	type StimuliChoices,
	type StimuliWordRow,
	type StimuliWordsItem,
} from './stimuli-run-kind';

/** The key of the stored input (the stimulus file's text). */
export const STIMULI_INPUT_KEY = 'input';

/**
 * Words one scoring request holds at most (whole windows; a longer window is a request of its
 * own): the first request is small, so the first rows show soon; later ones are larger, so a run
 * pays the per-request cost (a worker round trip, a store) rarely. A resume goes on from a
 * request's end.
 */
export const STIMULI_FIRST_REQUEST_WORDS = 100;
export const STIMULI_REQUEST_WORDS = 2000;

/** The stored input of a run. */
export interface StimuliInputItem extends StoredRunItem {
	readonly kind: 'stimuli-input';
	readonly key: typeof STIMULI_INPUT_KEY;
	readonly text: string;
}

/** What a run scores: the table, its passages and windows, and the words each window scores. */
export interface StimuliPlan {
	readonly table: StimulusTable;
	readonly passages: readonly StimulusPassage[];
	readonly windows: readonly StimulusWindow[];
	/** For each window, the run-wide place of its first scored word. */
	readonly firstWordOf: readonly number[];
	/** Words scored per model. */
	readonly wordCount: number;
}

/** The layout the choices name. */
export function stimulusLayoutOf(choices: StimuliChoices): StimulusLayout {
	switch (choices.layout) {
		case 'text-per-row':
			return {
				kind: 'text',
				textColumn: choices.textColumn,
				...(choices.groupColumn !== null ? { groupColumn: choices.groupColumn } : {}),
			};
		case 'word-per-row':
			return {
				kind: 'word',
				wordColumn: choices.textColumn,
				groupColumn: choices.groupColumn ?? '',
				...(choices.orderColumn ? { orderColumn: choices.orderColumn } : {}),
			};
		case 'context-target':
			return {
				kind: 'context-target',
				contextColumn: choices.contextColumn ?? '',
				targetColumn: choices.textColumn,
			};
	}
}

/**
 * The plan of a run over `text` (the stimulus file) with `choices`.
 * @throws InputFormatError located at `source:line:column` for a bad file or a missing column;
 *   RangeError for a bad window size.
 */
export function planStimuliRun(text: string, choices: StimuliChoices, source: string): StimuliPlan {
	const table = readStimulusTable(text, {
		source,
		delimiter: choices.delimiter as StimulusTable['delimiter'],
	});
	const passages = buildStimulusPassages(table, stimulusLayoutOf(choices), choices.punctuation);
	const windows = planStimulusWindows(passages, choices.window ?? undefined);
	const firstWordOf: number[] = [];
	let wordCount = 0;
	for (const window of windows) {
		firstWordOf.push(wordCount);
		wordCount += window.spans.length - window.contextCount;
	}
	return { table, passages, windows, firstWordOf, wordCount };
}

/**
 * The stored row of the words of scored windows `from..` (in order, as collectStimulusWords gives
 * them for `plan.windows.slice(from, from + n)`), for model `model`: one row for them all.
 * @throws RangeError when the plan has no window `from`.
 */
export function stimuliWordsItemOf(
	plan: StimuliPlan,
	from: number,
	words: readonly StimulusWordResult[],
	model: number,
): StimuliWordsItem {
	const first = plan.firstWordOf[from];
	if (first === undefined) throw new RangeError(`No window ${from + 1} in the plan.`);
	return {
		kind: 'stimuli-words',
		key: stimuliWordsKey(model, first),
		words: words.map((word) => ({
			row: word.rowIndex,
			wordIndex: word.wordIndex,
			word: word.word,
			tokens: [...word.tokens],
			surprisalBits: word.surprisalBits,
			bowSurprisalBits: word.bowSurprisalBits,
			entropyBits: word.entropyBits,
			...(word.topNext !== undefined ? { topNext: word.topNext } : {}),
			model,
		})),
	};
}

/**
 * The scoring requests from window `from` on, as [first, end) window ranges: the first of at most
 * `firstWords` words, the others of at most `words`, each at least one window.
 */
export function stimuliRequests(
	plan: StimuliPlan,
	from: number,
	firstWords = STIMULI_FIRST_REQUEST_WORDS,
	words = STIMULI_REQUEST_WORDS,
): [number, number][] {
	const requests: [number, number][] = [];
	let start = from;
	let budget = firstWords;
	let taken = 0;
	for (let w = from; w < plan.windows.length; w += 1) {
		const size = plan.windows[w]?.spans.length ?? 0;
		if (w > start && taken + size > budget) {
			requests.push([start, w]);
			start = w;
			taken = 0;
			budget = words;
		}
		taken += size;
	}
	if (start < plan.windows.length) requests.push([start, plan.windows.length]);
	return requests;
}

/**
 * Where model `model`'s scoring goes on: the first window with a word not stored yet (words are
 * stored a request at a time, in order, so the stored words of a model are a prefix).
 */
export function firstUnscoredWindow(plan: StimuliPlan, storedWords: number): number {
	const index = plan.windows.findIndex((window, w) => {
		const end = (plan.firstWordOf[w] ?? 0) + window.spans.length - window.contextCount;
		return end > storedWords;
	});
	return index === -1 ? plan.windows.length : index;
}

/**
 * The long table (header, then a row per word and model, models in run order), as the CLI's
 * `stimuli` writes it from the same file and choices; `topNext`: with the top next tokens column
 * (a run that asked for them).
 */
export function stimuliTableRows(
	table: StimulusTable,
	words: readonly StimuliWordRow[],
	modelNames: readonly string[],
	topNext = false,
): string[][] {
	let header: string[] | undefined;
	const rows: string[][] = [];
	modelNames.forEach((name, model) => {
		const results: StimulusWordResult[] = words
			.filter((word) => word.model === model)
			.map((word) => ({
				passageIndex: 0,
				wordIndex: word.wordIndex,
				word: word.word,
				rowIndex: word.row,
				tokens: word.tokens ?? [],
				tokenIndices: [],
				surprisalBits: word.surprisalBits,
				bowSurprisalBits: word.bowSurprisalBits,
				entropyBits: word.entropyBits,
				...(word.topNext !== undefined ? { topNext: word.topNext } : {}),
			}));
		const [head, ...body] = stimulusTableRows(table, results, name, topNext);
		header ??= head;
		rows.push(...body);
	});
	return header === undefined ? [] : [header, ...rows];
}
