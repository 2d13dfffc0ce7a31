/**
 * Choosing the next token from logits: greedy (argmax) or sampled with temperature and top_p from
 * a seeded generator, so a seeded run samples the same tokens again. Pure.
 */

/** A uniform [0, 1) generator. */
export type RandomSource = () => number;

/** mulberry32: a small 32-bit seeded generator (same seed, same sequence on every platform). */
export function seededRandom(seed: number): RandomSource {
	let state = Math.trunc(seed) >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Index of the largest value (the first one on ties); -1 for an empty array. */
export function argmax(values: ArrayLike<number>): number {
	let best = -1;
	let bestValue = Number.NEGATIVE_INFINITY;
	for (let i = 0; i < values.length; i++) {
		const v = values[i] as number;
		if (v > bestValue || best < 0) {
			best = i;
			bestValue = v;
		}
	}
	return best;
}

export interface SamplingOptions {
	/** > 0 (0 is greedy and never reaches the sampler). */
	readonly temperature: number;
	/** Nucleus mass in (0, 1]; 1 keeps every token. */
	readonly topP: number;
	readonly random: RandomSource;
}

/**
 * Samples a token id from `logits`: softmax(logits / temperature), restricted to the smallest set
 * of most probable tokens whose mass reaches `topP` (ties by lower id first), renormalised.
 */
export function sampleToken(logits: ArrayLike<number>, options: SamplingOptions): number {
	const { temperature, topP, random } = options;
	if (!(temperature > 0)) return argmax(logits);
	const n = logits.length;
	let max = Number.NEGATIVE_INFINITY;
	for (let i = 0; i < n; i++) max = Math.max(max, logits[i] as number);
	const weights = new Float64Array(n);
	let total = 0;
	for (let i = 0; i < n; i++) {
		const w = Math.exp(((logits[i] as number) - max) / temperature);
		weights[i] = w;
		total += w;
	}
	if (topP >= 1) {
		let u = random() * total;
		for (let i = 0; i < n; i++) {
			u -= weights[i] as number;
			if (u < 0) return i;
		}
		return argmax(weights);
	}
	const order = Array.from({ length: n }, (_, i) => i).sort(
		(a, b) => (weights[b] as number) - (weights[a] as number) || a - b,
	);
	const target = Math.max(topP, 0) * total;
	let kept = 0;
	let mass = 0;
	while (kept < n && (kept === 0 || mass < target)) {
		mass += weights[order[kept] as number] as number;
		kept++;
	}
	let u = random() * mass;
	for (let k = 0; k < kept; k++) {
		const id = order[k] as number;
		u -= weights[id] as number;
		if (u < 0) return id;
	}
	return order[kept - 1] as number;
}

/**
 * OpenAI's frequency and presence penalties, in place: every token generated so far loses
 * `count × frequencyPenalty + presencePenalty` from its logit (`counts`: id → times generated).
 */
export function applyPenalties(
	logits: { [index: number]: number; readonly length: number },
	counts: ReadonlyMap<number, number>,
	frequencyPenalty: number,
	presencePenalty: number,
): void {
	for (const [id, count] of counts) {
		if (id < 0 || id >= logits.length || count <= 0) continue;
		logits[id] = (logits[id] as number) - count * frequencyPenalty - presencePenalty;
	}
}
