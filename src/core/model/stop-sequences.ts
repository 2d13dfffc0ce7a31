/**
 * Stop sequences while text streams in: where the completion ends, and how much of the text so far
 * can be shown without showing the start of a stop sequence that the next token may complete. Pure.
 */

/** The earliest index at which any stop sequence starts in `text`, or -1. Empty stops are ignored. */
export function findStopIndex(text: string, stops: readonly string[]): number {
	let earliest = -1;
	for (const stop of stops) {
		if (stop === '') continue;
		const at = text.indexOf(stop);
		if (at >= 0 && (earliest < 0 || at < earliest)) earliest = at;
	}
	return earliest;
}

/**
 * How many characters of `text` are safe to emit: all of it, less a suffix that is a proper
 * prefix of a stop sequence, less a trailing U+FFFD (an incomplete UTF-8 character that the next
 * byte-level token completes).
 */
export function safeEmitLength(text: string, stops: readonly string[]): number {
	let end = text.length;
	while (end > 0 && text[end - 1] === '\uFFFD') end--;
	let held = 0;
	for (const stop of stops) {
		for (let k = Math.min(stop.length - 1, end); k > held; k--) {
			if (text.slice(end - k, end) === stop.slice(0, k)) {
				held = k;
				break;
			}
		}
	}
	return end - held;
}
