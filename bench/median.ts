/** The middle item of `items` ordered by `key` (the upper one of an even count). */
export function medianBy<T>(items: readonly T[], key: (item: T) => number): T | undefined {
	return [...items].sort((a, b) => key(a) - key(b))[Math.floor(items.length / 2)];
}
