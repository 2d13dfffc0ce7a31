import { describe, expect, it } from 'vitest';
import { alignTokensByStrings } from '../../../../src/core/syntaxgym/alignment/align-tokens-by-strings';
import {
	DEFAULT_TOKENIZATION_SPEC,
	type TokenizationSpec,
} from '../../../../src/core/syntaxgym/alignment/tokenization-spec';
import { AlignmentError } from '../../../../src/core/errors';

/** lm-zoo spec of a word-level model (sg-eval's template): unk <unk>, EOS <eos>, cased. */
const WORD_SPEC: TokenizationSpec = {
	unkTypes: ['<unk>'],
	prefixTypes: [],
	suffixTypes: ['<eos>'],
	specialTypes: [],
	cased: true,
	sentinels: [],
	moses: false,
};

function regionsFrom(contents: readonly string[]) {
	return Object.freeze(contents.map((content, index) => ({ regionNumber: index + 1, content })));
}

function align(tokens: string, contents: readonly string[], spec = DEFAULT_TOKENIZATION_SPEC) {
	return alignTokensByStrings(Object.freeze(tokens.split(' ')), regionsFrom(contents), spec, {
		itemNumber: 2,
		conditionName: 'what',
		sentenceIndex: 3,
	});
}

describe('alignTokensByStrings: assignments', () => {
	it.each<[string, string, string[], number[][], TokenizationSpec?]>([
		[
			'word tokens with a final <eos>',
			'I know that our aunt grabbed <eos>',
			['I know that', 'our aunt', 'grabbed'],
			[
				[0, 1, 2],
				[3, 4],
				[5, 6],
			],
		],
		['punctuation split off', 'at the party . <eos>', ['at the party.'], [[0, 1, 2, 3, 4]]],
		[
			'GPT-2 sentinels across a punctuation region',
			'This Ġis Ġa Ġtest Ġsentence Ġ.',
			['This is a test sentence', '.'],
			[[0, 1, 2, 3, 4], [5]],
			DEFAULT_TOKENIZATION_SPEC,
		],
		[
			'Docker GPT-2: <|endoftext|> at both ends',
			'<|endoftext|> This Ġis <|endoftext|>',
			['This', 'is'],
			[
				[0, 1],
				[2, 3],
			],
			DEFAULT_TOKENIZATION_SPEC,
		],
		[
			'a BOS=EOS token at the end lands in an empty last region',
			'<|endoftext|> This Ġis <|endoftext|>',
			['This is', ''],
			[[0, 1, 2], [3]],
			DEFAULT_TOKENIZATION_SPEC,
		],
		['empty middle region', 'a b', ['a', '', 'b'], [[0], [], [1]]],
		[
			'empty first region keeps a leading BOS',
			'<s> a b',
			['', 'a', 'b'],
			[[0], [1], [2]],
			DEFAULT_TOKENIZATION_SPEC,
		],
		[
			'SentencePiece metaspace; a lone one goes with the next region',
			'▁The ▁dog ▁ s',
			['The dog', 's'],
			[
				[0, 1],
				[2, 3],
			],
			DEFAULT_TOKENIZATION_SPEC,
		],
		[
			'BERT continuation',
			'play ##ing fetch',
			['playing', 'fetch'],
			[[0, 1], [2]],
			DEFAULT_TOKENIZATION_SPEC,
		],
		['Moses split', 'well @-@ known', ['well-known'], [[0, 1, 2]], DEFAULT_TOKENIZATION_SPEC],
		[
			'lowercased text when not cased',
			'the dog barked',
			['The Dog', 'Barked'],
			[[0, 1], [2]],
			{ ...WORD_SPEC, cased: false },
		],
		[
			'special types go nowhere',
			'<pad> a <pad> b',
			['a', 'b'],
			[[1], [3]],
			{ ...WORD_SPEC, specialTypes: ['<pad>'] },
		],
		[
			'final sentinel (subword-nmt)',
			'wor@@ ld',
			['world'],
			[[0, 1]],
			{ ...WORD_SPEC, sentinels: [{ pattern: '@', position: 'final' }] },
		],
		[
			'drop_token_pattern skips dropped words, even at the end',
			'hello world',
			['hello ,', 'world .'],
			[[0], [1]],
			{ ...WORD_SPEC, dropTokenPattern: '[^A-Za-z]' },
		],
		[
			'special tokens after the EOS are allowed',
			'a <eos> <pad>',
			['a'],
			[[0, 1]],
			{
				...WORD_SPEC,
				specialTypes: ['<pad>'],
			},
		],
	])('%s', (_name, tokens, contents, expected, spec = WORD_SPEC) => {
		expect(align(tokens, contents, spec).regionTokens).toEqual(expected);
	});
});

describe('alignTokensByStrings: <unk> look-ahead', () => {
	it.each<[string, string, string[], number[][], string[][]]>([
		[
			'inside a region (syntaxgym-core test-unk)',
			'at the <unk> party . <eos>',
			['at the WEIRDSCARYWORD party.'],
			[[0, 1, 2, 3, 4, 5]],
			[['WEIRDSCARYWORD']],
		],
		[
			'resolved in the next region',
			'the <unk> ran',
			['the zorblax', 'ran'],
			[[0, 1], [2]],
			[['zorblax'], []],
		],
		[
			'consecutive unks',
			'the <unk> <unk> ran',
			['the foo bar', 'ran'],
			[[0, 1, 2], [3]],
			[['foo', 'bar'], []],
		],
		[
			'a word-like next token only matches at a word boundary (remand test)',
			'will <unk> and order',
			['will remand and order'],
			[[0, 1, 2, 3]],
			[['remand']],
		],
		[
			'nothing after the unk matches: the rest goes to the current region',
			'a b <unk> <eos>',
			['a b', 'zz yy', 'ww'],
			[[0, 1], [2, 3], []],
			[[], ['zz', 'yy', 'ww'], []],
		],
		['an unk that is the last token', 'a <unk>', ['a', 'zz'], [[0], [1]], [[], ['zz']]],
	])('%s', (_name, tokens, contents, expected, oovs) => {
		const result = align(tokens, contents, WORD_SPEC);
		expect(result.regionTokens).toEqual(expected);
		expect(result.oovs).toEqual(oovs);
	});

	it('the default spec knows <UNK>', () => {
		expect(align('the <UNK> ran', ['the zorblax ran']).oovs).toEqual([['zorblax']]);
	});
});

describe('alignTokensByStrings: mismatches are located errors', () => {
	it.each([
		[
			'a token that matches nothing',
			'a c',
			['a b'],
			'token 2 "c" does not match the text "b" of region 1',
		],
		[
			'tokens left after the text',
			'a b',
			['a'],
			'token 2 "b" is left over after the sentence text',
		],
		['text left after the tokens', 'a b', ['a b c'], '"c" is left unmatched'],
		[
			'a token after the EOS',
			'a <eos> b',
			['a b'],
			'token 3 "b" comes after the end-of-sentence token',
		],
		['a token after the last region', 'a b c', ['a', 'b'], 'token 3 "c" is left over'],
	])('%s', (_name, tokens, contents, message) => {
		const run = () => align(tokens, contents, WORD_SPEC);
		expect(run).toThrow(AlignmentError);
		expect(run).toThrow(message);
		expect(run).toThrow(/^item 2, condition "what" \(sentence 4\): /);
	});

	it('carries the sentence and token index', () => {
		try {
			align('a c', ['a b'], WORD_SPEC);
			expect.unreachable();
		} catch (error) {
			expect(error).toBeInstanceOf(AlignmentError);
			expect((error as AlignmentError).location).toEqual({ sentenceIndex: 3, tokenIndex: 1 });
		}
	});

	it('casing matters when cased', () => {
		expect(() => align('the dog', ['The dog'], WORD_SPEC)).toThrow(AlignmentError);
	});
});
