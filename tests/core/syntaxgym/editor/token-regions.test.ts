import { describe, expect, it } from 'vitest';
import { assignTokensToRegions } from '../../../../src/core/syntaxgym/editor/token-regions';
import type { ScoredToken } from '../../../../src/core/scoring/scored-token';
import { buildSentence } from '../../../../src/core/syntaxgym/suite/build-sentences';

function tokens(text: string, cuts: number[], special: string[] = []): ScoredToken[] {
	const out: ScoredToken[] = special.map((token) => ({
		token,
		surprisalBits: Number.NaN,
		special: true,
	}));
	for (let i = 0; i + 1 < cuts.length; i++) {
		const start = cuts[i]!;
		const end = cuts[i + 1]!;
		out.push({ token: text.slice(start, end), surprisalBits: Number.NaN, start, end });
	}
	return out;
}

const condition = {
	conditionName: 'c',
	regions: [
		{ regionNumber: 1, content: 'The keys' },
		{ regionNumber: 2, content: 'to the cabinet' },
		{ regionNumber: 3, content: 'are' },
	],
};
// "The keys to the cabinet are"
//  0   4    9  12  16      24

describe('assignTokensToRegions', () => {
	it('GPT-2 style tokens (leading space) land in the region their word starts', () => {
		const sentence = buildSentence(1, condition);
		const got = assignTokensToRegions(
			sentence,
			tokens(sentence.text, [0, 3, 8, 11, 15, 23, 27], ['<|endoftext|>']),
		);
		expect(got.map((t) => [t.text, t.regionNumber, t.crossesBoundary, t.special])).toEqual([
			['<|endoftext|>', null, false, true],
			['The', 1, false, false],
			[' keys', 1, false, false],
			[' to', 2, false, false],
			[' the', 2, false, false],
			[' cabinet', 2, false, false],
			[' are', 3, false, false],
		]);
	});

	it('flags a token that a region boundary splits', () => {
		const sentence = buildSentence(1, condition);
		// " cabinet are" as one token: starts in region 2, ends in region 3.
		const got = assignTokensToRegions(sentence, tokens(sentence.text, [0, 3, 8, 11, 15, 27]));
		expect(got.map((t) => [t.text, t.regionNumber, t.crossesBoundary])).toEqual([
			['The', 1, false],
			[' keys', 1, false],
			[' to', 2, false],
			[' the', 2, false],
			[' cabinet are', 2, true],
		]);
	});

	it('keeps tokens without offsets, unassigned', () => {
		const sentence = buildSentence(1, condition);
		const got = assignTokensToRegions(sentence, [{ token: 'x', surprisalBits: 1 }]);
		expect(got).toEqual([
			{ text: 'x', regionNumber: null, crossesBoundary: false, special: false },
		]);
	});
});
