/**
 * `stimuli <file.csv|.tsv> ...`: per-word surprisal of an experiment's stimuli as a long table
 * (CSV or TSV), every input column kept, with the real engine in Node. The reading, the layouts,
 * the word rule and the table are core/stimuli; this file reads the file, the flags and scores.
 */
import { readFile, stat } from 'node:fs/promises';
import { SequenceLengthError } from '../../core/errors';
import {
	checkStimulusFileSize,
	decodeStimulusBytes,
	delimiterName,
	readStimulusTable,
	STIMULUS_FILE_MAX_BYTES,
	type StimulusDelimiter,
} from '../../core/stimuli/read-stimulus-table';
import {
	buildStimulusPassages,
	PUNCTUATION_RULES,
	type PunctuationRule,
	type StimulusLayout,
} from '../../core/stimuli/stimulus-passages';
import {
	collectStimulusWords,
	describeStimulusProvenance,
	stimulusTableRows,
	stimulusTokenTableRows,
	writeStimulusTable,
	type StimulusModelProvenance,
	type StimulusOutputFormat,
} from '../../core/stimuli/stimulus-table';
import { DEFAULT_MODEL_ID } from '../../core/model/model-spec';
import { planStimulusWindows, type StimulusWindowSize } from '../../core/stimuli/stimulus-windows';
import { withTopNext } from '../../core/stimuli/stimulus-word-surprisals';
import { STIMULI_MAX_TOP_NEXT } from '../../core/stimuli/stimuli-run-kind';
import { compileLinearRegex, RegexRefused } from '../../core/text/linear-regex';
import { CliInputError, EXIT_OK, type CliCommand } from '../shared/cli-io';
import { parseCommandArgs } from '../shared/parse-command-args';
import { writeFileNoFollow } from '../shared/safe-write';
import {
	CONVENTION_HELP,
	MODEL_OPTIONS,
	MODEL_OPTIONS_USAGE,
	readModelRequest,
	scoreTextsInNode,
} from './surprisals';

export const STIMULI_USAGE =
	'usage: stimuli <stimuli.csv | .tsv> ' +
	'(--text <column> [--by <column>] | --word <column> --by <column> [--word-n <column>] | ' +
	'--context <column> --target <column>) ' +
	'[--delimiter comma|semicolon|tab] [--sep <text>] [--punctuation keep|split|ignore] [--ignore-regex <pattern>] ' +
	'[--context-words <n> [--stride-words <n>]] [--top-k <n>] [--tokens] [--format csv|tsv] [--output <file>] ' +
	MODEL_OPTIONS_USAGE;

export const STIMULI_HELP = `Layouts (pick one; column names as in the file's header):
  --text <column>            one text per row; each row is scored alone
  --text <column> --by <column>
                             rows with the same --by value are one running passage (a story read
                             sentence by sentence), joined by one space in row order
  --word <column> --by <column> [--word-n <column>]
                             one word per row (eye-tracking, self-paced reading); --by groups the
                             words into sentences or passages, --word-n orders them (default: row
                             order); the file's words are the words, never re-split (pangoling's
                             x, by and word_n)
  --context <column> --target <column>
                             the target's surprisal given the context (pangoling's
                             causal_targets_pred); one space joins them
Words and tokens:
  --sep <text>               what joins rows, words, a context and its target (default one space;
                             '' for a language written without spaces; pangoling's sep)
  --punctuation keep         (default) punctuation stays with its word: "dog." is one word
  --punctuation split        punctuation at a word's start or end is a word of its own
  --punctuation ignore       that punctuation is in no word (its tokens still condition)
  --ignore-regex <pattern>   tokens whose text matches (JavaScript syntax, u flag, linear time)
                             count in no word's sum, as pangoling's ignore_regex: e.g. '^\\p{P}+$'
                             (POSIX classes such as [[:punct:]] are refused: write \\p{P})
Long passages:
  --context-words <n>        score in sliding windows of at most n words (default: whole texts)
  --stride-words <n>         words scored per window after the first (default n/2)
Next tokens:
  --top-k <n>                a top_next_tokens column: the n most likely next tokens (1 to ${STIMULI_MAX_TOP_NEXT})
                             at each word's first token, with their probabilities (local models
                             only; scored without shared-prefix reuse, so slower)
Input and output:
  --tokens                   one row per model token instead of per word: word_index (NA for a
                             token in no word: start-of-text, a context, punctuation left out),
                             token_index, token, special, ignored, surprisal_bits, model
  --delimiter                comma, semicolon or tab (default: detected from the header line);
                             UTF-8 with or without a BOM, RFC 4180 quotes, up to ${STIMULUS_FILE_MAX_BYTES / 1024 / 1024} MiB
  --format csv|tsv           default csv (tsv when --output ends in .tsv)
  --output <file>            default stdout; the provenance lines go to stderr
Models:
  --model a,b,...            several models, comma-separated: the table is long, one row per word
                             and model (the model column names it); the other model options apply
                             to each
Columns added after the file's own: word_index (1-based in its text or target), word, tokens,
token_count, surprisal_bits, surprisal_bow_bits (beginning-of-word corrected, as surprisals
--words --bow), entropy_bits (of the distribution that predicts the word's first token; NA
for a model behind an endpoint), model. A name the file already has gets '_lm' appended. NA marks
a value that does not exist.
${CONVENTION_HELP}`;

const OPTIONS = {
	...MODEL_OPTIONS,
	text: { type: 'string' },
	by: { type: 'string' },
	word: { type: 'string' },
	'word-n': { type: 'string' },
	context: { type: 'string' },
	target: { type: 'string' },
	delimiter: { type: 'string' },
	punctuation: { type: 'string' },
	'ignore-regex': { type: 'string' },
	'context-words': { type: 'string' },
	'stride-words': { type: 'string' },
	format: { type: 'string' },
	output: { type: 'string' },
	sep: { type: 'string' },
	tokens: { type: 'boolean' },
	'top-k': { type: 'string' },
} as const;

type Values = Partial<Record<keyof typeof OPTIONS, string | boolean>>;

const DELIMITERS: Readonly<Record<string, StimulusDelimiter>> = {
	comma: ',',
	',': ',',
	semicolon: ';',
	';': ';',
	tab: '\t',
	'\t': '\t',
};

function text(values: Values, key: keyof typeof OPTIONS): string | undefined {
	const value = values[key];
	return typeof value === 'string' ? value : undefined;
}

/** The layout the flags name. @throws CliInputError for none, several, or a missing partner. */
export function readLayout(values: Values): StimulusLayout {
	const textColumn = text(values, 'text');
	const wordColumn = text(values, 'word');
	const contextColumn = text(values, 'context');
	const targetColumn = text(values, 'target');
	const by = text(values, 'by');
	const wordN = text(values, 'word-n');
	const chosen = [
		textColumn !== undefined,
		wordColumn !== undefined,
		contextColumn !== undefined || targetColumn !== undefined,
	].filter(Boolean).length;
	if (chosen !== 1) {
		throw new CliInputError(
			`name one layout: --text, --word (with --by), or --context with --target.\n${STIMULI_USAGE}`,
		);
	}
	if (wordN !== undefined && wordColumn === undefined) {
		throw new CliInputError(`--word-n orders the words of --word; add --word.\n${STIMULI_USAGE}`);
	}
	if (textColumn !== undefined) {
		return { kind: 'text', textColumn, ...(by !== undefined ? { groupColumn: by } : {}) };
	}
	if (wordColumn !== undefined) {
		if (by === undefined) {
			throw new CliInputError(
				`--word needs --by: the column that groups the words into sentences or passages.\n${STIMULI_USAGE}`,
			);
		}
		return {
			kind: 'word',
			wordColumn,
			groupColumn: by,
			...(wordN !== undefined ? { orderColumn: wordN } : {}),
		};
	}
	if (contextColumn === undefined || targetColumn === undefined) {
		throw new CliInputError(`--context and --target go together.\n${STIMULI_USAGE}`);
	}
	if (by !== undefined) {
		throw new CliInputError(
			`--by groups --text or --word rows, not --context/--target.\n${STIMULI_USAGE}`,
		);
	}
	return { kind: 'context-target', contextColumn, targetColumn };
}

function wholeNumber(values: Values, key: 'context-words' | 'stride-words'): number | undefined {
	const value = text(values, key);
	if (value === undefined) return undefined;
	const number = Number(value);
	if (!Number.isInteger(number) || number < 1) {
		throw new CliInputError(
			`--${key} must be a whole number ≥ 1 (got '${value}').\n${STIMULI_USAGE}`,
		);
	}
	return number;
}

function readWindow(values: Values): StimulusWindowSize | undefined {
	const contextWords = wholeNumber(values, 'context-words');
	const strideWords = wholeNumber(values, 'stride-words');
	if (contextWords === undefined) {
		if (strideWords !== undefined) {
			throw new CliInputError(`--stride-words needs --context-words.\n${STIMULI_USAGE}`);
		}
		return undefined;
	}
	const stride = strideWords ?? Math.max(1, Math.floor(contextWords / 2));
	if (stride > contextWords) {
		throw new CliInputError(
			`--stride-words (${stride}) cannot be over --context-words (${contextWords}).\n${STIMULI_USAGE}`,
		);
	}
	return { contextWords, strideWords: stride };
}

function choice<T extends string>(
	values: Values,
	key: 'punctuation' | 'format',
	choices: readonly T[],
	fallback: T,
): T {
	const value = text(values, key);
	if (value === undefined) return fallback;
	if (!(choices as readonly string[]).includes(value)) {
		throw new CliInputError(
			`--${key} must be one of ${choices.join(', ')} (got '${value}').\n${STIMULI_USAGE}`,
		);
	}
	return value as T;
}

/** The file's bytes, the size checked before reading. */
async function readStimulusBytes(path: string): Promise<Uint8Array> {
	let size: number;
	try {
		const info = await stat(path);
		if (!info.isFile()) throw new CliInputError(`${path}: cannot read file (not a file)`);
		size = info.size;
	} catch (error) {
		if (error instanceof CliInputError) throw error;
		const code = (error as NodeJS.ErrnoException).code;
		throw new CliInputError(
			`${path}: cannot read file (${code === 'ENOENT' ? 'no such file' : (code ?? 'unknown error')})`,
		);
	}
	checkStimulusFileSize(size, path);
	return new Uint8Array(await readFile(path));
}

export const stimuliCommand: CliCommand = async (args, io) => {
	const { positionals, values } = parseCommandArgs(args, STIMULI_USAGE, OPTIONS, STIMULI_HELP);
	const [path] = positionals;
	if (path === undefined || positionals.length > 1) {
		throw new CliInputError(`expected one stimuli file.\n${STIMULI_USAGE}`);
	}
	const layout = readLayout(values);
	const delimiterText = text(values, 'delimiter');
	const delimiter = delimiterText === undefined ? undefined : DELIMITERS[delimiterText];
	if (delimiterText !== undefined && delimiter === undefined) {
		throw new CliInputError(
			`--delimiter must be comma, semicolon or tab (got '${delimiterText}').\n${STIMULI_USAGE}`,
		);
	}
	const punctuation = choice<PunctuationRule>(values, 'punctuation', PUNCTUATION_RULES, 'keep');
	if (layout.kind === 'word' && punctuation !== 'keep') {
		throw new CliInputError(
			`--punctuation applies to texts; with --word the file's words are the words. Use --ignore-regex to leave tokens out.\n${STIMULI_USAGE}`,
		);
	}
	const output = text(values, 'output');
	const format = choice<StimulusOutputFormat>(
		values,
		'format',
		['csv', 'tsv'],
		output?.toLowerCase().endsWith('.tsv') ? 'tsv' : 'csv',
	);
	const ignoreRegex = text(values, 'ignore-regex');
	let ignoreToken: ((token: string) => boolean) | undefined;
	if (ignoreRegex !== undefined) {
		const posix = /\[:[a-z]+:\]/u.exec(ignoreRegex);
		if (posix !== null) {
			throw new CliInputError(
				`--ignore-regex: '${posix[0]}' is a POSIX class (R's syntax), which JavaScript reads as a set of characters; write \\p{P} for punctuation, \\p{L} for letters, \\d for digits.\n${STIMULI_USAGE}`,
			);
		}
		try {
			const regex = compileLinearRegex(ignoreRegex, 'u');
			ignoreToken = (token) => regex.test(token);
		} catch (error) {
			if (error instanceof RegexRefused) {
				throw new CliInputError(`--ignore-regex: ${error.message}.\n${STIMULI_USAGE}`);
			}
			throw error;
		}
	}
	const window = readWindow(values);
	if (window !== undefined && layout.kind === 'context-target') {
		throw new CliInputError(
			`--context-words windows long passages of --text or --word; a context + target row is scored whole.\n${STIMULI_USAGE}`,
		);
	}
	const topKText = text(values, 'top-k');
	const topK = topKText === undefined ? undefined : Number(topKText);
	if (
		topK !== undefined &&
		!(
			Number.isInteger(topK) &&
			topK >= 1 &&
			topK <= STIMULI_MAX_TOP_NEXT &&
			/^\d+$/u.test(topKText ?? '')
		)
	) {
		throw new CliInputError(
			`--top-k must be a whole number from 1 to ${STIMULI_MAX_TOP_NEXT} (got '${topKText}').\n${STIMULI_USAGE}`,
		);
	}
	if (topK !== undefined && values.tokens === true) {
		throw new CliInputError(
			`--top-k gives a column of the word table, not of --tokens.\n${STIMULI_USAGE}`,
		);
	}
	const requests = [];
	for (const model of (text(values, 'model') ?? DEFAULT_MODEL_ID).split(',')) {
		requests.push(await readModelRequest({ ...values, model: model.trim() }, STIMULI_USAGE));
	}
	if (topK !== undefined && requests.some((request) => request.endpoint !== undefined)) {
		throw new CliInputError(
			`--top-k needs models that run here: an endpoint's prompt logprobs give no next-token ranking.\n${STIMULI_USAGE}`,
		);
	}

	const table = readStimulusTable(decodeStimulusBytes(await readStimulusBytes(path), path), {
		source: path,
		...(delimiter !== undefined ? { delimiter } : {}),
	});
	const sep = text(values, 'sep') ?? ' ';
	const passages = buildStimulusPassages(table, layout, punctuation, sep);
	const windows = planStimulusWindows(passages, window);
	const rows: string[][] = [];
	const models: StimulusModelProvenance[] = [];
	let entropy = false;
	let wordCount = 0;
	for (const request of requests) {
		const bow = request.endpoint === undefined;
		let scored;
		try {
			scored = await scoreTextsInNode(
				request,
				windows.map((w) => w.text),
				io,
				{ wordBoundaries: bow, ...(topK !== undefined ? { topLogprobs: topK } : {}) },
			);
		} catch (error) {
			if (error instanceof SequenceLengthError) {
				const w = windows[error.textIndex];
				const firstRow =
					table.rows[passages[w?.passageIndex ?? 0]?.words[w?.firstWord ?? 0]?.rowIndex ?? 0];
				throw new CliInputError(
					`${path}:${firstRow?.line ?? 1}: the text starting here has ${error.tokenCount} tokens, ` +
						`more than the model's ${error.maxPositions} positions. Score it in sliding windows ` +
						`(--context-words <n>, fewer words than that), or split the passage.`,
				);
			}
			throw error;
		}
		const byIndex = new Map(
			scored.texts.map((t) => [
				t.index,
				topK === undefined ? t.tokens : withTopNext(t.tokens, t.topLogprobs ?? [], topK),
			]),
		);
		const windowTokens = windows.map((_, index) => byIndex.get(index) ?? []);
		const words = collectStimulusWords(
			passages,
			windows,
			windowTokens,
			ignoreToken !== undefined ? { ignoreToken } : {},
		);
		const model = request.endpoint ? `openai/${request.endpoint.model}` : request.spec.id;
		const [header, ...body] =
			values.tokens === true
				? stimulusTokenTableRows(
						table,
						passages,
						windows,
						windowTokens,
						model,
						ignoreToken !== undefined ? { ignoreToken } : {},
					)
				: stimulusTableRows(table, words, model, topK !== undefined);
		if (rows.length === 0 && header !== undefined) rows.push(header);
		rows.push(...body);
		models.push({
			model,
			convention: scored.convention.convention,
			conventionReason:
				scored.convention.from === 'option'
					? '--convention'
					: `the model's default: ${scored.convention.modelDefault.reason}`,
		});
		entropy ||= words.some((word) => word.entropyBits !== null);
		wordCount = words.length;
	}
	const provenance = describeStimulusProvenance({
		source: path,
		delimiter: delimiterName(table.delimiter),
		layout,
		punctuation,
		...(ignoreRegex !== undefined ? { ignoreRegex } : {}),
		sep,
		tokenRows: values.tokens === true,
		models,
		...(window !== undefined ? { window } : {}),
		bow: requests.every((request) => request.endpoint === undefined),
		entropy,
		...(topK !== undefined ? { topNext: topK } : {}),
		passages: passages.length,
		words: wordCount,
	});
	for (const line of provenance) io.stderr(`provenance: ${line}\n`);
	const written = writeStimulusTable(rows, format);
	if (output === undefined) io.stdout(written);
	else {
		await writeFileNoFollow(output, written);
		io.stderr(`wrote ${rows.length - 1} rows to ${output} (${format})\n`);
	}
	return EXIT_OK;
};
