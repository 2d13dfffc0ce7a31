/**
 * Minimal pairs → a SyntaxGym suite: BLiMP-style JSONL (`sentence_good`, `sentence_bad`, optional
 * `field`, `UID`, `pairID`) or a two-column CSV/TSV (good, bad). One item per pair, conditions
 * `good` and `bad`, one region holding the whole sentence, and the prediction "the bad sentence
 * is more surprising than the good one over the whole sentence". Pure; errors are located.
 */
import * as v from 'valibot';
import { InputFormatError } from '../../errors';
import { createInputFormatError, readTsvTable, type TsvRow } from '../../formats/tsv-table';
import { locateJsonPointers } from './json-source';

/** One pair as read, with the 1-based line it came from. */
export interface MinimalPair {
	readonly good: string;
	readonly bad: string;
	readonly field?: string;
	readonly uid?: string;
	readonly pairId?: string;
	readonly line: number;
}

/** The prediction of every converted suite: bad more surprising than good, whole sentence. */
export const MINIMAL_PAIR_FORMULA = '(1;%bad%) > (1;%good%)';

/** Where a file of pairs is read from; picks the reader (see {@link readMinimalPairs}). */
export type MinimalPairFormat = 'jsonl' | 'csv' | 'tsv';

const PAIR_LINE = v.looseObject({
	sentence_good: v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty')),
	sentence_bad: v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty')),
	field: v.optional(v.string('must be a string')),
	UID: v.optional(v.string('must be a string')),
	pairID: v.optional(v.union([v.string(), v.number()], 'must be a string or a number')),
});

/** Trims and collapses whitespace runs to one space: region content as SyntaxGym wants it. */
function cleanSentence(text: string): string {
	return text.trim().replace(/\s+/gu, ' ');
}

function checkPair(pair: MinimalPair, source: string | undefined, column: number): MinimalPair {
	if (pair.good === '' || pair.bad === '') {
		throw createInputFormatError(
			source,
			pair.line,
			column,
			`the ${pair.good === '' ? 'good' : 'bad'} sentence is empty; every pair needs two sentences.`,
		);
	}
	if (pair.good === pair.bad) {
		throw createInputFormatError(
			source,
			pair.line,
			column,
			`the good and the bad sentence are the same (${JSON.stringify(pair.good)}); a minimal pair differs in at least one word.`,
		);
	}
	return pair;
}

/**
 * Reads BLiMP-style JSONL: one JSON object per line with `sentence_good` and `sentence_bad`
 * (other keys are ignored; `field`, `UID` and `pairID` are kept). Blank lines are skipped.
 * @throws InputFormatError at `source:line:column` for a line that is not such an object.
 */
export function readMinimalPairsJsonl(text: string, source?: string): MinimalPair[] {
	const pairs: MinimalPair[] = [];
	text
		.replace(/^\uFEFF/u, '')
		.split('\n')
		.forEach((raw, index) => {
			const lineText = raw.replace(/\r$/u, '');
			if (lineText.trim() === '') return;
			const line = index + 1;
			let json: unknown;
			try {
				json = JSON.parse(lineText) as unknown;
			} catch {
				throw createInputFormatError(
					source,
					line,
					1,
					'this line is not a JSON object; JSONL pairs have one object per line, e.g. ' +
						'{"sentence_good": "The cats sleep.", "sentence_bad": "The cats sleeps."}.',
				);
			}
			if (typeof json !== 'object' || json === null || Array.isArray(json)) {
				throw createInputFormatError(
					source,
					line,
					1,
					'the line must be a JSON object with "sentence_good" and "sentence_bad" strings.',
				);
			}
			const parsed = v.safeParse(PAIR_LINE, json);
			if (!parsed.success) {
				const issue = parsed.issues[0];
				const key = issue.path?.[0]?.key;
				const column =
					typeof key === 'string'
						? (locateJsonPointers(lineText, [`/${key}`]).get(`/${key}`)?.column ?? 1)
						: 1;
				const what =
					typeof key === 'string'
						? `"${key}" ${issue.input === undefined ? 'is missing' : issue.message}`
						: issue.message;
				throw createInputFormatError(
					source,
					line,
					column,
					`${what}; each line needs "sentence_good" and "sentence_bad" strings.`,
				);
			}
			const { sentence_good, sentence_bad, field, UID, pairID } = parsed.output;
			const pair: MinimalPair = {
				good: cleanSentence(sentence_good),
				bad: cleanSentence(sentence_bad),
				...(field === undefined ? {} : { field }),
				...(UID === undefined ? {} : { uid: UID }),
				...(pairID === undefined ? {} : { pairId: String(pairID) }),
				line,
			};
			pairs.push(checkPair(pair, source, 1));
		});
	return pairs;
}

const GOOD_NAMES = new Set(['good', 'sentence_good', 'grammatical', 'acceptable']);
const BAD_NAMES = new Set(['bad', 'sentence_bad', 'ungrammatical', 'unacceptable']);

/**
 * Reads a two-column table of pairs (CSV, RFC 4180 quoting; or TSV): good sentence, then bad.
 * A first row naming the columns (`good`/`bad`, `sentence_good`/`sentence_bad`,
 * `grammatical`/`ungrammatical`, in either order) is a header; otherwise every row is a pair.
 * @throws InputFormatError at `source:line:column` for a row without exactly two fields.
 */
export function readMinimalPairsTable(
	text: string,
	separator: 'comma' | 'tab',
	source?: string,
): MinimalPair[] {
	// A header line of our own, so that the first row of the file is read as data (untrimmed);
	// every line number is then one more than in the file.
	const ownHeader = separator === 'comma' ? 'good,bad' : 'good\tbad';
	let rows: readonly TsvRow[];
	try {
		rows = readTsvTable(`${ownHeader}\n${text.replace(/^\uFEFF/u, '')}`, { separator }).rows;
	} catch (error) {
		if (!(error instanceof InputFormatError)) throw error;
		const found = /found (\d+)\.$/.exec(error.message)?.[1];
		const line = error.location.line === undefined ? undefined : error.location.line - 1;
		throw createInputFormatError(
			source,
			line,
			error.location.column,
			found === undefined
				? 'the file holds no pairs.'
				: `expected two fields (good sentence, bad sentence), found ${found}; quote a sentence that holds ${separator === 'comma' ? 'a comma' : 'a tab'} ("...").`,
		);
	}
	const [first, ...rest] = rows;
	if (first === undefined) return [];
	const names = first.fields.map((name) => name.trim().toLowerCase());
	const goodIndex = names.findIndex((name) => GOOD_NAMES.has(name));
	const badIndex = names.findIndex((name) => BAD_NAMES.has(name));
	const hasHeader = goodIndex >= 0 && badIndex >= 0;
	const [good, bad] = hasHeader ? [goodIndex, badIndex] : [0, 1];
	return (hasHeader ? rest : rows).map((row) =>
		checkPair(
			{
				good: cleanSentence(row.fields[good] ?? ''),
				bad: cleanSentence(row.fields[bad] ?? ''),
				line: row.line - 1,
			},
			source,
			1,
		),
	);
}

/** The reader for a file name: `.jsonl`/`.ndjson` → JSONL, `.csv`, `.tsv`; else by content. */
export function detectMinimalPairFormat(fileName: string, text: string): MinimalPairFormat | null {
	const lower = fileName.toLowerCase();
	if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) return 'jsonl';
	if (lower.endsWith('.csv')) return 'csv';
	if (lower.endsWith('.tsv')) return 'tsv';
	return looksLikeMinimalPairsJsonl(text) ? 'jsonl' : null;
}

/** Whether the first non-blank line is a JSON object with a `sentence_good` key (BLiMP). */
export function looksLikeMinimalPairsJsonl(text: string): boolean {
	const first = text
		.replace(/^\uFEFF/u, '')
		.split('\n')
		.find((line) => line.trim() !== '');
	if (first === undefined || !/^\s*\{/u.test(first)) return false;
	try {
		const json = JSON.parse(first) as unknown;
		return typeof json === 'object' && json !== null && 'sentence_good' in json;
	} catch {
		return false;
	}
}

/** Reads pairs in the given format. @throws InputFormatError, located. */
export function readMinimalPairs(
	text: string,
	format: MinimalPairFormat,
	source?: string,
): MinimalPair[] {
	const pairs =
		format === 'jsonl'
			? readMinimalPairsJsonl(text, source)
			: readMinimalPairsTable(text, format === 'csv' ? 'comma' : 'tab', source);
	if (pairs.length === 0) {
		throw createInputFormatError(source, undefined, undefined, 'the file holds no pairs.');
	}
	return pairs;
}

function countBy(values: readonly (string | undefined)[]): [string, number][] {
	const counts = new Map<string, number>();
	for (const value of values)
		if (value !== undefined) counts.set(value, (counts.get(value) ?? 0) + 1);
	return [...counts];
}

/**
 * The suite (as JSON data, SyntaxGym's standard format) for the pairs. Its name is `name`, or the
 * pairs' UID when they share one, or the source file's name without extension. Items are
 * numbered 1, 2, … in file order; each item's conditions are `good` then `bad`, each one region
 * (`sentence`) holding the sentence.
 */
export function buildMinimalPairSuite(
	pairs: readonly MinimalPair[],
	options: { readonly name?: string; readonly sourceName?: string } = {},
): Record<string, unknown> {
	const uids = countBy(pairs.map((pair) => pair.uid));
	const fields = countBy(pairs.map((pair) => pair.field));
	const sharedUid = uids.length === 1 && uids[0]?.[1] === pairs.length ? uids[0]?.[0] : undefined;
	const describeCounts = (label: string, counts: [string, number][]) =>
		counts.length === 0
			? []
			: [`${label}: ${counts.map(([value, count]) => `${value} (${count})`).join(', ')}.`];
	const comment = [
		`Converted from ${pairs.length} minimal pair${pairs.length === 1 ? '' : 's'}` +
			`${options.sourceName ? ` in ${options.sourceName}` : ''}. Each item is one pair: ` +
			'condition good is the acceptable sentence, bad the unacceptable one; the prediction ' +
			'holds when the bad sentence is more surprising than the good one over the whole sentence.',
		...describeCounts('Fields', fields),
		...describeCounts('UIDs', uids),
	].join(' ');
	return {
		meta: {
			name:
				options.name ??
				sharedUid ??
				(options.sourceName
					?.split(/[\\/]/u)
					.pop()
					?.replace(/\.[^.]*$/u, '') ||
					'minimal pairs'),
			metric: 'sum',
			comment,
		},
		region_meta: { '1': 'sentence' },
		predictions: [{ type: 'formula', formula: MINIMAL_PAIR_FORMULA }],
		items: pairs.map((pair, index) => ({
			item_number: index + 1,
			conditions: [
				{ condition_name: 'good', regions: [{ region_number: 1, content: pair.good }] },
				{ condition_name: 'bad', regions: [{ region_number: 1, content: pair.bad }] },
			],
		})),
	};
}

/**
 * A file of pairs as suite JSON text (tab-indented), ready for the suite parser.
 * @throws InputFormatError, located, when the file is not pairs in a known format.
 */
export function convertMinimalPairs(
	text: string,
	fileName: string,
	options: { readonly name?: string } = {},
): { readonly suiteText: string; readonly pairCount: number } {
	const format = detectMinimalPairFormat(fileName, text);
	if (format === null) {
		throw createInputFormatError(
			fileName,
			undefined,
			undefined,
			'not a file of minimal pairs: use BLiMP-style JSONL (.jsonl, one object with ' +
				'"sentence_good" and "sentence_bad" per line) or a two-column .csv/.tsv (good, bad).',
		);
	}
	const pairs = readMinimalPairs(text, format, fileName);
	const suite = buildMinimalPairSuite(pairs, { ...options, sourceName: fileName });
	return { suiteText: `${JSON.stringify(suite, null, '\t')}\n`, pairCount: pairs.length };
}
