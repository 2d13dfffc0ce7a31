/**
 * A count with its noun in the right number ("1 prediction", "2 predictions"). English, regular
 * plurals unless given. Pure.
 */

/** `count` and `noun`, plural unless the count is exactly 1; `plural` for irregular nouns. */
export function formatCount(count: number, noun: string, plural = `${noun}s`): string {
	return `${count} ${count === 1 ? noun : plural}`;
}
