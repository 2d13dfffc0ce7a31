/**
 * Long passages scored in sliding windows of words: each window holds at most `contextWords`
 * words, and after the first one scores only its last `strideWords` words, the words before them
 * being context. A window's text is the passage's text from its first word through its last.
 * Pure: plans the windows and maps them back.
 */
import type { StimulusPassage } from './stimulus-passages';

/** Window sizes in words; `strideWords` ≤ `contextWords`. */
export interface StimulusWindowSize {
	readonly contextWords: number;
	readonly strideWords: number;
}

/** One text to score: a window of a passage. */
export interface StimulusWindow {
	/** Index into the passages. */
	readonly passageIndex: number;
	readonly text: string;
	/** Every word of the window as spans of `text` (context words included, in order). */
	readonly spans: readonly { readonly start: number; readonly end: number }[];
	/** Index (into the passage's words) of the window's first word. */
	readonly firstWord: number;
	/** How many of the window's first words are context only (scored by an earlier window). */
	readonly contextCount: number;
}

/** @throws RangeError for sizes that are not whole numbers ≥ 1 or a stride over the context. */
export function checkWindowSize(size: StimulusWindowSize): void {
	const { contextWords, strideWords } = size;
	if (!Number.isInteger(contextWords) || contextWords < 1) {
		throw new RangeError(
			`The window's context length must be a whole number of words ≥ 1 (got ${contextWords}).`,
		);
	}
	if (!Number.isInteger(strideWords) || strideWords < 1 || strideWords > contextWords) {
		throw new RangeError(
			`The window's stride must be a whole number of words from 1 to the context length ${contextWords} (got ${strideWords}).`,
		);
	}
}

/**
 * The windows of every passage, in order; without `size` one window per passage (its whole
 * text). A passage of n ≤ contextWords words is one window. Word k of a passage is scored in
 * exactly one window, with min(k, contextWords − strideWords) words before it at least.
 */
export function planStimulusWindows(
	passages: readonly StimulusPassage[],
	size?: StimulusWindowSize,
): StimulusWindow[] {
	if (size !== undefined) checkWindowSize(size);
	const windows: StimulusWindow[] = [];
	passages.forEach((passage, passageIndex) => {
		const words = passage.words;
		if (size === undefined || words.length <= size.contextWords) {
			windows.push({
				passageIndex,
				text: passage.text,
				spans: words.map(({ start, end }) => ({ start, end })),
				firstWord: 0,
				contextCount: 0,
			});
			return;
		}
		const window = (from: number, to: number, contextCount: number) => {
			const textStart = from === 0 ? 0 : (words[from]?.start ?? 0);
			const textEnd = to === words.length ? passage.text.length : (words[to - 1]?.end ?? 0);
			windows.push({
				passageIndex,
				text: passage.text.slice(textStart, textEnd),
				spans: words
					.slice(from, to)
					.map(({ start, end }) => ({ start: start - textStart, end: end - textStart })),
				firstWord: from,
				contextCount,
			});
		};
		window(0, size.contextWords, 0);
		for (let scored = size.contextWords; scored < words.length; scored += size.strideWords) {
			const to = Math.min(scored + size.strideWords, words.length);
			const from = Math.max(0, to - size.contextWords);
			window(from, to, scored - from);
		}
	});
	return windows;
}
