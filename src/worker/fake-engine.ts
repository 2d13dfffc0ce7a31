/**
 * A deterministic stand-in for a language model, for UI and protocol tests: word/punctuation
 * tokens with exact offsets, surprisal from the token's characters. Never loads a real model.
 */
import type { SurprisalConvention } from '../core/model/model-spec';
import { renderChatAsText } from '../core/model/render-chat-as-text';
import { seededRandom } from '../core/model/sample-token';
import { findStopIndex, safeEmitLength } from '../core/model/stop-sequences';
import type { ScoredToken } from '../core/scoring/scored-token';
import {
	throwIfCancelled,
	type InferenceEngine,
	type GenerateTextOptions,
	type LoadModelOptions,
	type ScoreTextsOptions,
} from './engine';
import {
	CancelledError,
	ModelFileMissingError,
	ModelNotLoadedError,
	UnsupportedModelError,
} from './engine-errors';
import type {
	CachedModel,
	GenerateTextParams,
	GenerateTextResult,
	LoadModelParams,
	ModelInfo,
	ScoredText,
	ScoreTextsParams,
	ScoreTextsResult,
	TokenizeParams,
	TokenizeResult,
} from './protocol';

export interface FakeEngineOptions {
	/** Wait per batch, so tests can watch progress and cancel (default 0). */
	readonly batchDelayMs?: number;
	/** Wait in loadModel (default 0). */
	readonly loadDelayMs?: number;
	/** Sentences per batch when the request names no `maxBatchSize` (default 8). */
	readonly defaultBatchSize?: number;
}

export const FAKE_BOS = '<s>';
export const FAKE_EOS = '</s>';

/** Model ids that make the fake fail like a real engine would, for error-path UI tests. */
export const FAKE_FAILING_MODEL_IDS = {
	missingFile: 'fake-missing-file',
	notCausal: 'fake-not-causal',
} as const;

/** Words (letters/digits/apostrophes), single other characters, each with its leading space;
 * trailing whitespace is a token of its own. The matches always reassemble the text. */
const FAKE_TOKEN_PATTERN = /\s*(?:[\p{L}\p{N}']+|[^\s\p{L}\p{N}'])|\s+$/gu;

/** Deterministic surprisal in [1, 16) bits from the token's characters (FNV-1a hash). */
export function fakeSurprisalBits(token: string): number {
	let hash = 0x811c9dc5;
	for (let i = 0; i < token.length; i++) {
		hash ^= token.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return 1 + (hash % 1500) / 100;
}

/** Deterministic boundary surprisal in [0.1, 3.1) bits after the token (−log₂ P(the next token
 * starts a word)), from the token's characters: what the fake gives with `wordBoundaries`. */
export function fakeBoundarySurprisalBits(token: string): number {
	return 0.1 + (fakeSurprisalBits(`${token}|boundary`) - 1) / 5;
}

/** Tokens of `text` under `convention`, surprisal included (the first unconditioned token is 0);
 * with `wordBoundaries` each also gets {@link fakeBoundarySurprisalBits}. */
export function scoreFakeText(
	text: string,
	convention: SurprisalConvention,
	wordBoundaries = false,
): ScoredToken[] {
	const tokens = scoreFakeTokens(text, convention);
	return wordBoundaries
		? tokens.map((t) => ({ ...t, boundarySurprisalBits: fakeBoundarySurprisalBits(t.token) }))
		: tokens;
}

function scoreFakeTokens(text: string, convention: SurprisalConvention): ScoredToken[] {
	const tokens: ScoredToken[] = [];
	if (convention !== 'reference') {
		tokens.push({ token: FAKE_BOS, surprisalBits: 0, start: 0, end: 0, special: true });
	}
	for (const match of text.matchAll(FAKE_TOKEN_PATTERN)) {
		const start = match.index;
		const token = match[0];
		const surprisalBits = tokens.length === 0 ? 0 : fakeSurprisalBits(token);
		tokens.push({ token, surprisalBits, start, end: start + token.length });
	}
	if (convention === 'bos+eos') {
		tokens.push({
			token: FAKE_EOS,
			surprisalBits: fakeSurprisalBits(FAKE_EOS),
			start: text.length,
			end: text.length,
			special: true,
		});
	}
	return tokens;
}

/** Words the fake generates from; a greedy completion has {@link FAKE_GREEDY_TOKENS} of them. */
const FAKE_WORDS = ['the', 'model', 'says', 'hello', 'to', 'a', 'quiet', 'room', 'and', 'then'];
export const FAKE_GREEDY_TOKENS = 8;

/** The fake's completion tokens for a prompt: `FAKE_GREEDY_TOKENS` words then EOS when greedy
 * (picked by the prompt's hash); seeded random words (and length) when sampling. */
export function fakeCompletionTokens(
	promptText: string,
	temperature: number,
	seed: number,
): string[] {
	const start = Math.floor(fakeSurprisalBits(promptText) * 100);
	if (temperature === 0) {
		return Array.from(
			{ length: FAKE_GREEDY_TOKENS },
			(_, i) => ` ${FAKE_WORDS[(start + i) % FAKE_WORDS.length]}`,
		);
	}
	const random = seededRandom(seed + start);
	const length = 1 + Math.floor(random() * 2 * FAKE_GREEDY_TOKENS);
	return Array.from({ length }, () => ` ${FAKE_WORDS[Math.floor(random() * FAKE_WORDS.length)]}`);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
	if (ms <= 0) return Promise.resolve();
	return new Promise((resolve, reject) => {
		const onAbort = (): void => {
			clearTimeout(timer);
			reject(new CancelledError('The request was cancelled.'));
		};
		const timer = setTimeout(() => {
			signal?.removeEventListener('abort', onAbort);
			resolve();
		}, ms);
		signal?.addEventListener('abort', onAbort, { once: true });
	});
}

export class FakeEngine implements InferenceEngine {
	readonly #options: FakeEngineOptions;
	readonly #models = new Map<string, ModelInfo>();
	/** Loads of each key not yet disposed (as the real engine: released when none is left). */
	readonly #holders = new Map<string, number>();

	constructor(options: FakeEngineOptions = {}) {
		this.#options = options;
	}

	async loadModel(params: LoadModelParams, options: LoadModelOptions = {}): Promise<ModelInfo> {
		const { spec } = params;
		throwIfCancelled(options.signal);
		if (spec.id === FAKE_FAILING_MODEL_IDS.missingFile) {
			throw new ModelFileMissingError(`${spec.id}: onnx/model.onnx is missing (fake engine).`);
		}
		if (spec.id === FAKE_FAILING_MODEL_IDS.notCausal) {
			throw new UnsupportedModelError(`${spec.id} is not a causal language model (fake engine).`);
		}
		const started = Date.now();
		const file = 'onnx/model.onnx';
		const total = 1000;
		options.onProgress?.({ status: 'initiate', name: spec.id, file });
		await sleep((this.#options.loadDelayMs ?? 0) / 2, options.signal);
		options.onProgress?.({
			status: 'progress',
			name: spec.id,
			file,
			progress: 50,
			loaded: 500,
			total,
		});
		await sleep((this.#options.loadDelayMs ?? 0) / 2, options.signal);
		options.onProgress?.({
			status: 'done',
			name: spec.id,
			file,
			progress: 100,
			loaded: total,
			total,
		});
		throwIfCancelled(options.signal);
		const modelKey = `fake:${spec.source}:${spec.id}:${spec.dtype}:${spec.backend}`;
		const info: ModelInfo = {
			modelKey,
			spec,
			modelType: 'fake',
			vocabSize: 1500,
			maxPositions: 1024,
			tokenizerKind: 'generic',
			batchInvariant: true,
			loadMs: Date.now() - started,
		};
		this.#models.set(modelKey, info);
		this.#holders.set(modelKey, (this.#holders.get(modelKey) ?? 0) + 1);
		return info;
	}

	async scoreTexts(
		params: ScoreTextsParams,
		options: ScoreTextsOptions = {},
	): Promise<ScoreTextsResult> {
		this.#requireModel(params.modelKey);
		const started = Date.now();
		const batchSize = Math.max(1, params.maxBatchSize ?? this.#options.defaultBatchSize ?? 8);
		const scored: ScoredText[] = [];
		let tokenCount = 0;
		for (let first = 0; first < params.texts.length; first += batchSize) {
			throwIfCancelled(options.signal);
			await sleep(this.#options.batchDelayMs ?? 0, options.signal);
			const batch: ScoredText[] = [];
			const end = Math.min(first + batchSize, params.texts.length);
			for (let index = first; index < end; index++) {
				const tokens = scoreFakeText(
					params.texts[index] ?? '',
					params.convention,
					params.wordBoundaries === true,
				);
				tokenCount += tokens.length;
				batch.push({ index, tokens });
			}
			scored.push(...batch);
			const seconds = Math.max(Date.now() - started, 1) / 1000;
			options.onProgress?.({
				done: scored.length,
				total: params.texts.length,
				tokensPerSecond: tokenCount / seconds,
				texts: batch,
			});
		}
		throwIfCancelled(options.signal);
		return { texts: scored, tokenCount, elapsedMs: Date.now() - started };
	}

	async tokenize(params: TokenizeParams): Promise<TokenizeResult> {
		this.#requireModel(params.modelKey);
		const tokens = scoreFakeText(params.text, params.convention).map((t) => ({
			...t,
			surprisalBits: Number.NaN,
		}));
		return { tokens };
	}

	/** A deterministic generation: see {@link fakeCompletionTokens}; one `batchDelayMs` per token. */
	async generate(
		params: GenerateTextParams,
		options: GenerateTextOptions = {},
	): Promise<GenerateTextResult> {
		this.#requireModel(params.modelKey);
		const started = Date.now();
		const { prompt } = params;
		const promptText =
			prompt.kind === 'text'
				? prompt.text
				: renderChatAsText(prompt.messages, { forCompletion: true });
		const temperature = params.params.temperature ?? 1;
		const planned = fakeCompletionTokens(promptText, temperature, params.params.seed ?? 0);
		const maxTokens = params.params.max_tokens ?? Number.POSITIVE_INFINITY;
		const stops = params.params.stop ?? [];
		let text = '';
		let emitted = 0;
		let count = 0;
		let finishReason: GenerateTextResult['finishReason'] = 'stop';
		for (const token of planned) {
			if (count >= maxTokens) {
				finishReason = 'length';
				break;
			}
			throwIfCancelled(options.signal);
			await sleep(this.#options.batchDelayMs ?? 0, options.signal);
			count++;
			text += token;
			const stopAt = findStopIndex(text, stops);
			const end = stopAt >= 0 ? stopAt : safeEmitLength(text, stops);
			if (end > emitted) options.onToken?.(text.slice(emitted, end));
			emitted = Math.max(emitted, end);
			if (stopAt >= 0) {
				text = text.slice(0, stopAt);
				break;
			}
		}
		if (emitted < text.length) options.onToken?.(text.slice(emitted));
		throwIfCancelled(options.signal);
		return {
			completion: text,
			finishReason,
			usage: {
				promptTokens: scoreFakeText(promptText, 'reference').length,
				completionTokens: count,
			},
			elapsedMs: Date.now() - started,
		};
	}

	async disposeModel(modelKey: string): Promise<void> {
		const holders = (this.#holders.get(modelKey) ?? 0) - 1;
		if (holders > 0) {
			this.#holders.set(modelKey, holders);
			return;
		}
		this.#holders.delete(modelKey);
		this.#models.delete(modelKey);
	}

	async listCachedModels(): Promise<readonly CachedModel[]> {
		return [];
	}

	async deleteCachedModel(_id: string): Promise<{ readonly filesDeleted: number }> {
		return { filesDeleted: 0 };
	}

	#requireModel(modelKey: string): ModelInfo {
		const info = this.#models.get(modelKey);
		if (!info) throw new ModelNotLoadedError(`No model is loaded as '${modelKey}': load it first.`);
		return info;
	}
}
