/**
 * The word-level surprisal table written next to the token table: one row per word, words as
 * `sumSurprisalsToWords` finds them (whitespace-separated, subword surprisals summed). Writer
 * only; the reader is `readTsvTable`.
 */
import type { WordSurprisal } from '../../scoring/word-surprisal';
import { formatPythonFloat } from '../../python/python-float';
import { formatTsvRow } from '../../formats/tsv-table';

export const WORD_SURPRISAL_COLUMNS = [
	'sentence_id',
	'word_id',
	'word',
	'surprisal',
	'token_count',
] as const;

/** One sentence's words; with `itemNumber`/`conditionName` the table gets those columns. */
export interface WordSentenceToWrite {
	readonly words: readonly WordSurprisal[];
	readonly itemNumber?: number;
	readonly conditionName?: string;
}

export interface WordSurprisalsTsvOptions {
	/** The words carry the beginning-of-word correction: the surprisal column is then named
	 * `surprisal_bow`, so a reader cannot take corrected values for plain sums. Default false. */
	readonly bowCorrected?: boolean;
}

/**
 * Tab-separated, header first: `sentence_id word_id word surprisal token_count` (ids 1-based,
 * surprisal in bits as Python `repr`, `token_count` = the word's model tokens; `surprisal_bow`
 * instead of `surprisal` with `bowCorrected`), then `item_number condition_name` when any
 * sentence names its item. A field holding `"`, a tab or a line break is RFC 4180 quoted.
 */
export function writeWordSurprisalsTsv(
	sentences: readonly WordSentenceToWrite[],
	options: WordSurprisalsTsvOptions = {},
): string {
	const withItems = sentences.some((sentence) => sentence.itemNumber !== undefined);
	const header: string[] = WORD_SURPRISAL_COLUMNS.map((column) =>
		column === 'surprisal' && options.bowCorrected ? 'surprisal_bow' : column,
	);
	if (withItems) header.push('item_number', 'condition_name');
	const lines = [header.join('\t')];
	sentences.forEach(({ words, itemNumber, conditionName }, sentenceIndex) => {
		words.forEach((word, wordIndex) => {
			const fields = [
				String(sentenceIndex + 1),
				String(wordIndex + 1),
				word.word,
				formatPythonFloat(word.surprisalBits),
				String(word.tokenIndices.length),
			];
			if (withItems) {
				fields.push(itemNumber === undefined ? '' : String(itemNumber), conditionName ?? '');
			}
			lines.push(formatTsvRow(fields));
		});
	});
	return `${lines.join('\n')}\n`;
}
