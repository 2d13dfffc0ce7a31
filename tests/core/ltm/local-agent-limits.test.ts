// A bundled agent's limits within its positions: new tokens (an eighth at most, or the user's
// number), the history kept (less 16 for the chat rendering) and the largest filler message.
import { describe, expect, it } from 'vitest';
import { LOCAL_AGENT_LIMITS, localAgentLimits } from '../../../src/core/ltm/local-agent-limits';

describe('localAgentLimits', () => {
	it.each([
		// positions, user's max new tokens → new tokens, history kept, largest filler message
		[1024, null, 32, 380, 150],
		[512, null, 32, 380, 150],
		[128, null, 16, 96, 48],
		[128, 8, 8, 104, 52],
		[1024, 200, 128, 380, 150],
		// Too few positions: at least one new token and 16 of history.
		[8, null, 1, 16, 8],
		[0, 0, 1, 16, 8],
	])('%i positions, max new %s', (positions, user, newTokens, context, message) => {
		expect(localAgentLimits(positions, user)).toEqual({
			maxNewTokens: newTokens,
			maxContextTokens: context,
			maxMessageTokens: message,
		});
	});

	it('never passes the limits of the CLI README, however many positions', () => {
		const limits = localAgentLimits(1_000_000, null);
		expect(limits.maxNewTokens).toBe(LOCAL_AGENT_LIMITS.maxNewTokens);
		expect(limits.maxContextTokens).toBe(LOCAL_AGENT_LIMITS.maxContextTokens);
		expect(limits.maxMessageTokens).toBe(LOCAL_AGENT_LIMITS.maxMessageTokens);
	});

	it('keeps a prompt and its reply within the positions (from 64 up)', () => {
		for (const positions of [64, 100, 128, 256, 300, 512]) {
			for (const user of [null, 1, 16, 64]) {
				const limits = localAgentLimits(positions, user);
				expect(limits.maxContextTokens + limits.maxNewTokens + 16).toBeLessThanOrEqual(positions);
				expect(limits.maxMessageTokens * 2).toBeLessThanOrEqual(limits.maxContextTokens);
			}
		}
	});
});
