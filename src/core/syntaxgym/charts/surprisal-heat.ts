/**
 * The heat strip's scale: surprisal in bits → intensity in [0, 1]. The scale is shared by all
 * sentences of an item so their colours compare. Pure; colours themselves are CSS.
 */

/** Bits at which the strip saturates when the data give no larger value. */
export const MIN_HEAT_SCALE_BITS = 4;

/**
 * The saturation point for a set of surprisals: the largest finite value, rounded up to a whole
 * bit, at least MIN_HEAT_SCALE_BITS.
 */
export function heatScaleBits(surprisalsBits: Iterable<number>): number {
	let max = 0;
	for (const bits of surprisalsBits) if (Number.isFinite(bits) && bits > max) max = bits;
	return Math.max(MIN_HEAT_SCALE_BITS, Math.ceil(max));
}

/** Intensity in [0, 1] of `bits` on a scale saturating at `scaleBits`; NaN → 0, +∞ → 1. */
export function heatIntensity(bits: number, scaleBits: number): number {
	if (Number.isNaN(bits) || bits <= 0 || scaleBits <= 0) return 0;
	return Math.min(1, bits / scaleBits);
}

/** The intensity quantised to one of `steps` CSS classes (0 … steps-1). */
export function heatLevel(bits: number, scaleBits: number, steps = 10): number {
	return Math.min(steps - 1, Math.floor(heatIntensity(bits, scaleBits) * steps));
}
