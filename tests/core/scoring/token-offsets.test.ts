import { describe, expect, it } from 'vitest';
import { TokenOffsetError } from '../../../src/core/errors';
import {
	computeTokenOffsets,
	decodeByteLevelToken,
	detectTokenizerKind,
	encodeByteLevelByte,
	readTokenizerFacts,
	verifySpansReassemble,
	type AddedToken,
	type TokenSpan,
	type TokenOffsetsInput,
} from '../../../src/core/scoring/token-offsets';

/** [start, end] for text tokens, [start, end, 'special'] for special ones. */
type Expected = readonly (readonly [number, number] | readonly [number, number, 'special'])[];

function expectSpans(spans: readonly TokenSpan[], expected: Expected): void {
	expect(spans.map((s) => (s.special ? [s.start, s.end, 'special'] : [s.start, s.end]))).toEqual(
		expected,
	);
}

function freeze<T extends object>(value: T): T {
	for (const inner of Object.values(value)) if (typeof inner === 'object') Object.freeze(inner);
	return Object.freeze(value);
}

function offsetError(run: () => unknown): TokenOffsetError {
	try {
		run();
	} catch (error) {
		expect(error).toBeInstanceOf(TokenOffsetError);
		return error as TokenOffsetError;
	}
	throw new Error('expected a TokenOffsetError');
}

const ENDOFTEXT: AddedToken = { id: 0, content: '<|endoftext|>', special: true };

describe('byte-level BPE table (GPT-2 bytes_to_unicode)', () => {
	it.each([
		[0x20, 'Ġ'],
		[0x0a, 'Ċ'],
		[0x00, 'Ā'],
		[0x7f, 'ġ'],
		[0x80, 'Ģ'],
		[0xad, 'Ń'],
		[0x41, 'A'],
		[0xe9, 'é'],
		[0xa1, '¡'],
	])('byte %i is %s', (byte, char) => {
		expect(encodeByteLevelByte(byte)).toBe(char);
		expect(Array.from(decodeByteLevelToken(char) ?? [])).toEqual([byte]);
	});

	it('maps the 256 bytes to 256 distinct characters and back', () => {
		const chars = Array.from({ length: 256 }, (_, byte) => encodeByteLevelByte(byte));
		expect(new Set(chars).size).toBe(256);
		expect(Array.from(decodeByteLevelToken(chars.join('')) ?? [])).toEqual(
			Array.from({ length: 256 }, (_, byte) => byte),
		);
	});

	it.each([['▁cat'], ['<0x41>\u2581']])('%s is not a byte-level string', (token) => {
		expect(decodeByteLevelToken(token)).toBeNull();
	});
});

describe('computeTokenOffsets: byte-level BPE', () => {
	const cases: readonly {
		name: string;
		text: string;
		tokens: readonly string[];
		ids?: readonly number[];
		expected: Expected;
	}[] = [
		{
			name: 'plain words with Ġ',
			text: 'The cat.',
			tokens: ['The', 'Ġcat', '.'],
			expected: [
				[0, 3],
				[3, 7],
				[7, 8],
			],
		},
		{
			name: 'é whole in one token (Ã©)',
			text: 'café',
			tokens: ['ca', 'f', 'Ã©'],
			expected: [
				[0, 2],
				[2, 3],
				[3, 4],
			],
		},
		{
			name: 'é split across two tokens: both get the character',
			text: 'é!',
			tokens: ['Ã', '©', '!'],
			expected: [
				[0, 1],
				[0, 1],
				[1, 2],
			],
		},
		{
			name: 'emoji (4 bytes, surrogate pair) split into 4 tokens',
			text: 'a 😊',
			tokens: ['a', 'Ġ', 'ð', 'Ł', 'ĺ', 'Ĭ'],
			expected: [
				[0, 1],
				[1, 2],
				[2, 4],
				[2, 4],
				[2, 4],
				[2, 4],
			],
		},
		{
			name: 'emoji split 3+1 with the next character in the second token',
			text: '😊!',
			tokens: ['ðŁĺ', 'Ĭ!'],
			expected: [
				[0, 2],
				[0, 3],
			],
		},
		{
			// 猫 = E7 8C AB, が = E3 81 8C: the first token ends with が's first byte.
			name: 'CJK: a token holding a whole character and the first byte of the next',
			text: '猫が',
			tokens: ['çĮ«ã', 'ģĮ'],
			expected: [
				[0, 2],
				[1, 2],
			],
		},
		{
			name: 'leading, double and trailing spaces',
			text: '  a  b ',
			tokens: ['Ġ', 'Ġa', 'Ġ', 'Ġb', 'Ġ'],
			expected: [
				[0, 1],
				[1, 3],
				[3, 4],
				[4, 6],
				[6, 7],
			],
		},
		{
			name: 'newline (Ċ)',
			text: 'a\nb',
			tokens: ['a', 'Ċ', 'b'],
			expected: [
				[0, 1],
				[1, 2],
				[2, 3],
			],
		},
		{
			name: 'BOS and EOS zero-width, at 0 and at text.length',
			text: 'Hi',
			tokens: ['<|endoftext|>', 'Hi', '<|endoftext|>'],
			ids: [0, 5, 0],
			expected: [
				[0, 0, 'special'],
				[0, 2],
				[2, 2, 'special'],
			],
		},
		{
			name: 'a special token written literally in the text is text',
			text: 'a<|endoftext|>b',
			tokens: ['a', '<|endoftext|>', 'b'],
			ids: [64, 0, 65],
			expected: [
				[0, 1],
				[1, 14],
				[14, 15],
			],
		},
		{
			name: 'add_prefix_space: the dummy space has no source character',
			text: 'Hi there',
			tokens: ['ĠHi', 'Ġthere'],
			expected: [
				[0, 2],
				[2, 8],
			],
		},
		{ name: 'empty text, no tokens', text: '', tokens: [], expected: [] },
	];

	it.each(cases)('$name', ({ text, tokens, ids, expected }) => {
		const input: TokenOffsetsInput = freeze({
			text,
			kind: 'byte-level-bpe',
			tokens: [...tokens],
			addedTokens: [ENDOFTEXT],
			...(ids === undefined ? {} : { ids: [...ids] }),
		});
		expectSpans(computeTokenOffsets(input), expected);
	});

	it.each([
		{
			name: 'a token that does not match the text',
			text: 'The cat',
			tokens: ['The', 'Ġdog'],
			tokenIndex: 1,
			charIndex: 3,
		},
		{
			name: 'tokens that stop short of the text',
			text: 'The cat',
			tokens: ['The'],
			tokenIndex: 1,
			charIndex: 3,
		},
		{
			name: 'tokens that run past the text',
			text: 'The',
			tokens: ['The', 'Ġcat'],
			tokenIndex: 1,
			charIndex: 3,
		},
		{
			name: 'a token that is not a byte-level string',
			text: 'cat',
			tokens: ['▁cat'],
			tokenIndex: 0,
			charIndex: 0,
		},
		{
			name: 'a dummy space in the middle of a section',
			text: 'ab',
			tokens: ['a', 'Ġb'],
			tokenIndex: 1,
			charIndex: 1,
		},
	])('throws TokenOffsetError for $name', ({ text, tokens, tokenIndex, charIndex }) => {
		const error = offsetError(() =>
			computeTokenOffsets({ text, kind: 'byte-level-bpe', tokens, addedTokens: [ENDOFTEXT] }),
		);
		expect(error.location).toEqual({ tokenIndex, charIndex });
	});

	it('throws for a non-special added token whose text is not there', () => {
		const added: AddedToken = { id: 9, content: '<sep>', special: false };
		offsetError(() =>
			computeTokenOffsets({
				text: 'ab',
				kind: 'byte-level-bpe',
				tokens: ['a', '<sep>', 'b'],
				ids: [1, 9, 2],
				addedTokens: [added],
			}),
		);
	});

	it('throws without token strings, and when ids and tokens differ in number', () => {
		offsetError(() => computeTokenOffsets({ text: 'a', kind: 'byte-level-bpe' }));
		offsetError(() =>
			computeTokenOffsets({ text: 'a', kind: 'byte-level-bpe', tokens: ['a'], ids: [1, 2] }),
		);
	});
});

describe('computeTokenOffsets: SentencePiece with byte fallback', () => {
	const S: AddedToken = { id: 1, content: '<s>', special: true };
	const EOS: AddedToken = { id: 2, content: '</s>', special: true };
	const cases: readonly {
		name: string;
		text: string;
		tokens: readonly string[];
		ids?: readonly number[];
		expected: Expected;
	}[] = [
		{
			name: 'dummy prefix ▁ clamped to 0',
			text: 'The cat',
			tokens: ['▁The', '▁cat'],
			expected: [
				[0, 3],
				[3, 7],
			],
		},
		{
			name: 'byte fallback for é (two <0xNN> pieces share the character)',
			text: 'café',
			tokens: ['▁caf', '<0xC3>', '<0xA9>'],
			expected: [
				[0, 3],
				[3, 4],
				[3, 4],
			],
		},
		{
			name: 'a lone dummy ▁ is zero-width at 0',
			text: '€5',
			tokens: ['▁', '<0xE2>', '<0x82>', '<0xAC>', '5'],
			expected: [
				[0, 0],
				[0, 1],
				[0, 1],
				[0, 1],
				[1, 2],
			],
		},
		{
			name: 'a leading space in the text is the ▁ itself',
			text: ' The',
			tokens: ['▁The'],
			expected: [[0, 4]],
		},
		{
			name: 'double and trailing spaces',
			text: 'a  b ',
			tokens: ['▁a', '▁', '▁b', '▁'],
			expected: [
				[0, 1],
				[1, 2],
				[2, 4],
				[4, 5],
			],
		},
		{
			name: 'newline and CJK as bytes',
			text: 'a\n猫',
			tokens: ['▁a', '<0x0A>', '<0xE7>', '<0x8C>', '<0xAB>'],
			expected: [
				[0, 1],
				[1, 2],
				[2, 3],
				[2, 3],
				[2, 3],
			],
		},
		{
			name: 'BOS <s> zero-width',
			text: 'Hi',
			tokens: ['<s>', '▁Hi'],
			ids: [1, 40],
			expected: [
				[0, 0, 'special'],
				[0, 2],
			],
		},
		{
			name: 'a literal ▁ in the text',
			text: 'a▁b',
			tokens: ['▁a', '▁b'],
			expected: [
				[0, 1],
				[1, 3],
			],
		},
		{
			name: 'prepend_scheme always: a new dummy ▁ after a literal added token',
			text: 'Hi</s>there',
			tokens: ['▁Hi', '</s>', '▁there'],
			ids: [40, 2, 41],
			expected: [
				[0, 2],
				[2, 6],
				[6, 11],
			],
		},
	];

	it.each(cases)('$name', ({ text, tokens, ids, expected }) => {
		const input: TokenOffsetsInput = freeze({
			text,
			kind: 'sentencepiece',
			tokens: [...tokens],
			addedTokens: [S, EOS],
			...(ids === undefined ? {} : { ids: [...ids] }),
		});
		expectSpans(computeTokenOffsets(input), expected);
	});

	it.each([
		{ text: 'Ho', tokens: ['▁Hi'], tokenIndex: 0, charIndex: 0 },
		{ text: 'ab', tokens: ['▁a', '▁b'], tokenIndex: 1, charIndex: 1 },
		{ text: 'a', tokens: ['▁a', '<0xC3>'], tokenIndex: 1, charIndex: 1 },
	])('throws TokenOffsetError for $tokens on $text', ({ text, tokens, tokenIndex, charIndex }) => {
		const error = offsetError(() => computeTokenOffsets({ text, kind: 'sentencepiece', tokens }));
		expect(error.location).toEqual({ tokenIndex, charIndex });
	});
});

/** A fake tokenizer for incremental decoding: ids map to UTF-8 bytes, decoded like a
 * ByteFallback/ByteLevel decoder (invalid sequences → U+FFFD), special ids skipped. */
function fakeDecoder(
	pieces: Readonly<Record<number, readonly number[] | string>>,
	options: { readonly stripLeadingSpace?: boolean } = {},
): (ids: readonly number[]) => string {
	const encoder = new TextEncoder();
	return (ids) => {
		const bytes = ids.flatMap((id) => {
			const piece = pieces[id];
			if (piece === undefined) return [];
			return typeof piece === 'string' ? Array.from(encoder.encode(piece)) : [...piece];
		});
		const text = new TextDecoder().decode(new Uint8Array(bytes));
		return options.stripLeadingSpace === true && text.startsWith(' ') ? text.slice(1) : text;
	};
}

describe('computeTokenOffsets: generic (incremental decoding)', () => {
	const pieces = {
		10: 'Z',
		11: 'o',
		12: [0xc3],
		13: [0xab],
		14: 'a',
		15: [0xf0],
		16: [0x9f],
		17: [0x98],
		18: [0x8a],
		20: ' Hi',
		21: ' you',
		22: 'Hi',
	} as const;
	const specials: readonly AddedToken[] = [
		{ id: 1, content: '<s>', special: true },
		{ id: 2, content: '</s>', special: true },
	];

	it.each([
		{
			name: 'ë split across two tokens',
			text: 'Zoë',
			ids: [10, 11, 12, 13],
			expected: [
				[0, 1],
				[1, 2],
				[2, 3],
				[2, 3],
			],
		},
		{
			name: 'emoji split into four tokens',
			text: 'a😊',
			ids: [14, 15, 16, 17, 18],
			expected: [
				[0, 1],
				[1, 3],
				[1, 3],
				[1, 3],
				[1, 3],
			],
		},
		{
			name: 'a decoder that keeps a dummy prefix space',
			text: 'Hi you',
			ids: [20, 21],
			expected: [
				[0, 2],
				[2, 6],
			],
		},
		{
			name: 'special tokens skipped by decode are zero-width',
			text: 'Hi',
			ids: [1, 22, 2],
			expected: [
				[0, 0, 'special'],
				[0, 2],
				[2, 2, 'special'],
			],
		},
	] as const)('$name', ({ text, ids, expected }) => {
		const spans = computeTokenOffsets({
			text,
			kind: 'generic',
			ids: [...ids],
			addedTokens: specials,
			decode: fakeDecoder(pieces),
		});
		expectSpans(spans, expected);
	});

	it('restores a real leading space that the decoder strips (Llama Strip decoder)', () => {
		const decode = fakeDecoder(pieces, { stripLeadingSpace: true });
		expectSpans(computeTokenOffsets({ text: ' Hi you', kind: 'generic', ids: [20, 21], decode }), [
			[0, 3],
			[3, 7],
		]);
	});

	it('keeps a real leading space that the decoder keeps (two leading spaces)', () => {
		const decode = fakeDecoder({ 40: ' ', 41: ' a' });
		expectSpans(computeTokenOffsets({ text: '  a', kind: 'generic', ids: [40, 41], decode }), [
			[0, 1],
			[1, 3],
		]);
	});

	it('restores a stripped leading space before a character split across tokens', () => {
		// Llama: "▁" then the emoji's four byte pieces; the decoder strips the text's own space.
		const decode = fakeDecoder(
			{ 42: ' ', 15: [0xf0], 16: [0x9f], 17: [0x98], 18: [0x8a] },
			{
				stripLeadingSpace: true,
			},
		);
		expectSpans(
			computeTokenOffsets({ text: ' 😊', kind: 'generic', ids: [42, 15, 16, 17, 18], decode }),
			[
				[0, 1],
				[1, 3],
				[1, 3],
				[1, 3],
				[1, 3],
			],
		);
	});

	it('throws when the decoded text is not the text', () => {
		const error = offsetError(() =>
			computeTokenOffsets({
				text: 'Hi me',
				kind: 'generic',
				ids: [22, 21],
				decode: fakeDecoder(pieces),
			}),
		);
		expect(error.location).toEqual({ tokenIndex: 1, charIndex: 2 });
	});

	it('throws when the tokens stop short of the text', () => {
		offsetError(() =>
			computeTokenOffsets({
				text: 'Hi you',
				kind: 'generic',
				ids: [22],
				decode: fakeDecoder(pieces),
			}),
		);
	});

	it('throws without ids or a decode callback', () => {
		offsetError(() => computeTokenOffsets({ text: 'Hi', kind: 'generic', ids: [22] }));
		offsetError(() =>
			computeTokenOffsets({ text: 'Hi', kind: 'generic', decode: fakeDecoder(pieces) }),
		);
	});
});

describe('computeTokenOffsets: fallback and normalization', () => {
	it('falls back to incremental decoding when the byte alignment fails', () => {
		// Legacy Llama: Prepend("▁") always, so " Hi" becomes "▁▁Hi"; its decoder strips one space.
		const decode = fakeDecoder({ 30: '  Hi' }, { stripLeadingSpace: true });
		const input = { text: ' Hi', tokens: ['▁▁Hi'], ids: [30] } as const;
		offsetError(() =>
			computeTokenOffsets({
				...input,
				tokens: [...input.tokens],
				ids: [30],
				kind: 'sentencepiece',
			}),
		);
		expectSpans(
			computeTokenOffsets({
				...input,
				tokens: [...input.tokens],
				ids: [30],
				kind: 'sentencepiece',
				decode,
			}),
			[[0, 3]],
		);
	});

	it('reports both failures when the fallback fails too', () => {
		const error = offsetError(() =>
			computeTokenOffsets({
				text: 'Ho',
				kind: 'sentencepiece',
				tokens: ['▁Hi'],
				ids: [22],
				decode: fakeDecoder({ 22: 'Hi' }),
			}),
		);
		expect(error.message).toContain('incremental decoding failed too');
	});

	it('maps offsets on NFC-normalized text back to the original (decomposed é)', () => {
		const text = 'Cafe\u0301 ok';
		const input = { text, kind: 'byte-level-bpe', tokens: ['Caf', 'Ã©', 'Ġok'] } as const;
		offsetError(() => computeTokenOffsets({ ...input, tokens: [...input.tokens] }));
		expectSpans(
			computeTokenOffsets({ ...input, tokens: [...input.tokens], normalization: 'NFC' }),
			[
				[0, 3],
				[3, 5],
				[5, 8],
			],
		);
	});

	it('maps NFKC offsets of a ligature back to its one source character', () => {
		// ﬁ (U+FB01) normalizes to "fi" under NFKC; both tokens belong to the ligature.
		const spans = computeTokenOffsets({
			text: 'ﬁne',
			kind: 'sentencepiece',
			tokens: ['▁f', 'ine'],
			normalization: 'NFKC',
		});
		expectSpans(spans, [
			[0, 1],
			[0, 3],
		]);
	});
});

describe('verifySpansReassemble', () => {
	const span = (start: number, end: number, special = false): TokenSpan => ({
		start,
		end,
		special,
	});
	it.each([
		{ name: 'tiling spans', text: 'abc', spans: [span(0, 1), span(1, 3)] },
		{ name: 'a shared split character', text: 'é!', spans: [span(0, 1), span(0, 1), span(1, 2)] },
		{ name: 'a shared surrogate pair', text: '😊', spans: [span(0, 2), span(0, 2)] },
		{
			name: 'zero-width specials',
			text: 'a',
			spans: [span(0, 0, true), span(0, 1), span(1, 1, true)],
		},
		{ name: 'a zero-width dummy token', text: 'a', spans: [span(0, 0), span(0, 1)] },
		{ name: 'nothing for the empty text', text: '', spans: [] },
	])('accepts $name', ({ text, spans }) => {
		expect(verifySpansReassemble(text, spans)).toEqual({ ok: true });
	});

	it.each([
		{ name: 'a gap', text: 'abc', spans: [span(0, 1), span(2, 3)], tokenIndex: 1, charIndex: 1 },
		{
			name: 'an overlap of two characters',
			text: 'abc',
			spans: [span(0, 2), span(0, 3)],
			tokenIndex: 1,
			charIndex: 2,
		},
		{
			name: 'a special token with width',
			text: 'ab',
			spans: [span(0, 1, true), span(0, 2)],
			tokenIndex: 0,
			charIndex: 0,
		},
		{
			name: 'missing text at the end',
			text: 'abc',
			spans: [span(0, 2)],
			tokenIndex: 1,
			charIndex: 2,
		},
		{ name: 'a span past the end', text: 'ab', spans: [span(0, 3)], tokenIndex: 0, charIndex: 0 },
		{ name: 'a reversed span', text: 'ab', spans: [span(2, 0)], tokenIndex: 0, charIndex: 0 },
	])('rejects $name', ({ text, spans, tokenIndex, charIndex }) => {
		const check = verifySpansReassemble(text, spans);
		expect(check).toMatchObject({ ok: false, tokenIndex, charIndex });
	});
});

describe('detectTokenizerKind and readTokenizerFacts', () => {
	const gpt2 = {
		added_tokens: [{ id: 0, content: '<|endoftext|>', special: true }],
		normalizer: null,
		pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false },
		decoder: { type: 'ByteLevel' },
		model: { type: 'BPE', byte_fallback: false },
	};
	const qwen = {
		added_tokens: [
			{ id: 151643, content: '<|endoftext|>', special: true },
			{ id: 151665, content: '<tool_call>', special: false },
		],
		normalizer: { type: 'NFC' },
		pre_tokenizer: {
			type: 'Sequence',
			pretokenizers: [{ type: 'Split' }, { type: 'ByteLevel', add_prefix_space: false }],
		},
		decoder: { type: 'ByteLevel' },
		model: { type: 'BPE' },
	};
	const llamaLegacy = {
		normalizer: {
			type: 'Sequence',
			normalizers: [
				{ type: 'Prepend', prepend: '▁' },
				{ type: 'Replace', pattern: { String: ' ' }, content: '▁' },
			],
		},
		pre_tokenizer: null,
		decoder: {
			type: 'Sequence',
			decoders: [{ type: 'Replace', pattern: { String: '▁' }, content: ' ' }, { type: 'Fuse' }],
		},
		model: { type: 'BPE', byte_fallback: false },
	};
	const metaspace = {
		pre_tokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'first' },
		decoder: { type: 'Metaspace' },
		model: { type: 'BPE', byte_fallback: true },
	};
	const t5 = {
		normalizer: { type: 'Sequence', normalizers: [{ type: 'Precompiled' }] },
		pre_tokenizer: { type: 'Sequence', pretokenizers: [{ type: 'Metaspace' }] },
		model: { type: 'Unigram' },
	};
	const bert = {
		normalizer: { type: 'BertNormalizer' },
		pre_tokenizer: { type: 'BertPreTokenizer' },
		decoder: { type: 'WordPiece' },
		model: { type: 'WordPiece' },
	};
	it.each([
		['GPT-2', 'byte-level-bpe', gpt2],
		['Qwen2 (Sequence with ByteLevel)', 'byte-level-bpe', qwen],
		['Llama legacy (Replace ▁)', 'sentencepiece', llamaLegacy],
		['Metaspace + byte_fallback', 'sentencepiece', metaspace],
		['byte_fallback alone', 'sentencepiece', { model: { type: 'BPE', byte_fallback: true } }],
		['T5 (Unigram, Metaspace)', 'sentencepiece', t5],
		['BERT WordPiece', 'generic', bert],
		['null', 'generic', null],
		['a number', 'generic', 42],
		['an array', 'generic', []],
	])('%s → %s', (_name, kind, json) => {
		expect(detectTokenizerKind(json)).toBe(kind);
	});

	it('reads added tokens and a Unicode normalizer', () => {
		expect(readTokenizerFacts(qwen)).toEqual({
			kind: 'byte-level-bpe',
			addedTokens: [
				{ id: 151643, content: '<|endoftext|>', special: true },
				{ id: 151665, content: '<tool_call>', special: false },
			],
			normalization: 'NFC',
		});
		expect(readTokenizerFacts(t5).normalization).toBe('NFKC');
		expect(readTokenizerFacts(gpt2)).toEqual({
			kind: 'byte-level-bpe',
			addedTokens: [ENDOFTEXT],
		});
		expect(readTokenizerFacts('not json')).toEqual({ kind: 'generic', addedTokens: [] });
	});
});
