/**
 * Scoring in plain batches (each sequence whole, no past): the batch loop, and the ScoringRun
 * contract it shares with the prefix-reuse runner (limits, cancel, finishing texts, progress).
 */
import type { BatchLimits } from '../core/surprisal/plan-batches';
import { buildBatchInputs, planBatches } from '../core/surprisal/plan-batches';
import { joinBoundarySurprisals } from '../core/surprisal/prefix-plan';
import { readReducedLogProbs, surprisalsBitsForRow } from '../core/surprisal/surprisal-from-logits';
import { throwIfCancelled } from './engine';
import type { ForwardPass } from './forward-pass';
import { nextMacrotask } from './generate-text';
import type { LoadedModel } from './loaded-model';
import type { ScoredText } from './protocol';

/** What the scoring loops share: batch limits, cancel signal, and what to do with results. */
export interface ScoringRun {
	readonly limits: BatchLimits;
	readonly signal: AbortSignal | undefined;
	/** Also compute every position's boundary surprisal (the last token is then run too). */
	readonly wordBoundaries: boolean;
	/** Turns a sequence's surprisals (and boundary surprisals, when asked) into its ScoredText
	 * (and records it). */
	finish(index: number, bits: Float64Array, boundaryBits?: Float64Array): ScoredText;
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
		const feeds = pass.feeds(model, { ...inputs, pastLength: 0 }, run.wordBoundaries);
		pass.feedEmptyPasts(model, feeds, b);
		const reduced = await pass.run(model, feeds, [], run.wordBoundaries);
		const rows = b * s;
		if (logProbs.length < rows) logProbs = new Float64Array(rows);
		readReducedLogProbs(reduced.logProbs, inputs, inputs.lengths, logProbs);
		const batch = inputs.sequenceIndices.map((index, row) => {
			const length = inputs.lengths[row] ?? 0;
			const bits = surprisalsBitsForRow(logProbs, row, s, length);
			const boundary = reduced.boundaryLogProbs;
			return boundary
				? run.finish(index, bits, joinBoundarySurprisals(length, 0, undefined, boundary, row * s))
				: run.finish(index, bits);
		});
		run.report(batch, rows);
	}
}
