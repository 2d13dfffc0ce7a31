/**
 * A count with its noun in the right number ("1 prediction", "2 predictions") and a short list of
 * names. English, regular plurals unless given. Pure.
 */

/** `count` and `noun`, plural unless the count is exactly 1; `plural` for irregular nouns. */
export function formatCount(count: number, noun: string, plural = `${noun}s`): string {
	return `${count} ${count === 1 ? noun : plural}`;
}

/**
 * Names joined with commas, repeats dropped, and the rest counted past `shown`
 * (`a, b, c and 4 more`).
 */
export function formatNameList(names: readonly string[], shown = 3): string {
	const unique = [...new Set(names)];
	const head = unique.slice(0, shown).join(', ');
	const rest = unique.length - shown;
	return rest > 0 ? `${head} and ${rest} more` : head;
}
