/**
 * The long per-word table of a stimuli run: every input column, then the word's place, the word,
 * its tokens and its values in bits, and the model; written as CSV (spreadsheet-safe, through
 * `writeCsvTable`) or TSV; and the provenance lines that say how the numbers were made. Pure.
 */
import { formatTsvRow, writeCsvTable } from '../formats/tsv-table';
import type { PunctuationRule, StimulusLayout, StimulusPassage } from './stimulus-passages';
import type { StimulusTable } from './read-stimulus-table';
import type { StimulusWindow, StimulusWindowSize } from './stimulus-windows';
import {
	assignTokensToWords,
	sumTokensToStimulusWords,
	type StimulusNextToken,
	type StimulusToken,
	type StimulusWordOptions,
	type StimulusWordValues,
} from './stimulus-word-surprisals';

/** The columns added after the input's, in order. */
export const STIMULUS_VALUE_COLUMNS = [
	'word_index',
	'word',
	'tokens',
	'token_count',
	'surprisal_bits',
	'surprisal_bow_bits',
	'entropy_bits',
	'model',
] as const;

/** The column added before `model` when the run asked for the top next tokens. */
export const TOP_NEXT_COLUMN = 'top_next_tokens';

/** Appended to an added column's name when the input already has a column of that name. */
export const COLLISION_SUFFIX = '_lm';

/** One scored word of a passage. */
export interface StimulusWordResult extends StimulusWordValues {
	readonly passageIndex: number;
	/** 0-based place in its passage (in a context + target row: in the target). */
	readonly wordIndex: number;
	readonly word: string;
	readonly rowIndex: number;
	/** The tokens' vocabulary forms (`Ġdog`), ignored tokens left out. */
	readonly tokens: readonly string[];
}

/**
 * Every word of every passage with its values, from the scored windows (`scored[i]` holds the
 * tokens of `windows[i].text`). A word is taken from the one window that scores it.
 * @throws RangeError when the windows and their tokens do not match.
 */
export function collectStimulusWords(
	passages: readonly StimulusPassage[],
	windows: readonly StimulusWindow[],
	scored: readonly (readonly StimulusToken[])[],
	options: StimulusWordOptions = {},
): StimulusWordResult[] {
	if (scored.length !== windows.length) {
		throw new RangeError(`${scored.length} scored texts for ${windows.length} windows.`);
	}
	const results: StimulusWordResult[] = [];
	windows.forEach((window, w) => {
		const passage = passages[window.passageIndex];
		const tokens = scored[w] ?? [];
		if (passage === undefined) throw new RangeError(`Window ${w + 1} has no passage.`);
		const values = sumTokensToStimulusWords(window.text, window.spans, tokens, options);
		values.forEach((value, k) => {
			if (k < window.contextCount) return;
			const wordIndex = window.firstWord + k;
			const span = passage.words[wordIndex];
			if (span === undefined)
				throw new RangeError(`Window ${w + 1} has more words than its passage.`);
			results.push({
				...value,
				passageIndex: window.passageIndex,
				wordIndex,
				word: passage.text.slice(span.start, span.end),
				rowIndex: span.rowIndex,
				tokens: value.tokenIndices.map((index) => tokens[index]?.token ?? ''),
			});
		});
	});
	return results;
}

/** A number of bits as R reads it: shortest round-trip decimal, `NA` for none, `Inf`/`-Inf`. */
export function formatBitsForR(bits: number | null): string {
	if (bits === null || Number.isNaN(bits)) return 'NA';
	if (bits === Infinity) return 'Inf';
	if (bits === -Infinity) return '-Inf';
	return String(bits);
}

/**
 * The top next tokens as one cell: `text probability` pairs, most likely first, ` | ` between; a
 * token's spaces shown as `␣` and line breaks as `↵`, probabilities to 4 significant digits. NA
 * for none.
 */
export function formatTopNext(entries: readonly StimulusNextToken[] | undefined): string {
	if (entries === undefined || entries.length === 0) return 'NA';
	return entries
		.map(
			({ text, probability }) =>
				`${text.replace(/ /gu, '␣').replace(/\r?\n/gu, '↵')} ${Number(probability.toPrecision(4))}`,
		)
		.join(' | ');
}

/** The added columns' names, each with {@link COLLISION_SUFFIX} while the input has it;
 * `topNext` adds {@link TOP_NEXT_COLUMN} before `model`. */
export function stimulusValueColumnNames(
	inputHeader: readonly string[],
	topNext = false,
): string[] {
	const taken = new Set(inputHeader);
	const names: readonly string[] = topNext
		? [...STIMULUS_VALUE_COLUMNS.slice(0, -1), TOP_NEXT_COLUMN, 'model']
		: STIMULUS_VALUE_COLUMNS;
	return names.map((name) => {
		let chosen: string = name;
		while (taken.has(chosen)) chosen += COLLISION_SUFFIX;
		taken.add(chosen);
		return chosen;
	});
}

/**
 * The header and rows of the long table: one row per word, in passage order (`wordIndex` 1-based
 * in the output), every input column of the word's row first. Token forms are joined by spaces.
 * `topNext`: the table has the top next tokens column (see {@link formatTopNext}).
 */
export function stimulusTableRows(
	table: StimulusTable,
	words: readonly StimulusWordResult[],
	model: string,
	topNext = false,
): string[][] {
	const header = [...table.header, ...stimulusValueColumnNames(table.header, topNext)];
	const rows = words.map((word) => [
		...(table.rows[word.rowIndex]?.fields ?? []),
		String(word.wordIndex + 1),
		word.word,
		word.tokens.join(' '),
		String(word.tokens.length),
		formatBitsForR(word.surprisalBits),
		formatBitsForR(word.bowSurprisalBits),
		formatBitsForR(word.entropyBits),
		...(topNext ? [formatTopNext(word.topNext)] : []),
		model,
	]);
	return [header, ...rows];
}

/** The columns the token table adds after the input's, in order. */
export const STIMULUS_TOKEN_COLUMNS = [
	'word_index',
	'token_index',
	'token',
	'special',
	'ignored',
	'surprisal_bits',
	'model',
] as const;

/**
 * The token table: one row per model token of every passage (special tokens, context tokens and
 * ignored ones included; each token once, from the window that scores its word), every input
 * column of its word's row first (a token in no word: the row of the next word, else the one
 * before), then `word_index` (1-based, NA for none), `token_index` (1-based in its passage),
 * the vocabulary form, `special` and `ignored` (TRUE/FALSE), surprisal in bits and the model.
 */
export function stimulusTokenTableRows(
	table: StimulusTable,
	passages: readonly StimulusPassage[],
	windows: readonly StimulusWindow[],
	scored: readonly (readonly StimulusToken[])[],
	model: string,
	options: StimulusWordOptions = {},
): string[][] {
	const taken = new Set(table.header);
	const names = STIMULUS_TOKEN_COLUMNS.map((name) => {
		let chosen: string = name;
		while (taken.has(chosen)) chosen += COLLISION_SUFFIX;
		taken.add(chosen);
		return chosen;
	});
	const rows: string[][] = [[...table.header, ...names]];
	const emitted = passages.map(() => 0);
	windows.forEach((window, w) => {
		const passage = passages[window.passageIndex];
		const tokens = scored[w] ?? [];
		if (passage === undefined) return;
		const wordOf = assignTokensToWords(window.text, window.spans, tokens);
		wordOf.forEach((word, index) => {
			const token = tokens[index];
			let anchor = word;
			for (let k = index + 1; anchor === null && k < wordOf.length; k++) anchor = wordOf[k] ?? null;
			for (let k = index - 1; anchor === null && k >= 0; k--) anchor = wordOf[k] ?? null;
			if (token === undefined || anchor === null || anchor < window.contextCount) return;
			const rowIndex = passage.words[window.firstWord + anchor]?.rowIndex;
			if (rowIndex === undefined) return;
			const text =
				token.start === undefined ? '' : window.text.slice(token.start, token.end).trim();
			const ignored =
				word !== null &&
				text !== '' &&
				options.ignoreToken !== undefined &&
				options.ignoreToken(text);
			emitted[window.passageIndex] = (emitted[window.passageIndex] ?? 0) + 1;
			rows.push([
				...(table.rows[rowIndex]?.fields ?? []),
				word === null ? 'NA' : String(window.firstWord + word + 1),
				String(emitted[window.passageIndex]),
				token.token,
				token.special ? 'TRUE' : 'FALSE',
				ignored ? 'TRUE' : 'FALSE',
				formatBitsForR(token.surprisalBits),
				model,
			]);
		});
	});
	return rows;
}

export type StimulusOutputFormat = 'csv' | 'tsv';

/**
 * The table as CSV (RFC 4180, CRLF, formula-like cells made inert: `writeCsvTable`) or TSV (tab
 * separated, RFC 4180 quoting where a field holds a tab, quote or line break; cells verbatim).
 */
export function writeStimulusTable(
	rows: readonly (readonly string[])[],
	format: StimulusOutputFormat,
): string {
	if (format === 'csv') return writeCsvTable(rows);
	return rows.map((row) => `${formatTsvRow(row)}\n`).join('');
}

/** What the provenance states. */
export interface StimulusProvenance {
	readonly source: string;
	readonly delimiter: string;
	readonly layout: StimulusLayout;
	readonly punctuation: PunctuationRule;
	readonly ignoreRegex?: string;
	/** The table has one row per token (`--tokens`), not per word. */
	readonly tokenRows?: boolean;
	/** What joined rows, words, context and target (default one space). */
	readonly sep?: string;
	/** Each model of the run, in table order (the `model` column). */
	readonly models: readonly StimulusModelProvenance[];
	readonly window?: StimulusWindowSize;
	/** Whether the beginning-of-word correction was computed (for every model). */
	readonly bow: boolean;
	/** Whether the engine gave next-word entropies. */
	readonly entropy: boolean;
	/** How many top next tokens the table gives per word (absent: none). */
	readonly topNext?: number;
	readonly passages: number;
	readonly words: number;
}

/** One model of a run and the start-of-text convention it was scored with. */
export interface StimulusModelProvenance {
	readonly model: string;
	readonly convention: string;
	readonly conventionReason: string;
}

function describeLayout(layout: StimulusLayout): string {
	switch (layout.kind) {
		case 'text':
			return layout.groupColumn === undefined
				? `one text per row (column '${layout.textColumn}'); each row is scored alone`
				: `one text per row (column '${layout.textColumn}'); rows with the same '${layout.groupColumn}' are one running passage, in row order`;
		case 'word':
			return `one word per row (column '${layout.wordColumn}'), grouped by '${layout.groupColumn}', ordered by ${layout.orderColumn === undefined ? 'row order' : `'${layout.orderColumn}'`}; never re-split`;
		case 'context-target':
			return `context + target: '${layout.contextColumn}', then '${layout.targetColumn}'; only the target's words are rows`;
	}
}

const PUNCTUATION_WORDS: Readonly<Record<PunctuationRule, string>> = {
	keep: 'punctuation stays with its word ("dog." is one word)',
	split: 'punctuation at a word\'s start or end is a word of its own ("dog." is "dog" and ".")',
	ignore:
		"punctuation at a word's start or end is in no word (its tokens still condition what follows)",
};

/** The provenance lines (no line ends). */
export function describeStimulusProvenance(facts: StimulusProvenance): string[] {
	const joiner = JSON.stringify(facts.sep ?? ' ');
	return [
		`input: ${facts.source} (${facts.delimiter}-separated), ${facts.passages} texts scored, ${facts.words} words${facts.models.length > 1 ? ` for each of ${facts.models.length} models (one row per word and model)` : ''}`,
		`layout: ${describeLayout(facts.layout)}`,
		facts.tokenRows === true
			? 'rows: one per model token (word_index NA for a token in no word)'
			: 'rows: one per word',
		`words: ${facts.layout.kind === 'word' ? "the file's own words" : `runs of non-whitespace; ${PUNCTUATION_WORDS[facts.punctuation]}`}; rows, words, context and target are joined by ${joiner} (none where whitespace is already there)`,
		facts.ignoreRegex === undefined
			? 'ignored tokens: none'
			: `ignored tokens: a token whose text (spaces trimmed) matches /${facts.ignoreRegex}/u counts in no word's sum (pangoling's ignore_regex); a word made only of such tokens is NA`,
		...facts.models.map(
			(m) => `model: ${m.model}; start-of-text convention: ${m.convention} (${m.conventionReason})`,
		),
		'leading space: a word\'s leading space is counted in that word (GPT-2\'s "Ġdog", SentencePiece\'s "▁dog"); a whitespace-only token counts in the next word, at the end of a text in the last',
		"surprisal_bits: −log₂ p of the word's tokens, summed (pangoling's log.p = 1/2 is in bits too; minicons and the surprisal package also sum a word's tokens)",
		facts.bow
			? "surprisal_bow_bits: beginning-of-word corrected (Oh & Schuler 2024; minicons bow_correction=True): + boundary after the word − boundary before it (not for a text's first word)"
			: 'surprisal_bow_bits: NA where a model gives no word-boundary probabilities (an endpoint)',
		facts.entropy
			? "entropy_bits: entropy (−Σ p log₂ p over the vocabulary) of the distribution that predicts the word's first token; NA for a text's first word when no start-of-text token comes before it, and for an endpoint model (its logprobs give no whole distribution)"
			: "entropy_bits: NA (an endpoint model's logprobs give no whole next-token distribution)",
		...(facts.topNext === undefined
			? []
			: [
					`top_next_tokens: the ${facts.topNext} most likely next tokens of the distribution that predicts the word's first token, most likely first, as 'token probability' pairs (a space in a token shown as ␣, a line break as ↵; probabilities to 4 significant digits) with ' | ' between; NA for a word no token comes before; tokens, not words: a token may be part of a word`,
				]),
		facts.window === undefined
			? "window: none; each text is scored whole (a text longer than the model's context is an error)"
			: `window: sliding, ${facts.window.contextWords} words of context length, stride ${facts.window.strideWords} words; a word is scored once, with at least ${facts.window.contextWords - facts.window.strideWords} words before it once the passage is that long`,
	];
}
