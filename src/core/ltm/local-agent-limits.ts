/**
 * What the Memory page lets a bundled (local) agent take within its few positions: new tokens,
 * the history kept and the largest filler message. Pure.
 */

/** A local agent's limits, in tokens. */
export interface LocalAgentLimits {
	readonly maxNewTokens: number;
	readonly maxContextTokens: number;
	readonly maxMessageTokens: number;
}

/** Limits a bundled model's small context needs (the CLI README's settings for 512 positions). */
export const LOCAL_AGENT_LIMITS = {
	maxNewTokens: 32,
	maxContextTokens: 380,
	maxMessageTokens: 150,
} as const;

/**
 * What a bundled model with `maxPositions` positions can take: new tokens (at most an eighth of
 * them, or the user's number if smaller), the history kept (what is left less 16 for the chat
 * rendering) and the largest filler message (half of the history).
 */
export function localAgentLimits(
	maxPositions: number,
	maxNewTokens: number | null,
): { maxNewTokens: number; maxContextTokens: number; maxMessageTokens: number } {
	const newTokens = Math.max(
		1,
		Math.min(maxNewTokens ?? LOCAL_AGENT_LIMITS.maxNewTokens, Math.floor(maxPositions / 8)),
	);
	const context = Math.min(
		LOCAL_AGENT_LIMITS.maxContextTokens,
		Math.max(16, maxPositions - newTokens - 16),
	);
	return {
		maxNewTokens: newTokens,
		maxContextTokens: context,
		maxMessageTokens: Math.min(LOCAL_AGENT_LIMITS.maxMessageTokens, Math.floor(context / 2)),
	};
}
