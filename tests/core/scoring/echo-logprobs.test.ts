import { describe, expect, it } from 'vitest';
import {
	echoLogprobsFromScoredTokens,
	scoredTokensFromEcho,
} from '../../../src/core/scoring/echo-logprobs';
import type { ScoredToken } from '../../../src/core/scoring/scored-token';

const fail = (why: string) => new Error(why);
const LN2 = Math.LN2;

describe('scoredTokensFromEcho', () => {
	it('reads vLLM echo logprobs: offsets, bits, first null as 0 bits', () => {
		const tokens = scoredTokensFromEcho(
			{ tokens: ['The', ' cat'], token_logprobs: [null, -LN2 * 3], text_offset: [0, 3] },
			{ prefix: '', text: 'The cat', suffix: '' },
			fail,
		);
		expect(tokens).toEqual([
			{ token: 'The', surprisalBits: 0, start: 0, end: 3 },
			{ token: ' cat', surprisalBits: 3, start: 3, end: 7 },
		]);
	});

	it('marks our BOS prefix and EOS suffix special, with empty spans at the edges', () => {
		const tokens = scoredTokensFromEcho(
			{
				tokens: ['<|endoftext|>', 'Hi', '<|endoftext|>'],
				token_logprobs: [null, -LN2, -LN2 * 2],
				text_offset: [0, 13, 15],
			},
			{ prefix: '<|endoftext|>', text: 'Hi', suffix: '<|endoftext|>' },
			fail,
		);
		expect(tokens).toEqual([
			{ token: '<|endoftext|>', surprisalBits: 0, start: 0, end: 0, special: true },
			{ token: 'Hi', surprisalBits: 1, start: 0, end: 2 },
			{ token: '<|endoftext|>', surprisalBits: 2, start: 2, end: 2, special: true },
		]);
	});

	it('treats a BOS the server added itself as special and shifts offsets by its text', () => {
		const tokens = scoredTokensFromEcho(
			{ tokens: ['<s>', 'Hi', '!'], token_logprobs: [null, -LN2, -LN2], text_offset: [0, 3, 5] },
			{ prefix: '', text: 'Hi!', suffix: '' },
			fail,
		);
		expect(tokens.map((t) => [t.token, t.start, t.end, t.special ?? false])).toEqual([
			['<s>', 0, 0, true],
			['Hi', 0, 2, false],
			['!', 2, 3, false],
		]);
	});

	it.each([
		['no logprobs', null],
		['lengths differ', { tokens: ['a'], token_logprobs: [null, -1], text_offset: [0] }],
	])('cannot score when %s', (_what, logprobs) => {
		expect(() =>
			scoredTokensFromEcho(logprobs, { prefix: '', text: 'a', suffix: '' }, fail),
		).toThrow();
	});
});

describe('echoLogprobsFromScoredTokens', () => {
	it('writes natural logs, a null first entry and running text offsets', () => {
		const json = echoLogprobsFromScoredTokens('The cat', [
			{ token: 'The', surprisalBits: 0, start: 0, end: 3 },
			{ token: 'Ġcat', surprisalBits: 2, start: 3, end: 7 },
		]);
		expect(json).toEqual({
			tokens: ['The', ' cat'],
			token_logprobs: [null, -2 * LN2],
			top_logprobs: [null, { ' cat': -2 * LN2 }],
			text_offset: [0, 3],
		});
	});

	it('round-trips a character split over two byte-level tokens', () => {
		const text = 'Zü!';
		const engine: ScoredToken[] = [
			{ token: 'Z', surprisalBits: 0, start: 0, end: 1 },
			{ token: 'Ã', surprisalBits: 5, start: 1, end: 2 },
			{ token: '¼', surprisalBits: 0.5, start: 1, end: 2 },
			{ token: '!', surprisalBits: 3, start: 2, end: 3 },
		];
		const json = echoLogprobsFromScoredTokens(text, engine);
		expect(json.tokens).toEqual(['Z', '', 'ü', '!']);
		expect(json.text_offset).toEqual([0, 1, 1, 2]);
		const back = scoredTokensFromEcho(json, { prefix: '', text, suffix: '' }, fail);
		expect(back.map((t) => [t.start, t.end])).toEqual(engine.map((t) => [t.start, t.end]));
		back.forEach((t, i) =>
			expect(t.surprisalBits).toBeCloseTo(engine[i]?.surprisalBits ?? NaN, 12),
		);
	});
});
