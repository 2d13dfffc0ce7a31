/**
 * One forward pass of a scoring graph: its feeds (ids, mask, targets, the optional inputs the
 * graph declares, past caches) as ORT tensors, the run, and the outputs read back (log-probs,
 * boundary log-probs, top-k next tokens, cache outputs). A graph that computes its output layer
 * only at the rows fed is fed the rows the caller reads, and its outputs come back laid out as a
 * full pass's (NaN at the rows not computed). A WebGPU pass that fails reloads on the fallback once.
 */
import {
	BOUNDARY_LOG_PROBS_OUTPUT_NAME,
	BOUNDARY_POSITIONS_INPUT_NAME,
	EXPECTED_LOG_PROB_OUTPUT_NAME,
	LOG_PROBS_OUTPUT_NAME,
	TARGETS_INPUT_NAME,
	TOP_IDS_OUTPUT_NAME,
	TOP_LOG_PROBS_OUTPUT_NAME,
	TOP_POSITIONS_INPUT_NAME,
	WORD_START_MASK_INPUT_NAME,
} from '../core/onnx/append-log-prob-tail';
import { OUTPUT_ROWS_INPUT_NAME } from '../core/onnx/gather-output-rows';
import { gatherRows, outputRows, scatterIdRows, scatterRows } from '../core/scoring/output-rows';
import {
	gatherPastCache,
	type CacheOutput,
	type PastRow,
	type PrefixCache,
} from '../core/scoring/prefix-cache';
import type { ContinuationInputs, ContinuationRow } from '../core/scoring/prefix-plan';
import { BackendError, classifyRunError, messageOf } from './engine-errors';
import type { LoadedModel } from './loaded-model';
import type { OrtRuntime, OrtTensor } from './ort-runtime';

/** A forward pass's log-probs `[B·S]` and the cache outputs fetched, `[B, heads, P + S, dim]`. */
export interface BatchOutputs {
	readonly logProbs: Float32Array;
	/** log P(next token starts a word) `[B·S]`, nats, when fetched. */
	readonly boundaryLogProbs?: Float32Array;
	/** Σ p log p of the next-token distribution (minus its entropy) `[B·S]`, nats, when fetched
	 * (with the boundaries, where the graph has it). */
	readonly expectedLogProbs?: Float32Array;
	/** When fetched: every position's top-k next tokens, `[B·S·K]` log-probs (nats, largest
	 * first) and their ids. */
	readonly top?: TopOutputs;
	readonly caches: readonly CacheOutput[];
}

/** The top-k outputs of a pass that fed every position: `[B, S, K]` each. */
export interface TopOutputs {
	readonly logProbs: Float32Array;
	readonly ids: BigInt64Array;
	/** K, the graph's top-k width. */
	readonly k: number;
}

/** The batch tensors every pass feeds (a plain batch has no past and one target per position). */
export type PassInputs = Pick<
	ContinuationInputs,
	| 'batchSize'
	| 'sequenceLength'
	| 'pastLength'
	| 'inputIds'
	| 'attentionMask'
	| 'positionIds'
	| 'targets'
> &
	Partial<Pick<ContinuationInputs, 'targetsPerPosition'>> & {
		/** Per row, how many of its first positions' outputs the caller reads: a graph with
		 * output rows computes its output layer there only. */
		readonly outputLengths: Int32Array;
	};

/** The boundary positions a run feeds when it does not fetch the boundary output: one, so the
 * boundary nodes (which run whether fetched or not) cost one position per row. */
const ONE_BOUNDARY_POSITION = BigInt64Array.of(0n);

/** Positions 0…s−1, as a positions input takes them. */
function allPositions(s: number): BigInt64Array {
	return BigInt64Array.from({ length: s }, (_, t) => BigInt(t));
}

export class ForwardPass {
	readonly #runtime: OrtRuntime;
	readonly #fallBack: (model: LoadedModel, reason: string) => Promise<void>;

	/** `fallBack` reloads a model on the runtime's fallback backend (the loader's). */
	constructor(
		runtime: OrtRuntime,
		fallBack: (model: LoadedModel, reason: string) => Promise<void>,
	) {
		this.#runtime = runtime;
		this.#fallBack = fallBack;
	}

	/** The inputs every graph takes (ids, mask, targets) and the optional ones it declares;
	 * `topLogProbs` asks for every position's top-k (one position otherwise). */
	feeds(
		model: LoadedModel,
		inputs: PassInputs,
		wordBoundaries: boolean,
		topLogProbs = false,
	): Record<string, OrtTensor> {
		const { Tensor } = this.#runtime;
		const { batchSize: b, sequenceLength: s, pastLength: p } = inputs;
		const k = inputs.targetsPerPosition ?? 1;
		const feeds: Record<string, OrtTensor> = {
			input_ids: new Tensor('int64', inputs.inputIds, [b, s]),
			attention_mask: new Tensor('int64', inputs.attentionMask, [b, p + s]),
			[TARGETS_INPUT_NAME]: new Tensor('int64', inputs.targets, [b, s, k]),
		};
		// With output rows the outputs' positions are the rows fed ([1, N, …]), not each row's S.
		let positionsPerRow = s;
		if (model.hasOutputRows) {
			const rows = outputRows(inputs.outputLengths, s);
			positionsPerRow = rows.length;
			feeds[OUTPUT_ROWS_INPUT_NAME] = new Tensor('int64', rows, [1, rows.length]);
			const targets = gatherRows(inputs.targets, rows, k);
			feeds[TARGETS_INPUT_NAME] = new Tensor('int64', targets, [1, rows.length, k]);
		}
		if (model.hasWordBoundaries) {
			const mask = model.wordStartMask;
			feeds[WORD_START_MASK_INPUT_NAME] = new Tensor('float32', mask, [mask.length, 1]);
			const positions = wordBoundaries ? allPositions(positionsPerRow) : ONE_BOUNDARY_POSITION;
			feeds[BOUNDARY_POSITIONS_INPUT_NAME] = new Tensor('int64', positions, [positions.length]);
		}
		if (model.hasTopLogProbs) {
			const positions = topLogProbs ? allPositions(positionsPerRow) : ONE_BOUNDARY_POSITION;
			feeds[TOP_POSITIONS_INPUT_NAME] = new Tensor('int64', positions, [positions.length]);
		}
		if (model.hasPositionIds)
			feeds['position_ids'] = new Tensor('int64', inputs.positionIds, [b, s]);
		if (model.hasLogitsToKeep)
			feeds['num_logits_to_keep'] = new Tensor('int64', new BigInt64Array(1), []);
		if (model.hasCacheBranch) feeds['use_cache_branch'] = new Tensor('bool', [false], [1]);
		return feeds;
	}

	/** Empty past tensors `[B, heads, 0, headDim]` (a plain batch: no cache). */
	feedEmptyPasts(model: LoadedModel, feeds: Record<string, OrtTensor>, batchSize: number): void {
		const { Tensor } = this.#runtime;
		for (const past of model.pastInputs) {
			const empty = past.type === 'float16' ? new Uint16Array(0) : new Float32Array(0);
			feeds[past.name] = new Tensor(past.type, empty, [batchSize, past.heads, 0, past.headDim]);
		}
	}

	/** Past tensors `[B, heads, P_max, headDim]`: each row's parent cache, zeros after it. */
	feedPastCaches(
		model: LoadedModel,
		feeds: Record<string, OrtTensor>,
		inputs: ContinuationInputs,
		rows: readonly ContinuationRow[],
		cacheOf: (row: ContinuationRow) => PrefixCache | undefined,
	): void {
		const { Tensor } = this.#runtime;
		const { batchSize: b, pastLength: pMax } = inputs;
		model.pastInputs.forEach((past, j) => {
			const pastRows = rows.map((row): PastRow | undefined => {
				if (row.pastLength === 0) return undefined;
				const cache = cacheOf(row);
				const source = cache?.tensors[j];
				if (!cache || !source || cache.positions < row.pastLength) {
					throw new BackendError(
						`Internal: no cache of ${row.pastLength} positions for sequence ${row.sequenceIndex}.`,
					);
				}
				return { length: row.pastLength, cache: source, cachePositions: cache.positions };
			});
			const data = gatherPastCache(past, pastRows, pMax);
			feeds[past.name] = new Tensor(past.type, data, [b, past.heads, pMax, past.headDim]);
		});
	}

	/** One forward pass; returns log p(target) per position ([B·S], nats) and the fetched cache
	 * outputs. Reloads on the fallback backend once if WebGPU fails or lost its device; `feedsOf`
	 * builds the feeds for the session the model has then (its inputs may differ). */
	async run(
		model: LoadedModel,
		feedsOf: () => Record<string, OrtTensor>,
		cacheOutputs: readonly string[],
		wordBoundaries: boolean,
		topLogProbs = false,
	): Promise<BatchOutputs> {
		if (model.lostReason !== undefined && model.backend === 'webgpu')
			await this.#fallBack(model, model.lostReason);
		try {
			return await forward(model, feedsOf(), cacheOutputs, wordBoundaries, topLogProbs);
		} catch (error) {
			if (model.backend !== 'webgpu') throw classifyRunError(error);
			await this.#fallBack(model, `WebGPU failed while scoring (${messageOf(error)})`);
			try {
				return await forward(model, feedsOf(), cacheOutputs, wordBoundaries, topLogProbs);
			} catch (retryError) {
				throw classifyRunError(retryError);
			}
		}
	}
}

async function forward(
	model: LoadedModel,
	feeds: Record<string, OrtTensor>,
	cacheOutputs: readonly string[],
	wordBoundaries: boolean,
	topLogProbs: boolean,
): Promise<BatchOutputs> {
	const expected = wordBoundaries && model.hasExpectedLogProbs;
	const fetched = [
		LOG_PROBS_OUTPUT_NAME,
		...(wordBoundaries ? [BOUNDARY_LOG_PROBS_OUTPUT_NAME] : []),
		...(expected ? [EXPECTED_LOG_PROB_OUTPUT_NAME] : []),
		...(topLogProbs ? [TOP_LOG_PROBS_OUTPUT_NAME, TOP_IDS_OUTPUT_NAME] : []),
		...cacheOutputs,
	];
	const outputs = await model.session.run(feeds, fetched);
	const rows = fedRows(feeds);
	const targetsPerPosition = Number(feeds[TARGETS_INPUT_NAME]?.dims.at(-1) ?? 1);
	const logProbs = rows.put(float32Output(outputs, LOG_PROBS_OUTPUT_NAME), targetsPerPosition);
	const boundaryLogProbs = wordBoundaries
		? rows.put(float32Output(outputs, BOUNDARY_LOG_PROBS_OUTPUT_NAME), 1)
		: undefined;
	const expectedLogProbs = expected
		? rows.put(float32Output(outputs, EXPECTED_LOG_PROB_OUTPUT_NAME), 1)
		: undefined;
	const top = topLogProbs ? topOutputs(outputs, rows) : undefined;
	const caches = cacheOutputs.map((name) => {
		const tensor = outputs[name];
		const data = tensor?.data;
		if (!tensor || !(data instanceof Float32Array || data instanceof Uint16Array)) {
			throw new BackendError(`The model returned no cache output '${name}'.`);
		}
		const dims = [...tensor.dims];
		tensor.dispose?.();
		return { data, dims };
	});
	return {
		logProbs,
		caches,
		...(boundaryLogProbs ? { boundaryLogProbs } : {}),
		...(expectedLogProbs ? { expectedLogProbs } : {}),
		...(top ? { top } : {}),
	};
}

/** Puts a pass's per-position outputs where a full pass has them: `[B·S, width]`. */
interface FedRows {
	put(values: Float32Array, width: number): Float32Array;
	putIds(values: BigInt64Array, width: number): BigInt64Array;
}

/** The rows a pass fed (`OUTPUT_ROWS_INPUT_NAME`): each output row goes to its row of the batch;
 * without them the outputs are laid out as the batch already. */
function fedRows(feeds: Record<string, OrtTensor>): FedRows {
	const rows = feeds[OUTPUT_ROWS_INPUT_NAME]?.data;
	if (!(rows instanceof BigInt64Array))
		return { put: (values) => values, putIds: (values) => values };
	const [b = 0, s = 0] = feeds['input_ids']?.dims ?? [];
	const total = Number(b) * Number(s);
	return {
		put: (values, width) => scatterRows(values, rows, width, total),
		putIds: (values, width) => scatterIdRows(values, rows, width, total),
	};
}

/** The top-k log-probs and ids of a run (tensors disposed), or a BackendError. */
function topOutputs(outputs: Record<string, OrtTensor>, rows: FedRows): TopOutputs {
	const idsTensor = outputs[TOP_IDS_OUTPUT_NAME];
	const ids = idsTensor?.data;
	if (!idsTensor || !(ids instanceof BigInt64Array)) {
		throw new BackendError(`The model returned no int64 '${TOP_IDS_OUTPUT_NAME}' output.`);
	}
	const k = Number(idsTensor.dims.at(-1) ?? 0);
	idsTensor.dispose?.();
	return {
		logProbs: rows.put(float32Output(outputs, TOP_LOG_PROBS_OUTPUT_NAME), k),
		ids: rows.putIds(ids, k),
		k,
	};
}

/** A run's float32 output by name (its tensor disposed), or a BackendError. */
function float32Output(outputs: Record<string, OrtTensor>, name: string): Float32Array {
	const result = outputs[name];
	if (!result || !(result.data instanceof Float32Array)) {
		throw new BackendError(`The model returned no float32 '${name}' output.`);
	}
	const data = result.data;
	result.dispose?.();
	return data;
}
