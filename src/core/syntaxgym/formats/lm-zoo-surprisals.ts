/**
 * The lm-zoo surprisal file (`get_surprisals` output): `sentence_id token_id token surprisal`,
 * ids 1-based, one row per model token, surprisal in bits. Reader (located errors) and writer.
 */
import { formatPythonFloat, parsePythonFloat } from '../../python/python-float';
import { createInputFormatError, formatTsvRow, readTsvTable } from '../../formats/tsv-table';

export const LM_ZOO_SURPRISAL_COLUMNS = ['sentence_id', 'token_id', 'token', 'surprisal'] as const;

export interface LmZooToken {
	readonly token: string;
	/** Surprisal in bits (-log2 p); the file's first token of a sentence is often 0. */
	readonly surprisalBits: number;
	/** 1-based line of the row in the file. */
	readonly line: number;
}

export interface LmZooSentence {
	/** 1-based, consecutive: sentence k is the k-th sentence of the suite. */
	readonly sentenceId: number;
	readonly tokens: readonly LmZooToken[];
	/** From the optional `item_number` column (our exports write it). */
	readonly itemNumber?: number;
	/** From the optional `condition_name` column (our exports write it). */
	readonly conditionName?: string;
}

function parseId(text: string): number | undefined {
	return /^\d+$/.test(text) ? Number(text) : undefined;
}

/**
 * Reads an lm-zoo surprisal file. Fields are separated by runs of spaces or tabs (the reference
 * reads it with pandas `delim_whitespace`); columns are found by header name, extra columns are
 * ignored except `item_number` and `condition_name` (our exports). Fields may be RFC 4180 quoted
 * (see `readTsvTable`). Sentence ids must run 1, 2, 3, … and token ids 1, 2, 3, … within each
 * sentence.
 * @throws InputFormatError with `source:line:column` for a missing column, a bad row, a
 * non-numeric surprisal or ids out of order.
 */
export function readLmZooSurprisals(text: string, source?: string): LmZooSentence[] {
	const table = readTsvTable(text, { separator: 'whitespace', ...(source ? { source } : {}) });
	const index = Object.fromEntries(
		LM_ZOO_SURPRISAL_COLUMNS.map((name) => [name, table.header.indexOf(name)]),
	) as Record<(typeof LM_ZOO_SURPRISAL_COLUMNS)[number], number>;
	const missing = LM_ZOO_SURPRISAL_COLUMNS.filter((name) => index[name] < 0);
	if (missing.length > 0) {
		throw createInputFormatError(
			source,
			table.headerLine,
			1,
			`the header must name the columns ${LM_ZOO_SURPRISAL_COLUMNS.join(', ')}; missing ` +
				`${missing.join(', ')} (found: ${table.header.join(', ')}).`,
		);
	}
	const itemColumn = table.header.indexOf('item_number');
	const conditionColumn = table.header.indexOf('condition_name');
	const sentences: {
		sentenceId: number;
		tokens: LmZooToken[];
		itemNumber?: number;
		conditionName?: string;
	}[] = [];
	for (const row of table.rows) {
		const field = (name: keyof typeof index) => row.fields[index[name]] as string;
		const column = (name: keyof typeof index) => row.columns[index[name]] as number;
		const sentenceId = parseId(field('sentence_id'));
		const current = sentences.at(-1);
		const expected = current ? `${current.sentenceId} or ${current.sentenceId + 1}` : '1';
		if (
			sentenceId === undefined ||
			(current === undefined
				? sentenceId !== 1
				: sentenceId !== current.sentenceId && sentenceId !== current.sentenceId + 1)
		) {
			throw createInputFormatError(
				source,
				row.line,
				column('sentence_id'),
				`sentence_id ${JSON.stringify(field('sentence_id'))} is out of order: expected ${expected} ` +
					'(sentences are numbered 1, 2, 3, … in suite order).',
			);
		}
		let sentence = current;
		if (sentence === undefined || sentence.sentenceId !== sentenceId) {
			const itemNumber = itemColumn < 0 ? undefined : parseId(row.fields[itemColumn] as string);
			sentence = {
				sentenceId,
				tokens: [],
				...(itemNumber === undefined ? {} : { itemNumber }),
				...(conditionColumn < 0 ? {} : { conditionName: row.fields[conditionColumn] as string }),
			};
			sentences.push(sentence);
		}
		const tokenId = parseId(field('token_id'));
		if (tokenId !== sentence.tokens.length + 1) {
			throw createInputFormatError(
				source,
				row.line,
				column('token_id'),
				`token_id ${JSON.stringify(field('token_id'))} is out of order: expected ` +
					`${sentence.tokens.length + 1} in sentence ${sentenceId}.`,
			);
		}
		const surprisalBits = parsePythonFloat(field('surprisal'));
		if (surprisalBits === undefined) {
			throw createInputFormatError(
				source,
				row.line,
				column('surprisal'),
				`surprisal ${JSON.stringify(field('surprisal'))} is not a number.`,
			);
		}
		sentence.tokens.push({ token: field('token'), surprisalBits, line: row.line });
	}
	return sentences;
}

/** One sentence to write; with `itemNumber`/`conditionName` the file gets those columns. */
export interface LmZooSentenceToWrite {
	readonly tokens: readonly { readonly token: string; readonly surprisalBits: number }[];
	readonly itemNumber?: number;
	readonly conditionName?: string;
}

/**
 * Writes an lm-zoo surprisal file (tab-separated, header first, surprisals as Python `repr`).
 * Sentence and token ids are the 1-based positions. When any sentence names its item, two
 * columns follow lm-zoo's four: `item_number condition_name` (lm-zoo readers find columns by
 * name and ignore extra ones). A field holding `"` or whitespace is RFC 4180 quoted (`""""` for
 * a `"` token), which pandas and Python's `csv` read back (the reference reads this file
 * whitespace-separated); an empty token is written `_`.
 */
export function writeLmZooSurprisals(sentences: readonly LmZooSentenceToWrite[]): string {
	const withItems = sentences.some((sentence) => sentence.itemNumber !== undefined);
	const header: string[] = [...LM_ZOO_SURPRISAL_COLUMNS];
	if (withItems) header.push('item_number', 'condition_name');
	const lines = [header.join('\t')];
	sentences.forEach(({ tokens, itemNumber, conditionName }, sentenceIndex) => {
		tokens.forEach(({ token, surprisalBits }, tokenIndex) => {
			const fields = [
				String(sentenceIndex + 1),
				String(tokenIndex + 1),
				token === '' ? '_' : token,
				formatPythonFloat(surprisalBits),
			];
			if (withItems)
				fields.push(itemNumber === undefined ? '' : String(itemNumber), conditionName ?? '');
			lines.push(formatTsvRow(fields, 'whitespace'));
		});
	});
	return `${lines.join('\n')}\n`;
}

/**
 * Checks that the file has one sentence per suite sentence (`expected` = items × conditions).
 * @throws InputFormatError located at the first extra sentence, or naming the counts.
 */
export function checkSentenceCount(
	sentences: readonly LmZooSentence[],
	expected: number,
	source?: string,
): void {
	if (sentences.length === expected) return;
	const extra = sentences[expected]?.tokens[0];
	throw createInputFormatError(
		source,
		extra?.line,
		extra === undefined ? undefined : 1,
		`the file has ${sentences.length} sentences but the suite has ${expected} (one per item and ` +
			'condition, items in file order, conditions in file order); was it made for this suite?',
	);
}
