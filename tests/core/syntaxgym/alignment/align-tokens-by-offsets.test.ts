import { describe, expect, it } from 'vitest';
import { alignTokensByOffsets } from '../../../../src/core/syntaxgym/alignment/align-tokens-by-offsets';
import { AlignmentError } from '../../../../src/core/errors';

/** Tokens as `text@start`, e.g. `Ġour@11`. */
function tokensFrom(spec: string): { token: string; start: number }[] {
	return spec.split(' ').map((part) => {
		const at = part.lastIndexOf('@');
		return { token: part.slice(0, at), start: Number(part.slice(at + 1)) };
	});
}

describe('alignTokensByOffsets', () => {
	// Sentence "I know that our aunt": region 1 "I know that" (edge 0), region 2 "our aunt"
	// (edge 11, the joining space).
	it.each([
		[
			'untrimmed GPT-2 offsets',
			'I@0 Ġknow@1 Ġthat@6 Ġour@11 Ġaunt@15',
			[0, 11],
			[
				[0, 1, 2],
				[3, 4],
			],
		],
		[
			'trimmed offsets',
			'I@0 know@2 that@7 our@12 aunt@16',
			[0, 11],
			[
				[0, 1, 2],
				[3, 4],
			],
		],
		[
			'BOS and EOS at (0, 0)',
			'<s>@0 I@0 Ġknow@1 Ġthat@6 Ġour@11 Ġaunt@15 </s>@0',
			[0, 11],
			[
				[0, 1, 2, 3],
				[4, 5, 6],
			],
		],
		[
			'EOS at the end offset',
			'I@0 Ġknow@1 Ġthat@6 Ġour@11 Ġaunt@15 <|endoftext|>@20',
			[0, 11],
			[
				[0, 1, 2],
				[3, 4, 5],
			],
		],
		// "a b" from regions "a", "", "b": edges 0, 1, 1.
		['empty middle region', 'a@0 Ġb@1', [0, 1, 1], [[0], [], [1]]],
		// "The dog ." from "The dog", ".": edges 0, 7.
		['punctuation region', 'The@0 Ġdog@3 Ġ.@7', [0, 7], [[0, 1], [2]]],
		['one region', 'a@0 Ġb@1 Ġc@3', [0], [[0, 1, 2]]],
		['no tokens', '', [0, 4], [[], []]],
	])('%s', (_name, tokens, edges, expected) => {
		const input = tokens === '' ? [] : tokensFrom(tokens);
		expect(alignTokensByOffsets(Object.freeze(input), Object.freeze(edges))).toEqual(expected);
	});

	it('rejects a token without an offset, naming the sentence and the token', () => {
		const run = () =>
			alignTokensByOffsets([{ token: 'a', start: 0 }, { token: 'Ġb' }], [0, 1], {
				itemNumber: 3,
				conditionName: 'what_gap',
				sentenceIndex: 8,
			});
		expect(run).toThrow(AlignmentError);
		expect(run).toThrow(
			'item 3, condition "what_gap" (sentence 9): token 2 "Ġb" has no character offset',
		);
	});

	it('rejects a sentence without regions', () => {
		expect(() => alignTokensByOffsets([{ token: 'a', start: 0 }], [])).toThrow(AlignmentError);
	});
});
