/**
 * Shared-prefix reuse for scoring: a causal LM's surprisal of a token depends only on the tokens
 * before it, so when a sequence begins like an earlier one (the conditions of a SyntaxGym item),
 * the earlier sequence's key/value cache covers the shared positions and only the continuation
 * runs. The first token where they differ is scored by the earlier sequence at its position
 * before it (an extra target beside its own next token), so the whole shared prefix is borrowed.
 * This module plans that reuse (which sequence borrows from which, in which order, what each
 * parent keeps and scores for its children) and builds the continuation batches' inputs (past
 * lengths padded and masked, explicit positions, K targets per position). A sequence's last token is fed only when a row asks for it (`feedsLast`:
 * its distribution gives the word-boundary probability after the text); otherwise its logits would
 * predict nothing and no child needs its cache. Pure arrays; running the model and holding caches
 * is the worker's.
 */
import { BenchtopError } from '../errors';
import type { BatchGroup } from './plan-batches';

export interface PrefixReuseOptions {
	/**
	 * Fewest cached positions worth borrowing; a sequence that would reuse fewer runs whole.
	 * Default 2 (a shared BOS alone is not worth a cache).
	 */
	readonly minReusedPositions?: number;
	/**
	 * Sequences per round. Parents and children are always in the same round and caches live
	 * for one round, so this bounds the memory held in caches. Default 128.
	 */
	readonly maxSequencesPerRound?: number;
}

/** A sequence that borrows the first `reusedPositions` positions of `parent`'s cache. */
export interface PrefixLink {
	readonly parent: number;
	/**
	 * P: cached positions taken from the parent: the whole shared prefix c, but at most L − 1
	 * (the sequence's own length less one) and L_parent − 1 (the parent does not feed its last
	 * token). P ≥ 1.
	 */
	readonly reusedPositions: number;
	/**
	 * The sequence's token P differs from the parent's (P = c): the parent scores it at its
	 * position P − 1, as an extra target beside its own (see `PrefixPlan.extraTargets`). False
	 * when the sequence's token P is the parent's own, already scored.
	 */
	readonly scoredByParent: boolean;
}

/** A token a parent scores for a child at one of its positions (beside its own next token). */
export interface ExtraTarget {
	/** The parent's position whose distribution predicts the child's token (absolute). */
	readonly position: number;
	readonly tokenId: number;
	/** The child sequence's index. */
	readonly child: number;
}

export interface PrefixPlan {
	/** Per sequence (input order): its link, or null when it runs whole. */
	readonly links: readonly (PrefixLink | null)[];
	/** Per sequence: how many leading positions of its cache children need (0: keep none). */
	readonly keepPositions: readonly number[];
	/** Per sequence: the children's tokens it scores beside its own (empty for most). */
	readonly extraTargets: readonly (readonly ExtraTarget[])[];
	/**
	 * Rounds in input order; each round is a list of waves, each wave the sequences (indices)
	 * whose parents ran in an earlier wave of the round. Wave 0 holds the round's roots.
	 * Empty sequences are in no wave.
	 */
	readonly rounds: readonly (readonly (readonly number[])[])[];
	/** Σ L: positions of the sequences. */
	readonly tokens: number;
	/** Σ (L − 1 − P): positions that run through the model, before padding. */
	readonly positionsToRun: number;
}

interface TrieNode {
	/** The first sequence (of the round) that passed through this node. */
	readonly owner: number;
	readonly children: Map<number, TrieNode>;
}

/**
 * Plans shared-prefix reuse over `sequences` (model input ids, special tokens included).
 * Sequences are taken in input order and cut into rounds of at most `maxSequencesPerRound`.
 * Each sequence looks for the longest prefix it shares (c tokens) with an earlier sequence of
 * its round (the first one to have it); with P = min(c, L) − 1 ≥ minReusedPositions it links to
 * that sequence and reuses P positions. Deterministic.
 */
export function planPrefixReuse(
	sequences: readonly (readonly number[])[],
	options: PrefixReuseOptions = {},
): PrefixPlan {
	const minReused = options.minReusedPositions ?? 2;
	const perRound = options.maxSequencesPerRound ?? 128;
	if (!(minReused >= 1) || !(perRound >= 1)) {
		throw new BenchtopError(
			`Prefix reuse needs minReusedPositions ≥ 1 and maxSequencesPerRound ≥ 1 (got ${minReused}, ${perRound}).`,
		);
	}
	const links: (PrefixLink | null)[] = sequences.map(() => null);
	const keepPositions: number[] = sequences.map(() => 0);
	const extraTargets: ExtraTarget[][] = sequences.map(() => []);
	const depth: number[] = sequences.map(() => 0);
	/** Sequences that may run nothing (their last token scored by the parent, the rest borrowed):
	 * they hold no cache, so no later sequence borrows from them. */
	const runsNothing: boolean[] = sequences.map(() => false);
	const rounds: number[][][] = [];
	let tokens = 0;
	let positionsToRun = 0;

	for (let start = 0; start < sequences.length; start += perRound) {
		const end = Math.min(sequences.length, start + perRound);
		const root: TrieNode = { owner: -1, children: new Map() };
		const waves: number[][] = [];
		for (let index = start; index < end; index++) {
			const ids = sequences[index] ?? [];
			tokens += ids.length;
			if (ids.length === 0) continue;
			// Walk the trie as far as the sequence goes, then add the rest of it.
			let node = root;
			let shared = 0;
			for (const id of ids) {
				const next = node.children.get(id);
				if (!next || runsNothing[next.owner] === true) break;
				node = next;
				shared++;
			}
			const parentLength = node === root ? 0 : (sequences[node.owner]?.length ?? 0);
			const reused = Math.min(shared, ids.length - 1, parentLength - 1);
			if (node !== root && reused >= minReused) {
				// The first sequence through the deepest shared node ran that node's position
				// itself (it had no earlier sequence to borrow it from), so it can score ours.
				const scoredByParent = reused === shared;
				links[index] = { parent: node.owner, reusedPositions: reused, scoredByParent };
				if (scoredByParent) {
					extraTargets[node.owner]?.push({
						position: reused - 1,
						tokenId: ids[reused] as number,
						child: index,
					});
				}
				keepPositions[node.owner] = Math.max(keepPositions[node.owner] ?? 0, reused);
				runsNothing[index] = scoredByParent && reused === ids.length - 1;
				depth[index] = (depth[node.owner] ?? 0) + 1;
				positionsToRun += ids.length - 1 - reused;
			} else {
				positionsToRun += ids.length - 1;
			}
			for (let t = shared; t < ids.length; t++) {
				const child: TrieNode = { owner: index, children: new Map() };
				node.children.set(ids[t] as number, child);
				node = child;
			}
			const wave = depth[index] ?? 0;
			while (waves.length <= wave) waves.push([]);
			waves[wave]?.push(index);
		}
		if (waves.length > 0) rounds.push(waves);
	}
	return { links, keepPositions, extraTargets, rounds, tokens, positionsToRun };
}

/** One row of a continuation batch: the tokens after the reused positions. */
export interface ContinuationRow {
	/** Index of the sequence in the planned list. */
	readonly sequenceIndex: number;
	/** P: cached positions before the row (0 for a sequence that runs whole). */
	readonly pastLength: number;
	/** The sequence from position P on: all but the last are fed, each predicting the next. */
	readonly ids: readonly number[];
	/**
	 * Feed the last id too (its position predicts nothing, but its distribution gives the
	 * word-boundary probability after the text). A row with a past and one id left (its parent
	 * covers all but its last token: a duplicate or a prefix of the parent) still feeds nothing:
	 * the parent ran that position. Default false.
	 */
	readonly feedsLast?: boolean;
	/** The row's first id is not the parent's token there (`PrefixLink.scoredByParent`): with
	 * `feedsLast`, a row with one id left then feeds it (the parent never ran that token). */
	readonly scoredByParent?: boolean;
	/** Children's tokens this row scores beside its own: `at` is the row's position (0-based,
	 * after the past) whose distribution predicts `tokenId`. */
	readonly extraTargets?: readonly RowExtraTarget[];
}

/** An extra target of a row (see `ContinuationRow.extraTargets`). */
export interface RowExtraTarget {
	readonly at: number;
	readonly tokenId: number;
	readonly child: number;
}

/** Positions a row feeds to the model: its ids but the last, or with `feedsLast` all of them
 * (none when a past covers all but the last and the last is the parent's token). */
export function continuationLength(row: ContinuationRow): number {
	const { ids, pastLength, feedsLast } = row;
	if (feedsLast !== true) return Math.max(0, ids.length - 1);
	return pastLength > 0 && ids.length <= 1 && row.scoredByParent !== true ? 0 : ids.length;
}

/**
 * Where each extra target of `row` sits in the targets tensor's last axis: slot 0 is the row's
 * own next token, extras at the same position take slots 1, 2, … in order.
 */
export function extraTargetSlots(row: ContinuationRow): {
	readonly at: number;
	readonly slot: number;
	readonly tokenId: number;
	readonly child: number;
}[] {
	const used = new Map<number, number>();
	return (row.extraTargets ?? []).map((extra) => {
		const slot = (used.get(extra.at) ?? 0) + 1;
		used.set(extra.at, slot);
		return { ...extra, slot };
	});
}

/** The tensors of one continuation forward pass (past caches are filled by the worker). */
export interface ContinuationInputs {
	readonly batchSize: number;
	/** S: continuation positions per row, right-padded. */
	readonly sequenceLength: number;
	/** P_max: past positions per row; row b's real past is its first P_b, the rest is masked. */
	readonly pastLength: number;
	/** Positions fed per row (`continuationLength`), every one of them scored. */
	readonly lengths: Int32Array;
	/** Real positions fed (Σ lengths). */
	readonly tokenCount: number;
	/** `[B, S]` int64: ids, then the pad id. */
	readonly inputIds: BigInt64Array;
	/** `[B, P_max + S]` int64: 1 on the row's past and its real tokens, 0 elsewhere. */
	readonly attentionMask: BigInt64Array;
	/** `[B, S]` int64: P_b + t (padding continues the count; real tokens never attend to it). */
	readonly positionIds: BigInt64Array;
	/** K: targets per position (1 + the most extra targets at one position of a row). */
	readonly targetsPerPosition: number;
	/** `[B, S, K]` int64: slot 0 the next token's id (0 on padding and on a fed last token),
	 * slots 1… the rows' extra targets (`extraTargetSlots`), 0 where unused. */
	readonly targets: BigInt64Array;
}

/**
 * Builds a continuation batch, padded to at least `minSequenceLength` and `minPastLength`
 * (shape buckets). Padding positions never pass `maxPositions − 1`. Throws BenchtopError for a
 * row with nothing to feed.
 */
export function buildContinuationInputs(
	rows: readonly ContinuationRow[],
	padTokenId: number,
	minSequenceLength = 0,
	minPastLength = 0,
	maxPositions = Number.POSITIVE_INFINITY,
): ContinuationInputs {
	const batchSize = rows.length;
	const sequenceLength = Math.max(minSequenceLength, ...rows.map(continuationLength));
	const pastLength = Math.max(minPastLength, ...rows.map((r) => r.pastLength));
	const width = pastLength + sequenceLength;
	const inputIds = new BigInt64Array(batchSize * sequenceLength).fill(BigInt(padTokenId));
	const attentionMask = new BigInt64Array(batchSize * width);
	const positionIds = new BigInt64Array(batchSize * sequenceLength);
	const slots = rows.map(extraTargetSlots);
	const targetsPerPosition = 1 + Math.max(0, ...slots.flat().map((extra) => extra.slot));
	const targets = new BigInt64Array(batchSize * sequenceLength * targetsPerPosition);
	const lengths = new Int32Array(batchSize);
	let tokenCount = 0;
	rows.forEach((row, b) => {
		const { ids, pastLength: past } = row;
		const length = continuationLength(row);
		if (length === 0 || past < 0) {
			throw new BenchtopError(
				`Sequence ${row.sequenceIndex} has nothing left to score after ${past} positions.`,
			);
		}
		lengths[b] = length;
		tokenCount += length;
		const base = b * sequenceLength;
		for (let k = 0; k < past; k++) attentionMask[b * width + k] = 1n;
		for (let t = 0; t < sequenceLength; t++) {
			const position = t < length ? past + t : Math.min(past + t, maxPositions - 1);
			positionIds[base + t] = BigInt(position);
		}
		for (let t = 0; t < length; t++) {
			inputIds[base + t] = BigInt(ids[t] ?? padTokenId);
			attentionMask[b * width + pastLength + t] = 1n;
			targets[(base + t) * targetsPerPosition] = BigInt(ids[t + 1] ?? 0);
		}
		for (const extra of slots[b] ?? []) {
			if (extra.at < 0 || extra.at >= length) {
				throw new BenchtopError(
					`Sequence ${row.sequenceIndex} cannot score a token at position ${extra.at} of ${length}.`,
				);
			}
			targets[(base + extra.at) * targetsPerPosition + extra.slot] = BigInt(extra.tokenId);
		}
	});
	return {
		batchSize,
		sequenceLength,
		pastLength,
		lengths,
		tokenCount,
		inputIds,
		attentionMask,
		positionIds,
		targetsPerPosition,
		targets,
	};
}

/**
 * A sequence's surprisals (bits, position 0 gets 0) from its parent's and its continuation's
 * log-probs in nats. Positions 0…P − 1 are the parent's (same tokens, same left context);
 * position P is `firstBits` when the parent scored the sequence's own token there as an extra
 * target (`PrefixLink.scoredByParent`), else the parent's too; position p > P reads
 * `logProbs[(rowOffset + p − P − 1) · stride]` (= log p(token p); stride K: the targets per
 * position, slot 0). Nothing is read from `logProbs` when P + 1 = length.
 */
export function joinSurprisals(
	length: number,
	reusedPositions: number,
	parentBits: Float64Array | undefined,
	logProbs: Float32Array | Float64Array,
	rowOffset: number,
	stride = 1,
	firstBits?: number,
): Float64Array {
	const bits = new Float64Array(length);
	if (reusedPositions > 0) {
		const needed = firstBits === undefined ? reusedPositions + 1 : reusedPositions;
		if (!parentBits || parentBits.length < needed) {
			throw new BenchtopError(
				`The parent's surprisals (${parentBits?.length ?? 0}) do not cover ${needed} positions.`,
			);
		}
		bits.set(parentBits.subarray(0, reusedPositions));
		if (reusedPositions < length)
			bits[reusedPositions] = firstBits ?? (parentBits[reusedPositions] as number);
	}
	for (let p = reusedPositions + 1; p < length; p++) {
		bits[p] = -(logProbs[(rowOffset + p - reusedPositions - 1) * stride] as number) / Math.LN2;
	}
	return bits;
}

/**
 * A sequence's boundary surprisals (bits; position p: −log₂ P(the token after p starts a word |
 * tokens 0…p)) from its parent's and its continuation's boundary log-probs in nats. The first
 * `fromParent` positions are the parent's (same tokens, same left context): P for a row that
 * ran, the whole length for a row its parent covers (nothing ran). Position p ≥ fromParent reads
 * `logProbs[rowOffset + p − fromParent]`. With fromParent = 0 and no parent this is a plain row.
 */
export function joinBoundarySurprisals(
	length: number,
	fromParent: number,
	parentBits: Float64Array | undefined,
	logProbs: Float32Array | Float64Array,
	rowOffset: number,
): Float64Array {
	const bits = new Float64Array(length);
	if (fromParent > 0) {
		if (!parentBits || parentBits.length < fromParent) {
			throw new BenchtopError(
				`The parent's boundary surprisals (${parentBits?.length ?? 0}) do not cover ${fromParent} positions.`,
			);
		}
		bits.set(parentBits.subarray(0, fromParent));
	}
	for (let p = fromParent; p < length; p++) {
		bits[p] = -(logProbs[rowOffset + p - fromParent] as number) / Math.LN2;
	}
	return bits;
}

/**
 * Sequences per round for caches of `bytesPerPosition` (all past inputs of one position): caches
 * live for one round, so about 256 MiB of them at ~48 kept positions per sequence; 8 to 256.
 */
export function sequencesPerRound(bytesPerPosition: number): number {
	return Math.max(
		8,
		Math.min(256, Math.floor((256 * 1024 * 1024) / Math.max(1, bytesPerPosition * 48))),
	);
}

/**
 * The continuation rows of one wave (`PrefixPlan.rounds`): each sequence after the positions it
 * borrows, with its parent's link and the children's tokens it scores (`at` relative to its
 * past). `feedsLast` for word-boundary runs (see `ContinuationRow.feedsLast`).
 */
export function continuationRowsOf(
	plan: PrefixPlan,
	sequences: readonly (readonly number[])[],
	wave: readonly number[],
	feedsLast: boolean,
): ContinuationRow[] {
	return wave.map((sequenceIndex) => {
		const link = plan.links[sequenceIndex];
		const past = link?.reusedPositions ?? 0;
		const ids = sequences[sequenceIndex] ?? [];
		const extras = plan.extraTargets[sequenceIndex] ?? [];
		return {
			sequenceIndex,
			pastLength: past,
			ids: ids.slice(past),
			...(feedsLast ? { feedsLast: true } : {}),
			...(link?.scoredByParent ? { scoredByParent: true } : {}),
			...(extras.length > 0
				? {
						extraTargets: extras.map(({ position, tokenId, child }) => ({
							at: position - past,
							tokenId,
							child,
						})),
					}
				: {}),
		};
	});
}

/**
 * `groups` (planned over the rows' continuation lengths, indices into `rows`) with every batch
 * whose longest past plus its length would pass `maxPositions` cut into single rows.
 */
export function splitOverlongBatches(
	groups: readonly BatchGroup[],
	rows: readonly ContinuationRow[],
	maxPositions: number,
): BatchGroup[] {
	return groups.flatMap((group) => {
		const past = Math.max(...group.sequenceIndices.map((i) => rows[i]?.pastLength ?? 0));
		if (past + group.sequenceLength <= maxPositions) return [group];
		return group.sequenceIndices.map((i) => ({
			sequenceIndices: [i],
			sequenceLength: rows[i] ? continuationLength(rows[i]) : 1,
		}));
	});
}
