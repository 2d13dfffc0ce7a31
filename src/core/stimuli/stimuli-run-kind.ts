/**
 * The Stimuli family as a kind of run: word-by-word surprisal tables for a lab's stimuli file. Its
 * record, sealed bundle (word rows), share link (the stimulus text, the choices, the model and a
 * fingerprint of the word surprisals, so a re-run can say "reproduced N/N words"), resume rule and
 * storage form, built from the shared pieces only. Pure.
 */
import * as v from 'valibot';
import { sha256Hex } from '../hash/sha256';
import { describeModelSpec, type TextModelSpec } from '../model/model-spec';
import { unfinishedPlan, type ResumeRule } from '../run/resume-plan';
import type { RunKindDefinition, StoredRunItem } from '../run/run-kind';
import type { RunRecordBase } from '../run/run-types';
import {
	RunStatusSchema,
	TextModelSpecSchema,
	TimeMsSchema,
	readRunBundleOfKind,
	writeRunBundleText,
	type RunBundleFormat,
} from '../run/task-run-json';
import { ShareLinkError } from '../errors';
import { encodeShareFragment, readSharePayload, type ShareRoute } from '../share/share-codec';
import { STIMULI_GLOSSARY } from './stimuli-glossary';
import { PUNCTUATION_RULES, type PunctuationRule } from './stimulus-passages';
import { STIMULUS_FILE_MAX_BYTES } from './read-stimulus-table';
import type { StimulusWindowSize } from './stimulus-windows';
import type { StimulusNextToken } from './stimulus-word-surprisals';

/** A word item's key: the model's index times this, plus the word's place in the run. */
export const STIMULI_WORD_KEY_STRIDE = 1_000_000_000;

/**
 * Stored words of one model, many to a row: a scoring request's words, or an imported run's in
 * pieces of STIMULI_WORDS_PER_IMPORTED_ITEM. IndexedDB's cost is per row: in Chromium, 2,000
 * one-word rows took 120–200 ms to store, one row of the same 2,000 words 4–10 ms. Older runs
 * stored a row per word (`stimuli-word`, keyed model × STIMULI_WORD_KEY_STRIDE + place); both
 * are read.
 */
export interface StimuliWordsItem extends StoredRunItem {
	readonly kind: 'stimuli-words';
	/** `words/<model>/<place of the first word>`. */
	readonly key: string;
	readonly words: readonly StimuliWordRow[];
}

/** Words to a row when a run is imported. */
export const STIMULI_WORDS_PER_IMPORTED_ITEM = 2000;

/** The key of the words of model `model` from run-wide place `first` on. */
export function stimuliWordsKey(model: number, first: number): string {
	return `words/${model}/${first}`;
}

/** Model and place of a key of stimuliWordsKey's form; null for any other. */
function wordsKeyPlace(key: unknown): { model: number; first: number } | null {
	const match = typeof key === 'string' ? /^words\/(\d{1,15})\/(\d{1,15})$/u.exec(key) : null;
	return match ? { model: Number(match[1]), first: Number(match[2]) } : null;
}

/**
 * The words of a run's stored items, model after model, each model's in run order: one-word rows
 * (older runs) and many-word rows alike. Items of other kinds, and rows whose key or words are
 * not of their form, are left out.
 */
export function storedStimuliWords(items: readonly StoredRunItem[]): StimuliWordRow[] {
	const placed: { model: number; place: number; word: StimuliWordRow }[] = [];
	for (const item of items) {
		if (item.kind === 'stimuli-word' && typeof item.key === 'number') {
			const { kind: _kind, key, ...word } = item;
			placed.push({
				model: Math.floor(key / STIMULI_WORD_KEY_STRIDE),
				place: key % STIMULI_WORD_KEY_STRIDE,
				word: word as unknown as StimuliWordRow,
			});
		} else if (item.kind === 'stimuli-words' && Array.isArray(item.words)) {
			const at = wordsKeyPlace(item.key);
			if (!at) continue;
			const words = item.words as readonly StimuliWordRow[];
			words.forEach((word, index) => {
				placed.push({ model: at.model, place: at.first + index, word });
			});
		}
	}
	placed.sort((a, b) => a.model - b.model || a.place - b.place);
	return placed.map(({ word }) => word);
}

/** The most top next tokens a run asks for per word (the engine's top-k limit, vLLM's default). */
export const STIMULI_MAX_TOP_NEXT = 20;

/** The longest stimulus text a link carries; a larger input is shared by its bundle. */
export const STIMULI_SHARE_MAX_TEXT_CHARS = 16 * 1024;

export type StimuliLayoutName = 'text-per-row' | 'word-per-row' | 'context-target';

/** The user's choices: the layout, its columns and how words are split. */
export interface StimuliChoices {
	readonly layout: StimuliLayoutName;
	/** The text, word or target column. */
	readonly textColumn: string;
	/** The column grouping rows into passages, or null. */
	readonly groupColumn: string | null;
	/** The context column (context + target layout), or null. */
	readonly contextColumn: string | null;
	readonly punctuation: PunctuationRule;
	/** The `;`, `,` or tab the file was read with. */
	readonly delimiter: string;
	/** The column giving each word's place in its group (one word per row), or null: row order. */
	readonly orderColumn?: string | null;
	/** Sliding windows of words for long passages, or null: each text scored whole. */
	readonly window?: StimulusWindowSize | null;
	/** How many most likely next tokens each word gets (1–20), or null/absent: none. */
	readonly topNext?: number | null;
}

/** One scored word of the table (long form: one row per word and model). */
export interface StimuliWordRow {
	/** The input row the word came from (0-based, after the header). */
	readonly row: number;
	/** The word's index in its passage (0-based). */
	readonly wordIndex: number;
	readonly word: string;
	/** The word's tokens as the vocabulary spells them (`Ġdog`), ignored ones left out. */
	readonly tokens?: readonly string[];
	/** NaN where the word has no token of its own (NA in the table; null in a bundle). */
	readonly surprisalBits: number;
	/** Beginning-of-word corrected surprisal; null where not computed. */
	readonly bowSurprisalBits: number | null;
	/** Next-word entropy at the word's first token; null where not computed. */
	readonly entropyBits: number | null;
	/** The most likely next tokens at the word's first token, when the run asked for them. */
	readonly topNext?: readonly StimulusNextToken[];
	/** Index into the run's `models`. */
	readonly model: number;
}

export interface StimuliRunRecord extends RunRecordBase<'stimuli'> {
	readonly fileName: string;
	readonly fileSha256: string;
	readonly choices: StimuliChoices;
	readonly models: readonly TextModelSpec[];
	/** Words to score, over every model. */
	readonly wordsTotal: number;
	readonly wordsDone: number;
}

export interface StimuliBundle {
	readonly run: Omit<StimuliRunRecord, 'id' | 'kind'>;
	/** The stimulus file's text: the table's input columns are rebuilt from it. */
	readonly input?: string;
	readonly words: readonly StimuliWordRow[];
}

export interface StimuliPayload {
	/** The stimulus file's text (capped at STIMULI_SHARE_MAX_TEXT_CHARS). */
	readonly text: string;
	readonly choices: StimuliChoices;
	readonly model: TextModelSpec;
	/** stimuliWordsFingerprint of the word rows the sharer got. */
	readonly wordsSha256: string;
	readonly wordCount: number;
}

const STIMULI_BUNDLE: RunBundleFormat = {
	kind: 'stimuli',
	what: 'a stimuli run bundle',
	resultsPaths: [['words']],
};

const STIMULI_SHARE: ShareRoute = {
	kind: 'stimuli',
	route: '/stimuli/share/',
	what: 'a stimuli run',
	oldestVersion: 2,
};

export const STIMULI_RESUME: ResumeRule<StimuliRunRecord, 'stimuli'> = {
	kind: 'stimuli',
	unit: 'word',
	noun: 'words',
	resumePoint: 'the last scored word',
	resumePlan: ({ status, wordsDone, wordsTotal }) =>
		unfinishedPlan(status, wordsDone, wordsTotal, wordsDone < wordsTotal),
};

/**
 * A fingerprint of word surprisals, rounded to 1e-6 bits so a re-run on another backend whose
 * float sums differ in the last bits still matches: SHA-256 of `word\tbits` lines.
 */
export function stimuliWordsFingerprint(
	words: readonly Pick<StimuliWordRow, 'word' | 'surprisalBits'>[],
): string {
	return sha256Hex(words.map((w) => `${w.word}\t${w.surprisalBits.toFixed(6)}`).join('\n'));
}

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const Bits = v.pipe(v.number(), v.finite());
const Sha256Schema = v.pipe(
	v.string(),
	v.regex(/^[0-9a-f]{64}$/u, 'Expected a SHA-256 hex digest'),
);
const ColumnSchema = v.pipe(v.string(), v.maxLength(1000));

const ChoicesSchema = v.object({
	layout: v.picklist(['text-per-row', 'word-per-row', 'context-target']),
	textColumn: ColumnSchema,
	groupColumn: v.nullable(ColumnSchema),
	contextColumn: v.nullable(ColumnSchema),
	punctuation: v.picklist(PUNCTUATION_RULES),
	delimiter: v.picklist([',', ';', '\t']),
	orderColumn: v.optional(v.nullable(ColumnSchema)),
	window: v.optional(
		v.nullable(
			v.object({
				contextWords: v.pipe(Count, v.minValue(1)),
				strideWords: v.pipe(Count, v.minValue(1)),
			}),
		),
	),
	topNext: v.optional(v.nullable(v.pipe(Count, v.minValue(1), v.maxValue(STIMULI_MAX_TOP_NEXT)))),
});

const WordRowSchema = v.object({
	row: Count,
	wordIndex: Count,
	word: v.string(),
	tokens: v.optional(v.array(v.string())),
	// JSON writes NaN (a word without a token of its own) as null.
	surprisalBits: v.pipe(
		v.nullable(Bits),
		v.transform((bits) => bits ?? Number.NaN),
	),
	bowSurprisalBits: v.nullable(Bits),
	entropyBits: v.nullable(Bits),
	topNext: v.optional(
		v.pipe(
			v.array(
				v.object({
					text: v.pipe(v.string(), v.maxLength(1000)),
					probability: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
				}),
			),
			v.maxLength(STIMULI_MAX_TOP_NEXT),
		),
	),
	model: Count,
});

const RunEntries = {
	fileName: v.pipe(v.string(), v.maxLength(1000)),
	fileSha256: Sha256Schema,
	choices: ChoicesSchema,
	models: v.pipe(v.array(TextModelSpecSchema), v.minLength(1)),
	wordsTotal: Count,
	wordsDone: Count,
};

const BundleSchema = v.pipe(
	v.object({
		format: v.string(),
		kind: v.literal('stimuli'),
		run: v.object({
			title: v.string(),
			status: RunStatusSchema,
			createdAt: TimeMsSchema,
			updatedAt: TimeMsSchema,
			...RunEntries,
		}),
		input: v.optional(v.pipe(v.string(), v.maxLength(STIMULUS_FILE_MAX_BYTES))),
		words: v.array(WordRowSchema),
	}),
	// A word's model is an index into the run's models.
	v.rawCheck(({ dataset, addIssue }) => {
		if (!dataset.typed) return;
		const { words, run } = dataset.value;
		const at = words.findIndex((word) => word.model >= run.models.length);
		const word = words[at];
		if (!word) return;
		addIssue({
			message: `a word of model ${word.model}, and the run has ${run.models.length} (counted from 0)`,
			path: [
				{ type: 'object', origin: 'value', input: dataset.value, key: 'words', value: words },
				{ type: 'array', origin: 'value', input: words, key: at, value: word },
				{ type: 'object', origin: 'value', input: word, key: 'model', value: word.model },
			],
		});
	}),
);

const PayloadSchema = v.object({
	kind: v.literal('stimuli'),
	text: v.pipe(v.string(), v.maxLength(STIMULI_SHARE_MAX_TEXT_CHARS)),
	choices: ChoicesSchema,
	model: TextModelSpecSchema,
	wordsSha256: Sha256Schema,
	wordCount: Count,
});

function tooLargeText(chars: number): ShareLinkError {
	return new ShareLinkError(
		'too-large',
		`This run is too large for a link: its stimulus text is ${chars.toLocaleString('en-US')} characters, more than the ${STIMULI_SHARE_MAX_TEXT_CHARS.toLocaleString('en-US')} a link may carry. Download the run bundle and share the file instead.`,
	);
}

export const STIMULI_RUN_KIND: RunKindDefinition<
	StimuliRunRecord,
	StimuliBundle,
	StimuliPayload,
	(typeof STIMULI_GLOSSARY)[number]['id']
> = {
	kind: 'stimuli',
	label: 'Stimuli',
	page: { name: 'Stimuli', route: '#/stimuli' },
	storedEntries: RunEntries,
	resume: STIMULI_RESUME,
	models: (run) => run.models,
	progress: (run) => ({ done: run.wordsDone, total: run.wordsTotal }),
	openRoute: (runId) => `#/stimuli/run/${runId}`,
	bundle: {
		...STIMULI_BUNDLE,
		read: (text) => readRunBundleOfKind<StimuliBundle>(text, STIMULI_BUNDLE, BundleSchema),
		write: (bundle) => writeRunBundleText(STIMULI_BUNDLE, bundle),
		summarize: ({ run }) =>
			`${run.fileName} · ${run.models.map(describeModelSpec).join(', ')} · ${run.wordsDone} of ${run.wordsTotal} words · ${run.status}`,
	},
	share: {
		...STIMULI_SHARE,
		encode: (payload) => {
			if (payload.text.length > STIMULI_SHARE_MAX_TEXT_CHARS) {
				throw tooLargeText(payload.text.length);
			}
			const encoded = encodeShareFragment(STIMULI_SHARE, payload);
			if (!encoded.ok) throw encoded.error;
			return encoded.fragment.slice(STIMULI_SHARE.route.length);
		},
		decode: (data) => {
			const { kind: _kind, ...payload } = readSharePayload(
				STIMULI_SHARE,
				data,
				PayloadSchema,
			) as StimuliPayload & { kind: 'stimuli' };
			return payload;
		},
	},
	toStored: ({ run, input, words }) => {
		// As the page stores them: each model's words in run order, many to a row.
		const byModel = new Map<number, StimuliWordRow[]>();
		for (const word of words) {
			const own = byModel.get(word.model);
			if (own) own.push(word);
			else byModel.set(word.model, [word]);
		}
		const items: StimuliWordsItem[] = [];
		for (const [model, own] of [...byModel].sort(([a], [b]) => a - b)) {
			for (let first = 0; first < own.length; first += STIMULI_WORDS_PER_IMPORTED_ITEM) {
				items.push({
					kind: 'stimuli-words',
					key: stimuliWordsKey(model, first),
					words: own.slice(first, first + STIMULI_WORDS_PER_IMPORTED_ITEM),
				});
			}
		}
		return {
			run: { ...run, kind: 'stimuli' },
			items: [
				...(input === undefined ? [] : [{ kind: 'stimuli-input', key: 'input', text: input }]),
				...items,
			],
		};
	},
	fromStored: ({ id: _id, kind: _kind, ...run }, items) => {
		const input = items.find((item) => item.kind === 'stimuli-input')?.text;
		return {
			run,
			...(typeof input === 'string' ? { input } : {}),
			words: storedStimuliWords(items),
		};
	},
	glossary: STIMULI_GLOSSARY,
};
