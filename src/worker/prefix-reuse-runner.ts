/**
 * Runs a shared-prefix reuse plan (core/scoring/prefix-plan.ts): a prefix shared with an
 * earlier sequence runs once, that sequence's key/value cache stands in for it and only the
 * continuation runs. Continuations with pasts of different lengths share a batch (padded past
 * masked, explicit positions). Caches, surprisals and extra targets live for one round.
 */
import { bucketSequenceLength, planBatches, type BatchGroup } from '../core/scoring/plan-batches';
import { keepCachePositions, type PrefixCache } from '../core/scoring/prefix-cache';
import {
	buildContinuationInputs,
	continuationLength,
	continuationRowsOf,
	extraTargetSlots,
	joinBoundarySurprisals,
	joinSurprisals,
	planPrefixReuse,
	sequencesPerRound,
	splitOverlongBatches,
	type ContinuationInputs,
	type ContinuationRow,
	type PrefixPlan,
} from '../core/scoring/prefix-plan';
import { throwIfCancelled } from './engine';
import type { BatchOutputs, ForwardPass } from './forward-pass';
import { nextMacrotask } from './generate-text';
import type { LoadedModel } from './loaded-model';
import type { ScoringRun } from './plain-batch-scorer';
import type { ScoredText } from './protocol';

/** Why shared-prefix reuse cannot run on `model` (plain batches then), or undefined if it can. */
export function prefixReuseUnavailableReason(model: LoadedModel): string | undefined {
	if (!model.info.batchInvariant)
		return `${model.info.spec.dtype} runs one sentence per pass (its numbers depend on the batch)`;
	if (model.pastInputs.length === 0)
		return 'the graph has no key/value cache inputs (past_key_values.*)';
	if (model.cacheOutputs.length === 0)
		return 'the graph returns no key/value cache (present.* outputs)';
	if (model.hasCacheBranch) return 'the graph is a merged decoder (use_cache_branch)';
	if (!model.hasPositionIds) return 'the graph takes no position_ids';
	return undefined;
}

/**
 * Scores every sequence, running a prefix shared with an earlier sequence once (see the module
 * header). Call only when `prefixReuseUnavailableReason(model)` is undefined.
 */
export async function scoreReusingPrefixes(
	pass: ForwardPass,
	model: LoadedModel,
	sequences: readonly (readonly number[])[],
	run: ScoringRun,
): Promise<void> {
	const bytesPerPosition = model.pastInputs.reduce(
		(sum, past) => sum + past.heads * past.headDim * (past.type === 'float16' ? 2 : 4),
		0,
	);
	const plan = planPrefixReuse(sequences, {
		maxSequencesPerRound: sequencesPerRound(bytesPerPosition),
	});
	const runner = new PrefixReuseRunner(pass, model, sequences, plan, run);
	for (const waves of plan.rounds) await runner.runRound(waves);
}

class PrefixReuseRunner {
	readonly #pass: ForwardPass;
	readonly #model: LoadedModel;
	readonly #sequences: readonly (readonly number[])[];
	readonly #plan: PrefixPlan;
	readonly #run: ScoringRun;
	/** Past lengths go to shape buckets on WebGPU (as loaded: compiled shaders are reused). */
	readonly #webgpu: boolean;
	#batches = 0;
	/** The round's kept caches, surprisals and boundary surprisals by sequence (parents). */
	readonly #caches = new Map<number, PrefixCache>();
	readonly #bitsOf = new Map<number, Float64Array>();
	readonly #boundaryBitsOf = new Map<number, Float64Array>();
	readonly #entropyBitsOf = new Map<number, Float64Array>();
	/** A child's first own token, scored by its parent as an extra target (bits). */
	readonly #firstBitsOf = new Map<number, number>();

	constructor(
		pass: ForwardPass,
		model: LoadedModel,
		sequences: readonly (readonly number[])[],
		plan: PrefixPlan,
		run: ScoringRun,
	) {
		this.#pass = pass;
		this.#model = model;
		this.#sequences = sequences;
		this.#plan = plan;
		this.#run = run;
		this.#webgpu = model.backend === 'webgpu';
	}

	/** Runs one round's waves in order (a wave's parents ran in an earlier wave). */
	async runRound(waves: readonly (readonly number[])[]): Promise<void> {
		this.#caches.clear();
		this.#bitsOf.clear();
		this.#boundaryBitsOf.clear();
		this.#entropyBitsOf.clear();
		this.#firstBitsOf.clear();
		const run = this.#run;
		for (const wave of waves) {
			const rows = continuationRowsOf(this.#plan, this.#sequences, wave, run.wordBoundaries);
			this.#finishCovered(rows);
			const groups = planBatches(rows.map(continuationLength), run.limits);
			for (const group of splitOverlongBatches(groups, rows, this.#model.maxPositions))
				await this.#runBatch(group, rows);
		}
	}

	/** Finishes the sequences their parent covers entirely (a duplicate, a prefix): they run
	 * nothing. */
	#finishCovered(rows: readonly ContinuationRow[]): void {
		const covered = rows.filter((row) => continuationLength(row) === 0);
		if (covered.length === 0) return;
		const none = new Float64Array(0);
		const batch = covered.map(({ sequenceIndex: index, pastLength }) => {
			const link = this.#plan.links[index];
			const parentBits = link ? this.#bitsOf.get(link.parent) : undefined;
			const length = this.#sequences[index]?.length ?? 0;
			const bits = joinSurprisals(
				length,
				pastLength,
				parentBits,
				none,
				0,
				1,
				this.#firstBitsOf.get(index),
			);
			if (!this.#run.wordBoundaries) return this.#run.finish(index, bits);
			// Every position's distribution is the parent's (its tokens through the last).
			const parentBoundary = link ? this.#boundaryBitsOf.get(link.parent) : undefined;
			const boundaryBits = joinBoundarySurprisals(length, length, parentBoundary, none, 0);
			const parentEntropy = link ? this.#entropyBitsOf.get(link.parent) : undefined;
			return this.#run.finish(index, bits, {
				boundaryBits,
				...(parentEntropy
					? { nextEntropyBits: joinBoundarySurprisals(length, length, parentEntropy, none, 0) }
					: {}),
			});
		});
		this.#run.report(batch, 0);
	}

	async #runBatch(group: BatchGroup, rows: readonly ContinuationRow[]): Promise<void> {
		const model = this.#model;
		const run = this.#run;
		if (this.#batches++ > 0) await nextMacrotask();
		throwIfCancelled(run.signal);
		const batchRows = group.sequenceIndices.map((i) => rows[i] as ContinuationRow);
		const inputs = this.#inputsOf(batchRows, group.sequenceLength);
		const feedsOf = () => {
			// Every position fed is read (its own token, extra targets, boundaries).
			const passInputs = { ...inputs, outputLengths: inputs.lengths };
			const feeds = this.#pass.feeds(model, passInputs, run.wordBoundaries);
			this.#pass.feedPastCaches(model, feeds, inputs, batchRows, (row) => {
				const link = this.#plan.links[row.sequenceIndex];
				return link ? this.#caches.get(link.parent) : undefined;
			});
			return feeds;
		};
		const keeps = batchRows.some((row) => (this.#plan.keepPositions[row.sequenceIndex] ?? 0) > 0);
		const cacheOutputs = keeps ? model.cacheOutputs : [];
		const out = await this.#pass.run(model, feedsOf, cacheOutputs, run.wordBoundaries);
		const { batchSize: b, sequenceLength: s, targetsPerPosition: k } = inputs;
		batchRows.forEach((row, r) => {
			for (const extra of extraTargetSlots(row)) {
				const logProb = out.logProbs[(r * s + extra.at) * k + extra.slot] as number;
				this.#firstBitsOf.set(extra.child, -logProb / Math.LN2);
			}
		});
		const batch = batchRows.map((row, r) => this.#finishRow(row, r, out, inputs));
		run.report(batch, b * s);
	}

	/** The batch's inputs: its past padded to the longest (to a shape bucket on WebGPU). */
	#inputsOf(batchRows: readonly ContinuationRow[], sequenceLength: number): ContinuationInputs {
		const model = this.#model;
		const longestPast = Math.max(...batchRows.map((row) => row.pastLength));
		const pastLength =
			this.#webgpu && longestPast > 0
				? bucketSequenceLength(longestPast, model.maxPositions - sequenceLength, undefined)
				: longestPast;
		return buildContinuationInputs(
			batchRows,
			model.padTokenId,
			sequenceLength,
			pastLength,
			model.maxPositions,
		);
	}

	/** Row `r`'s ScoredText; a parent also keeps its surprisals and cache for its children. */
	#finishRow(
		row: ContinuationRow,
		r: number,
		out: BatchOutputs,
		inputs: ContinuationInputs,
	): ScoredText {
		const index = row.sequenceIndex;
		const link = this.#plan.links[index];
		const length = this.#sequences[index]?.length ?? 0;
		const { sequenceLength: s, targetsPerPosition: k } = inputs;
		const parentBits = link ? this.#bitsOf.get(link.parent) : undefined;
		const first = this.#firstBitsOf.get(index);
		const bits = joinSurprisals(length, row.pastLength, parentBits, out.logProbs, r * s, k, first);
		const parentBoundary = link ? this.#boundaryBitsOf.get(link.parent) : undefined;
		const boundary = out.boundaryLogProbs
			? joinBoundarySurprisals(length, row.pastLength, parentBoundary, out.boundaryLogProbs, r * s)
			: undefined;
		const parentEntropy = link ? this.#entropyBitsOf.get(link.parent) : undefined;
		// E[log p] in nats → −E[log p] / ln 2 = the entropy in bits, joined as the boundaries.
		const entropy = out.expectedLogProbs
			? joinBoundarySurprisals(length, row.pastLength, parentEntropy, out.expectedLogProbs, r * s)
			: undefined;
		const keep = this.#plan.keepPositions[index] ?? 0;
		if (keep > 0) {
			this.#bitsOf.set(index, bits);
			if (boundary) this.#boundaryBitsOf.set(index, boundary);
			if (entropy) this.#entropyBitsOf.set(index, entropy);
			const shapes = this.#model.pastInputs;
			const cache = keepCachePositions(out.caches, shapes, inputs, r, row.pastLength, keep);
			this.#caches.set(index, cache);
		}
		return this.#run.finish(index, bits, {
			...(boundary ? { boundaryBits: boundary } : {}),
			...(entropy ? { nextEntropyBits: entropy } : {}),
		});
	}
}
