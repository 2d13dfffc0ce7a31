/**
 * Scoring in plain batches (each sequence whole, no past): the batch loop, and the ScoringRun
 * contract it shares with the prefix-reuse runner (limits, cancel, finishing texts, progress).
 */
import type { BatchLimits } from '../core/scoring/plan-batches';
import { buildBatchInputs, planBatches } from '../core/scoring/plan-batches';
import { joinBoundarySurprisals } from '../core/scoring/prefix-plan';
import { readReducedLogProbs, surprisalsBitsForRow } from '../core/scoring/surprisal-from-logits';
import { throwIfCancelled } from './engine';
import type { ForwardPass, TopOutputs } from './forward-pass';
import { nextMacrotask } from './generate-text';
import type { LoadedModel } from './loaded-model';
import type { ScoredText, TopLogprob } from './protocol';

/** A position's top-k as the graph gives them: ids and log-probs, before decoding. */
export type TopLogprobIds = Omit<TopLogprob, 'text'>;
/** A token's own log-prob and its position's top-k ids, most likely first. */
export interface TokenTopIds {
	readonly chosen: TopLogprobIds;
	readonly top: readonly TopLogprobIds[];
}

/** A sequence's values beside its surprisals, each when asked and given. */
export interface SequenceExtras {
	/** Per position p: −log₂ P(the token after p starts a word | tokens 0…p). */
	readonly boundaryBits?: Float64Array;
	/** Per position p: the entropy (bits) of the distribution that predicts the token after p. */
	readonly nextEntropyBits?: Float64Array;
	/** Per token: its position's top-k next tokens (null for the first token). */
	readonly top?: readonly (TokenTopIds | null)[];
}

/** What the scoring loops share: batch limits, cancel signal, and what to do with results. */
export interface ScoringRun {
	readonly limits: BatchLimits;
	readonly signal: AbortSignal | undefined;
	/** Also compute every position's boundary surprisal (the last token is then run too). */
	readonly wordBoundaries: boolean;
	/** Also read this many top-k next tokens per position (plain batches only); 0 or absent:
	 * none. */
	readonly topLogprobs?: number;
	/** Turns a sequence's surprisals (and boundary surprisals, entropies, top-k, when asked)
	 * into its ScoredText (and records it). */
	finish(index: number, bits: Float64Array, extras?: SequenceExtras): ScoredText;
	/** After each batch: the texts it finished and the positions it computed (padding included). */
	report(batch: readonly ScoredText[], positions: number): void;
}

/** Scores every sequence in plain batches (each sequence whole, empty past). */
export async function scorePlain(
	pass: ForwardPass,
	model: LoadedModel,
	sequences: readonly (readonly number[])[],
	run: ScoringRun,
): Promise<void> {
	const groups = planBatches(
		sequences.map((ids) => ids.length),
		run.limits,
	);
	let logProbs = new Float64Array(0);
	for (const [n, group] of groups.entries()) {
		// A cancel arrives as a message: let the worker's event loop deliver it before the next batch.
		if (n > 0) await nextMacrotask();
		throwIfCancelled(run.signal);
		const inputs = buildBatchInputs(group, sequences, model.padTokenId);
		const { batchSize: b, sequenceLength: s } = inputs;
		const topK = run.topLogprobs ?? 0;
		// Read: each position with a next token, and with the boundaries the last one too.
		const outputLengths = inputs.lengths.map((length) =>
			run.wordBoundaries ? length : length - 1,
		);
		const passInputs = { ...inputs, pastLength: 0, outputLengths };
		const feedsOf = () => {
			const feeds = pass.feeds(model, passInputs, run.wordBoundaries, topK > 0);
			pass.feedEmptyPasts(model, feeds, b);
			return feeds;
		};
		const reduced = await pass.run(model, feedsOf, [], run.wordBoundaries, topK > 0);
		const rows = b * s;
		if (logProbs.length < rows) logProbs = new Float64Array(rows);
		readReducedLogProbs(reduced.logProbs, inputs, inputs.lengths, logProbs);
		const batch = inputs.sequenceIndices.map((index, row) => {
			const length = inputs.lengths[row] ?? 0;
			const bits = surprisalsBitsForRow(logProbs, row, s, length);
			const { boundaryLogProbs: boundary, expectedLogProbs: expected } = reduced;
			return run.finish(index, bits, {
				...(boundary
					? { boundaryBits: joinBoundarySurprisals(length, 0, undefined, boundary, row * s) }
					: {}),
				...(expected
					? { nextEntropyBits: joinBoundarySurprisals(length, 0, undefined, expected, row * s) }
					: {}),
				...(reduced.top
					? { top: topOfRow(reduced.top, sequences[index] ?? [], logProbs, row * s, topK) }
					: {}),
			});
		});
		run.report(batch, rows);
	}
}

/**
 * One sequence's top-k per token from a pass that fed every position: token p (p ≥ 1) was drawn
 * from position p − 1's distribution; the first token has none (null). `logProbs` holds the
 * row's target log-probs from `base` (`readReducedLogProbs`).
 */
function topOfRow(
	top: TopOutputs,
	ids: readonly number[],
	logProbs: Float64Array,
	base: number,
	k: number,
): (TokenTopIds | null)[] {
	const width = Math.min(k, top.k);
	return ids.map((id, p) => {
		if (p === 0) return null;
		const at = (base + p - 1) * top.k;
		const entries: TopLogprobIds[] = [];
		for (let j = 0; j < width; j++) {
			entries.push({
				id: Number(top.ids[at + j]),
				logprob: top.logProbs[at + j] as number,
			});
		}
		return { chosen: { id, logprob: logProbs[base + p - 1] as number }, top: entries };
	});
}
