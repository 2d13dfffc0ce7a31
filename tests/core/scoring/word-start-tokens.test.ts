import { describe, expect, it } from 'vitest';
import {
	findWordStartTokens,
	readLstripAddedTokenIds,
	type WordStartVocabulary,
} from '../../../src/core/scoring/word-start-tokens';

// Small hand-made vocabularies in the tokenizers' own spellings.
const BYTE_LEVEL = ['<|endoftext|>', 'Ġ', 'Ġcat', 'cat', '.', 'Ċ', 'ĠĊ', 'ĊĊ', 'ĉ', 'Ġ.', 's'];
const SENTENCEPIECE = ['<unk>', '<s>', '</s>', '▁', '▁the', 'the', '<0x0A>', '▁▁', 'ing'];

describe('findWordStartTokens', () => {
	it.each<[string, WordStartVocabulary, string, number[]]>([
		[
			'byte-level BPE: Ġ-tokens only (not Ċ, ĊĊ, ĉ, punctuation, EOS)',
			{
				idToToken: BYTE_LEVEL,
				vocabSize: BYTE_LEVEL.length,
				spaceTokenIds: [1],
				bosToken: '<|endoftext|>',
				eosToken: '<|endoftext|>',
			},
			'Ġ',
			[1, 2, 6, 9],
		],
		[
			'SentencePiece: ▁-tokens only (not <s>, </s>, byte tokens)',
			{
				idToToken: SENTENCEPIECE,
				vocabSize: SENTENCEPIECE.length,
				spaceTokenIds: [3],
				bosToken: '<s>',
				eosToken: '</s>',
			},
			'▁',
			[3, 4, 7],
		],
		[
			'the marker is the first character of the first space id (a two-token space)',
			{ idToToken: SENTENCEPIECE, vocabSize: SENTENCEPIECE.length, spaceTokenIds: [7, 3] },
			'▁',
			[3, 4, 7],
		],
		[
			'lstrip added tokens start a word; ids beyond the logits are left out',
			{
				idToToken: [...BYTE_LEVEL, 'Ġextra'],
				vocabSize: BYTE_LEVEL.length,
				spaceTokenIds: [1],
				lstripTokenIds: [0, 4, 99],
			},
			'Ġ',
			[0, 1, 2, 4, 6, 9],
		],
		[
			'ids without a string (padding rows of the logits) start no word',
			{ idToToken: ['Ġa', undefined, 'b', 'Ġc'], vocabSize: 8, spaceTokenIds: [0] },
			'Ġ',
			[0, 3],
		],
	])('%s', (_label, vocabulary, marker, ids) => {
		expect(findWordStartTokens(vocabulary)).toEqual({ ok: true, marker, ids });
	});

	it.each<[string, WordStartVocabulary, RegExp]>([
		['no space token', { idToToken: BYTE_LEVEL, vocabSize: 11, spaceTokenIds: [] }, /no token/],
		[
			'a space token that starts with the BOS token',
			{ idToToken: ['<', 'a'], vocabSize: 2, spaceTokenIds: [0], bosToken: '<' },
			/BOS/,
		],
		[
			'a space token that starts with the EOS token',
			{ idToToken: ['|', 'a'], vocabSize: 2, spaceTokenIds: [0], eosToken: '|' },
			/EOS/,
		],
	])('no marker: %s', (_label, vocabulary, reason) => {
		const result = findWordStartTokens(vocabulary);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.reason).toMatch(reason);
	});
});

describe('readLstripAddedTokenIds', () => {
	it.each<[string, unknown, number[]]>([
		[
			'the lstrip entries of added_tokens',
			{
				added_tokens: [
					{ id: 0, content: '<|endoftext|>', lstrip: false },
					{ id: 5, content: '<mask>', lstrip: true },
					{ id: 'x', lstrip: true },
					null,
				],
			},
			[5],
		],
		['no added_tokens', { model: {} }, []],
		['not an object', 'tokenizer', []],
	])('%s', (_label, json, ids) => {
		expect(readLstripAddedTokenIds(json)).toEqual(ids);
	});
});
