/**
 * Scores texts with a loaded model: each text's model input under a convention, its token spans,
 * batches under the engine's limits, every position's surprisal (and boundary surprisal, top-k
 * next tokens) in bits, progress after every batch; in plain batches (plain-batch-scorer.ts) or
 * reusing shared prefixes (prefix-reuse-runner.ts).
 */
import type { SurprisalConvention } from '../core/model/model-spec';
import { MAX_TOP_LOG_PROBS } from '../core/onnx/append-log-prob-tail';
import type { ScoredToken } from '../core/scoring/scored-token';
import {
	assembleScoredTokens,
	planModelInput,
	type ModelInputPlan,
} from '../core/scoring/conventions';
import { exactBuckets, type BatchLimits } from '../core/scoring/plan-batches';
import { computeTokenOffsets, type TokenSpan } from '../core/scoring/token-offsets';
import { now, throwIfCancelled, type ScoreTextsOptions } from './engine';
import { UnsupportedModelError } from './engine-errors';
import type { ForwardPass } from './forward-pass';
import type { LoadedModel } from './loaded-model';
import {
	scorePlain,
	type ScoringRun,
	type SequenceExtras,
	type TokenTopIds,
} from './plain-batch-scorer';
import { prefixReuseUnavailableReason, scoreReusingPrefixes } from './prefix-reuse-runner';
import type {
	BackendFallback,
	PrefixReuseReport,
	ScoredText,
	ScoreTextsParams,
	ScoreTextsResult,
	TokenizeParams,
	TokenizeResult,
	TokenTopLogprobs,
} from './protocol';
import { decodeTextIds } from './decode-text-ids';
import type { TokenizerInternals } from './transformers-library';

/** The engine's batch budgets (TransformersEngineOptions). */
export interface ScoringBudgets {
	/** Upper bound on B × S (padded tokens) per forward pass. Default 2048. */
	readonly maxTokensPerBatch?: number;
	/** Upper bound on B × S × vocab × 4 bytes of logits inside the graph. Default 96 MiB. */
	readonly maxLogitsBytesPerBatch?: number;
	/** Sentences per batch when a request names no `maxBatchSize`. Default 64. */
	readonly defaultMaxBatchSize?: number;
}

/** A text ready for the model: its plan, every position's token string and the text spans. */
interface PreparedText {
	readonly text: string;
	readonly plan: ModelInputPlan;
	readonly tokens: readonly string[];
	readonly spans: readonly TokenSpan[];
}

/** A CPU/WASM forward pass costs about as much as this many extra positions (measured in Node,
 * gpt2-en-small: ~3 ms per pass, ~130 µs per position): batches are cut where padding and passes
 * cost least. */
const CPU_BATCH_OVERHEAD_POSITIONS = 24;
const PROBE_TEXT = 'The probe.';

function prepareText(
	model: LoadedModel,
	text: string,
	convention: SurprisalConvention,
): PreparedText {
	const tokenizer = model.tokenizer as unknown as TokenizerInternals;
	const textIds = tokenizer.encode(text, { add_special_tokens: false });
	const textTokens = textIds.map((id) => model.idToToken[id] ?? '');
	const spans = computeTokenOffsets({
		text,
		kind: model.facts.kind,
		tokens: textTokens,
		ids: textIds,
		addedTokens: model.facts.addedTokens,
		...(model.facts.normalization ? { normalization: model.facts.normalization } : {}),
		decode: (ids) => decodeTextIds(tokenizer, ids),
	});
	const plan = planModelInput(textIds, model.behaviour, convention);
	const tokens = plan.inputIds.map((id) => model.idToToken[id] ?? '');
	return { text, plan, tokens, spans };
}

/** Tokens and offsets of a text under a convention, without running the model (NaN bits). */
export function tokenizeText(model: LoadedModel, params: TokenizeParams): TokenizeResult {
	const p = prepareText(model, params.text, params.convention);
	const tokens: ScoredToken[] = assembleScoredTokens({
		text: p.text,
		plan: p.plan,
		tokens: p.tokens,
		textSpans: p.spans,
		surprisalsBits: new Float64Array(p.plan.inputIds.length).fill(Number.NaN),
	});
	return { tokens };
}

/** Throws when `k` is not 1…20 or `model`'s graph has no top-k outputs. */
function requireTopLogprobs(model: LoadedModel, k: number): void {
	if (!Number.isInteger(k) || k < 1 || k > MAX_TOP_LOG_PROBS)
		throw new RangeError(
			`topLogprobs must be an integer from 1 to ${MAX_TOP_LOG_PROBS}, got ${k}.`,
		);
	if (!model.hasTopLogProbs) {
		throw new UnsupportedModelError(
			`The model '${model.info.spec.id}' cannot give top log-probs: its scoring graph has no top-k output.`,
		);
	}
}

/** Throws UnsupportedModelError when `model` cannot give word-boundary surprisals. */
function requireWordBoundaries(model: LoadedModel): void {
	const what = `The model '${model.info.spec.id}' cannot give word-boundary probabilities`;
	const fix = 'score it without the beginning-of-word correction';
	if (!model.wordStarts.ok)
		throw new UnsupportedModelError(`${what}: ${model.wordStarts.reason}; ${fix}.`);
	if (!model.hasWordBoundaries || model.wordStarts.ids.length === 0) {
		throw new UnsupportedModelError(
			`${what}: ${model.hasWordBoundaries ? 'no token starts a word' : 'its scoring graph has no boundary output'}; ${fix}.`,
		);
	}
}

function batchLimitsOf(
	model: LoadedModel,
	params: ScoreTextsParams,
	budgets: ScoringBudgets,
): BatchLimits {
	return {
		maxPositions: model.maxPositions,
		maxTokens: budgets.maxTokensPerBatch ?? 2048,
		maxLogitsBytes: budgets.maxLogitsBytesPerBatch ?? 96 * 1024 * 1024,
		logitsWidth: model.vocabSize,
		maxBatchSize: params.maxBatchSize ?? budgets.defaultMaxBatchSize ?? 64,
		batchInvariant: model.info.batchInvariant,
		// CPU and WASM kernels take any shape at no cost: pad only to the batch's longest
		// sequence. WebGPU keeps the default buckets so compiled shaders are reused.
		...(model.backend === 'webgpu'
			? {}
			: {
					buckets: exactBuckets(model.maxPositions),
					batchOverheadPositions: CPU_BATCH_OVERHEAD_POSITIONS,
				}),
	};
}

/** Set while the model runs on another backend than it was loaded for (WebGPU → WASM, at load
 * or since a device loss): callers may hold the load-time info. */
function fallbackOf(model: LoadedModel): BackendFallback | undefined {
	return model.backend === model.requestedBackend
		? undefined
		: { backend: model.backend, reason: model.info.fallbackReason ?? 'unknown reason' };
}

/** A scoreTexts request's run: its results in input order, counts and progress reports. */
class TextsRun implements ScoringRun {
	readonly results: (ScoredText | undefined)[];
	tokenCount = 0;
	positionsComputed = 0;
	#done: number;
	/** Decoded top-k token texts by id, for this run. */
	readonly #texts = new Map<number, string>();

	constructor(
		readonly model: LoadedModel,
		readonly prepared: readonly PreparedText[],
		readonly limits: BatchLimits,
		readonly wordBoundaries: boolean,
		readonly options: ScoreTextsOptions,
		readonly started: number,
		readonly topLogprobs = 0,
	) {
		this.results = new Array(prepared.length);
		// Texts with no model input (empty text, reference convention) have nothing to score.
		prepared.forEach((p, index) => {
			if (p.plan.inputIds.length === 0) this.results[index] = { index, tokens: [] };
		});
		this.#done = this.results.filter(Boolean).length;
	}

	get signal(): AbortSignal | undefined {
		return this.options.signal;
	}

	finish(index: number, bits: Float64Array, extras: SequenceExtras = {}): ScoredText {
		const { boundaryBits, nextEntropyBits, top } = extras;
		const p = this.prepared[index] as PreparedText;
		const assembled = assembleScoredTokens({
			text: p.text,
			plan: p.plan,
			tokens: p.tokens,
			textSpans: p.spans,
			surprisalsBits: bits,
		});
		const tokens = boundaryBits
			? assembled.map((token, position) => ({
					...token,
					boundarySurprisalBits: boundaryBits[position] ?? Number.NaN,
					...(nextEntropyBits ? { nextEntropyBits: nextEntropyBits[position] ?? Number.NaN } : {}),
				}))
			: assembled;
		const scored: ScoredText = top
			? { index, tokens, topLogprobs: top.map((t) => (t ? this.#decodeTop(t) : null)) }
			: { index, tokens };
		this.results[index] = scored;
		return scored;
	}

	/** A token's top-k with each id decoded alone (special tokens kept, no clean-up). */
	#decodeTop(top: TokenTopIds): TokenTopLogprobs {
		const tokenizer = this.model.tokenizer as unknown as TokenizerInternals;
		const withText = (entry: TokenTopIds['chosen']) => {
			let text = this.#texts.get(entry.id);
			if (text === undefined) {
				text = tokenizer.decode([entry.id], {
					skip_special_tokens: false,
					clean_up_tokenization_spaces: false,
				});
				this.#texts.set(entry.id, text);
			}
			return { ...entry, text };
		};
		return { chosen: withText(top.chosen), top: top.top.map(withText) };
	}

	report(batch: readonly ScoredText[], positions: number): void {
		this.#done += batch.length;
		this.positionsComputed += positions;
		for (const scored of batch) this.tokenCount += scored.tokens.length;
		const seconds = Math.max(now() - this.started, 1) / 1000;
		const moved = fallbackOf(this.model);
		this.options.onProgress?.({
			done: this.#done,
			total: this.prepared.length,
			tokensPerSecond: this.tokenCount / seconds,
			texts: batch,
			...(moved ? { fallback: moved } : {}),
		});
	}
}

/** Scores every text of the request (see `InferenceEngine.scoreTexts`). */
export async function scoreTexts(
	pass: ForwardPass,
	model: LoadedModel,
	params: ScoreTextsParams,
	options: ScoreTextsOptions,
	budgets: ScoringBudgets,
): Promise<ScoreTextsResult> {
	const started = now();
	const wordBoundaries = params.wordBoundaries === true;
	if (wordBoundaries) requireWordBoundaries(model);
	const topLogprobs = params.topLogprobs ?? 0;
	if (params.topLogprobs !== undefined) requireTopLogprobs(model, topLogprobs);
	const prepared = params.texts.map((text) => prepareText(model, text, params.convention));
	const sequences = prepared.map((p) => p.plan.inputIds);
	const limits = batchLimitsOf(model, params, budgets);
	const run = new TextsRun(model, prepared, limits, wordBoundaries, options, started, topLogprobs);
	const unavailable =
		params.prefixReuse === false
			? 'turned off for this request'
			: topLogprobs > 0
				? 'top log-probs run plain batches'
				: prefixReuseUnavailableReason(model);
	if (unavailable === undefined) await scoreReusingPrefixes(pass, model, sequences, run);
	else await scorePlain(pass, model, sequences, run);
	throwIfCancelled(options.signal);
	const moved = fallbackOf(model);
	const prefixReuse: PrefixReuseReport =
		unavailable === undefined ? { used: true } : { used: false, reason: unavailable };
	return {
		texts: run.results.map((r, index) => r ?? { index, tokens: [] }),
		tokenCount: run.tokenCount,
		positionsComputed: run.positionsComputed,
		prefixReuse,
		elapsedMs: now() - started,
		...(moved ? { fallback: moved } : {}),
	};
}

/** Runs `model` once on a short text (compiles kernels, proves the graph works). */
export async function probeModel(pass: ForwardPass, model: LoadedModel): Promise<void> {
	const ids = prepareText(model, PROBE_TEXT, 'reference').plan.inputIds.slice(0, 8);
	await scorePlain(pass, model, [ids], {
		limits: {
			maxPositions: model.maxPositions,
			maxTokens: 8,
			buckets: [8],
			batchInvariant: model.info.batchInvariant,
		},
		signal: undefined,
		wordBoundaries: false,
		finish: (index) => ({ index, tokens: [] }),
		report: () => undefined,
	});
}
