/**
 * A loaded scoring model as the engine holds it: the transformers.js model and tokenizer, its ORT
 * session and what was read from them once at load (vocabulary, special tokens, word-start
 * tokens, the graph's inputs and cache outputs), and the ModelInfo the caller sees.
 */
import type { InferenceBackend, ModelSpec } from '../core/model/model-spec';
import {
	BOUNDARY_LOG_PROBS_OUTPUT_NAME,
	EXPECTED_LOG_PROB_OUTPUT_NAME,
	BOUNDARY_POSITIONS_INPUT_NAME,
	TARGETS_INPUT_NAME,
	TOP_IDS_OUTPUT_NAME,
	TOP_LOG_PROBS_OUTPUT_NAME,
	TOP_POSITIONS_INPUT_NAME,
	WORD_START_MASK_INPUT_NAME,
} from '../core/onnx/append-log-prob-tail';
import { OUTPUT_ROWS_INPUT_NAME } from '../core/onnx/gather-output-rows';
import type { SpecialTokenBehaviour } from '../core/scoring/conventions';
import { readTokenizerFacts, type TokenizerFacts } from '../core/scoring/token-offsets';
import {
	findWordStartTokens,
	readLstripAddedTokenIds,
	type WordStartTokens,
} from '../core/scoring/word-start-tokens';
import { now } from './engine';
import { messageOf, UnsupportedModelError } from './engine-errors';
import { hasChatTemplate, type GenerationTokenizer } from './generate-text';
import type { OrtSession } from './ort-runtime';
import type { LoadModelParams, ModelInfo } from './protocol';
import type {
	ModelConfigLike,
	PreTrainedModel,
	PreTrainedTokenizer,
	TokenizerInternals,
} from './transformers-library';

/** A `past_key_values.*` input of the graph and its shape per position. */
export interface PastInput {
	readonly name: string;
	readonly type: 'float32' | 'float16';
	readonly heads: number;
	readonly headDim: number;
}

/** The inputs a scoring graph declares besides ids/mask/targets, and its cache outputs. */
export interface GraphInputs {
	pastInputs: readonly PastInput[];
	/** `present.*` output per past input (same order), or empty when the graph returns no cache. */
	cacheOutputs: readonly string[];
	/** The graph takes the word-start ids and returns the boundary log-probs. */
	hasWordBoundaries: boolean;
	/** With the boundaries, the graph also returns each boundary position's expected log-prob
	 * (minus the next-token entropy). */
	hasExpectedLogProbs: boolean;
	/** The graph takes the top positions and returns each one's top-k next tokens. */
	hasTopLogProbs: boolean;
	/** The graph takes the rows whose outputs are computed (its output layer runs there only). */
	hasOutputRows: boolean;
	hasPositionIds: boolean;
	hasLogitsToKeep: boolean;
	hasCacheBranch: boolean;
}

export interface LoadedModel extends GraphInputs {
	info: ModelInfo;
	/** What it was loaded from (a fallback reloads from the same source, local files included). */
	readonly params: LoadModelParams;
	/** The backend it runs on; `requestedBackend` is the one it was loaded for. */
	backend: InferenceBackend;
	readonly requestedBackend: InferenceBackend;
	model: PreTrainedModel;
	session: OrtSession;
	readonly tokenizer: PreTrainedTokenizer;
	readonly idToToken: readonly string[];
	readonly facts: TokenizerFacts;
	readonly behaviour: SpecialTokenBehaviour;
	readonly padTokenId: number;
	readonly vocabSize: number;
	readonly maxPositions: number;
	readonly config: ModelConfigLike;
	/** The tokens that start a word (`findWordStartTokens`), for word-boundary requests. */
	readonly wordStarts: WordStartTokens;
	/** [V] (the logits' width): 1 for those tokens, 0 for the others (all 0 without a marker),
	 * as the graph's word-start mask input takes it. */
	readonly wordStartMask: Float32Array;
	/** Set when WebGPU reported its device lost: the next batch reloads on the fallback. */
	lostReason?: string;
}

/** `${source}:${id}@${revision}:${dtype}:${backend}`: one loaded model per requested spec. */
export function modelKeyOf(spec: ModelSpec): string {
	return `${spec.source}:${spec.id}@${spec.revision ?? ''}:${spec.dtype}:${spec.backend}`;
}

/** What a load produced, for `describeModel`. */
export interface LoadedParts {
	readonly params: LoadModelParams;
	readonly modelKey: string;
	readonly config: ModelConfigLike;
	readonly tokenizer: PreTrainedTokenizer;
	readonly model: PreTrainedModel;
	readonly session: OrtSession;
	/** The logits' width the fused graph declares, when it declares a number. */
	readonly logitsWidth: number | undefined;
	readonly backend: InferenceBackend;
	readonly fallbackReason: string | undefined;
	/** When the load started (`now()`). */
	readonly started: number;
}

/** The LoadedModel of a load's parts: vocabulary, special tokens, word starts, graph inputs. */
export function describeModel(parts: LoadedParts): LoadedModel {
	const { spec } = parts.params;
	const { config, tokenizer, backend, fallbackReason } = parts;
	const internals = tokenizer as unknown as TokenizerInternals;
	const facts = readTokenizerFacts(internals._tokenizerJSON);
	const vocab = internals.get_vocab();
	const idToToken: string[] = [];
	for (const [token, id] of vocab instanceof Map ? vocab : Object.entries(vocab))
		idToToken[id] = token;
	const behaviour = specialTokenBehaviourOf(internals, config);
	const vocabSize = config.vocab_size ?? idToToken.length;
	const maxPositions =
		config.max_position_embeddings ??
		config.n_positions ??
		config.n_ctx ??
		internals.model_max_length ??
		2048;
	const io = readGraphInputs(parts.session, config, spec);
	const logitsWidth = parts.logitsWidth ?? vocabSize;
	const wordStarts = wordStartsOf(internals, idToToken, logitsWidth);
	const wordStartMask = new Float32Array(logitsWidth);
	if (wordStarts.ok) for (const id of wordStarts.ids) wordStartMask[id] = 1;
	const info: ModelInfo = {
		modelKey: parts.modelKey,
		spec: { ...spec, backend },
		...(fallbackReason !== undefined ? { fallbackReason } : {}),
		modelType: config.model_type ?? 'unknown',
		vocabSize,
		maxPositions,
		...(behaviour.bosTokenId !== undefined ? { bosTokenId: behaviour.bosTokenId } : {}),
		...(behaviour.eosTokenId !== undefined ? { eosTokenId: behaviour.eosTokenId } : {}),
		addsBos: behaviour.addsBos,
		tokenizerKind: facts.kind,
		hasChatTemplate: hasChatTemplate(tokenizer as unknown as GenerationTokenizer),
		// q8 is measured batch-dependent (up to 1.24 bits); fp16 is untested here (no fp16 model
		// to test with): both run one sentence per forward pass. fp32 is tested (≤ 1e-4 bits).
		batchInvariant: spec.dtype === 'fp32',
		loadMs: now() - parts.started,
	};
	return {
		info,
		params: parts.params,
		backend,
		requestedBackend: spec.backend,
		model: parts.model,
		session: parts.session,
		tokenizer,
		idToToken,
		facts,
		behaviour,
		padTokenId: internals.pad_token_id ?? behaviour.eosTokenId ?? 0,
		vocabSize,
		maxPositions,
		config,
		wordStarts,
		wordStartMask,
		...io,
	};
}

/** The word-start tokens by `findWordStartTokens`' rule (minicons' `bow_correction`). */
function wordStartsOf(
	tokenizer: TokenizerInternals,
	idToToken: readonly string[],
	vocabSize: number,
): WordStartTokens {
	let spaceTokenIds: number[];
	try {
		spaceTokenIds = tokenizer.encode(' ', { add_special_tokens: false });
	} catch (error) {
		return { ok: false, reason: `the tokenizer cannot encode a space (${messageOf(error)})` };
	}
	const tokenOf = (id: number | null | undefined): string | undefined =>
		id === null || id === undefined ? undefined : idToToken[id];
	const bosToken = tokenOf(tokenizer.bos_token_id);
	const eosToken = tokenOf(tokenizer.eos_token_id);
	return findWordStartTokens({
		idToToken,
		vocabSize,
		spaceTokenIds,
		...(bosToken !== undefined ? { bosToken } : {}),
		...(eosToken !== undefined ? { eosToken } : {}),
		lstripTokenIds: readLstripAddedTokenIds(tokenizer._tokenizerJSON),
	});
}

/** What the tokenizer adds by itself (probed by encoding with and without special tokens). */
function specialTokenBehaviourOf(
	tokenizer: TokenizerInternals,
	config: ModelConfigLike,
): SpecialTokenBehaviour {
	const plain = tokenizer.encode('a', { add_special_tokens: false });
	const full = tokenizer.encode('a', { add_special_tokens: true });
	const addsBos = full.length > plain.length && full[0] !== plain[0];
	const addsEos = full.length > plain.length && full.at(-1) !== plain.at(-1);
	const configEos = Array.isArray(config.eos_token_id)
		? config.eos_token_id[0]
		: config.eos_token_id;
	const bos =
		(addsBos ? full[0] : undefined) ?? tokenizer.bos_token_id ?? config.bos_token_id ?? undefined;
	const eos =
		(addsEos ? full.at(-1) : undefined) ?? tokenizer.eos_token_id ?? configEos ?? undefined;
	return {
		addsBos,
		addsEos,
		...(bos !== undefined && bos !== null ? { bosTokenId: bos } : {}),
		...(eos !== undefined && eos !== null ? { eosTokenId: eos } : {}),
	};
}

/** The inputs every scoring graph takes or may declare; any other must be a past input. */
const KNOWN_INPUTS = new Set([
	'input_ids',
	'attention_mask',
	TARGETS_INPUT_NAME,
	WORD_START_MASK_INPUT_NAME,
	BOUNDARY_POSITIONS_INPUT_NAME,
	TOP_POSITIONS_INPUT_NAME,
	OUTPUT_ROWS_INPUT_NAME,
	'position_ids',
	'num_logits_to_keep',
	'use_cache_branch',
]);

/** The inputs the graph declares besides ids/mask/targets, and how to feed them. Throws
 * UnsupportedModelError for an input a plain forward pass cannot give. */
export function readGraphInputs(
	session: OrtSession,
	config: ModelConfigLike,
	spec: ModelSpec,
): GraphInputs {
	const pastInputs = readPastInputs(session, config, spec);
	for (const required of ['input_ids', 'attention_mask', TARGETS_INPUT_NAME]) {
		if (!session.inputNames.includes(required)) {
			throw new UnsupportedModelError(`The model '${spec.id}' has no '${required}' input.`);
		}
	}
	// The cache each past input feeds comes back as the output named `present…` likewise.
	const cacheOutputs = pastInputs.map((past) => past.name.replace(/^past_key_values/, 'present'));
	const hasCache =
		pastInputs.length > 0 && cacheOutputs.every((name) => session.outputNames.includes(name));
	return {
		pastInputs,
		cacheOutputs: hasCache ? cacheOutputs : [],
		hasPositionIds: session.inputNames.includes('position_ids'),
		hasLogitsToKeep: session.inputNames.includes('num_logits_to_keep'),
		hasOutputRows: session.inputNames.includes(OUTPUT_ROWS_INPUT_NAME),
		hasCacheBranch: session.inputNames.includes('use_cache_branch'),
		hasWordBoundaries:
			session.inputNames.includes(WORD_START_MASK_INPUT_NAME) &&
			session.inputNames.includes(BOUNDARY_POSITIONS_INPUT_NAME) &&
			session.outputNames.includes(BOUNDARY_LOG_PROBS_OUTPUT_NAME),
		hasExpectedLogProbs: session.outputNames.includes(EXPECTED_LOG_PROB_OUTPUT_NAME),
		hasTopLogProbs:
			session.inputNames.includes(TOP_POSITIONS_INPUT_NAME) &&
			session.outputNames.includes(TOP_LOG_PROBS_OUTPUT_NAME) &&
			session.outputNames.includes(TOP_IDS_OUTPUT_NAME),
	};
}

/** The graph's `past_key_values.*` inputs, shapes from its metadata, else from the config. */
function readPastInputs(
	session: OrtSession,
	config: ModelConfigLike,
	spec: ModelSpec,
): PastInput[] {
	const metadata = new Map((session.inputMetadata ?? []).map((m) => [m.name, m]));
	const heads = config.num_key_value_heads ?? config.num_attention_heads ?? config.n_head ?? 1;
	const hidden = config.hidden_size ?? config.n_embd ?? 0;
	const headDimFallback =
		config.head_dim ?? Math.floor(hidden / (config.num_attention_heads ?? config.n_head ?? 1));
	const pastInputs: PastInput[] = [];
	for (const name of session.inputNames) {
		if (KNOWN_INPUTS.has(name)) continue;
		if (!name.startsWith('past_key_values')) {
			throw new UnsupportedModelError(
				`The model '${spec.id}' needs an input '${name}' that a plain forward pass cannot give.`,
			);
		}
		const shape = metadata.get(name)?.shape ?? [];
		const type = metadata.get(name)?.type === 'float16' ? 'float16' : 'float32';
		pastInputs.push({
			name,
			type,
			heads: typeof shape[1] === 'number' ? shape[1] : heads,
			headDim: typeof shape[3] === 'number' ? shape[3] : headDimFallback,
		});
	}
	return pastInputs;
}
