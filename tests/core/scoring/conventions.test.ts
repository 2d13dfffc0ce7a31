import { describe, expect, it } from 'vitest';
import { BenchtopError } from '../../../src/core/errors';
import type { SurprisalConvention } from '../../../src/core/model/model-spec';
import {
	assembleScoredTokens,
	planModelInput,
	type ModelInputPlan,
	type SpecialTokenBehaviour,
} from '../../../src/core/scoring/conventions';

const GPT2: SpecialTokenBehaviour = {
	addsBos: false,
	addsEos: false,
	bosTokenId: 0,
	eosTokenId: 0,
};
const LLAMA: SpecialTokenBehaviour = {
	addsBos: true,
	addsEos: false,
	bosTokenId: 1,
	eosTokenId: 2,
};
const ADDS_BOTH: SpecialTokenBehaviour = {
	addsBos: true,
	addsEos: true,
	bosTokenId: 1,
	eosTokenId: 2,
};
const NO_BOS: SpecialTokenBehaviour = { addsBos: false, addsEos: false, eosTokenId: 9 };

describe('planModelInput', () => {
	const text = Object.freeze([10, 11, 12]);
	it.each([
		{
			behaviour: GPT2,
			name: 'GPT-2',
			convention: 'reference',
			inputIds: [10, 11, 12],
			roles: ['text', 'text', 'text'],
			textStart: 0,
		},
		{
			behaviour: GPT2,
			name: 'GPT-2',
			convention: 'bos',
			inputIds: [0, 10, 11, 12],
			roles: ['bos', 'text', 'text', 'text'],
			textStart: 1,
		},
		{
			behaviour: GPT2,
			name: 'GPT-2',
			convention: 'bos+eos',
			inputIds: [0, 10, 11, 12, 0],
			roles: ['bos', 'text', 'text', 'text', 'eos'],
			textStart: 1,
		},
		{
			behaviour: LLAMA,
			name: 'Llama (adds BOS)',
			convention: 'reference',
			inputIds: [1, 10, 11, 12],
			roles: ['bos', 'text', 'text', 'text'],
			textStart: 1,
		},
		{
			behaviour: LLAMA,
			name: 'Llama (adds BOS)',
			convention: 'bos',
			inputIds: [1, 10, 11, 12],
			roles: ['bos', 'text', 'text', 'text'],
			textStart: 1,
		},
		{
			behaviour: LLAMA,
			name: 'Llama (adds BOS)',
			convention: 'bos+eos',
			inputIds: [1, 10, 11, 12, 2],
			roles: ['bos', 'text', 'text', 'text', 'eos'],
			textStart: 1,
		},
		{
			behaviour: ADDS_BOTH,
			name: 'a tokenizer adding BOS and EOS',
			convention: 'reference',
			inputIds: [1, 10, 11, 12, 2],
			roles: ['bos', 'text', 'text', 'text', 'eos'],
			textStart: 1,
		},
		{
			behaviour: ADDS_BOTH,
			name: 'a tokenizer adding BOS and EOS',
			convention: 'bos',
			inputIds: [1, 10, 11, 12, 2],
			roles: ['bos', 'text', 'text', 'text', 'eos'],
			textStart: 1,
		},
		{
			behaviour: NO_BOS,
			name: 'a tokenizer without BOS',
			convention: 'reference',
			inputIds: [10, 11, 12],
			roles: ['text', 'text', 'text'],
			textStart: 0,
		},
	] as const)('$name, $convention', ({ behaviour, convention, inputIds, roles, textStart }) => {
		const plan = planModelInput(text, behaviour, convention);
		expect(plan).toEqual({
			convention,
			inputIds,
			roles,
			scored: inputIds.map((_, position) => position > 0),
			textStart,
			textLength: 3,
		});
	});

	it.each([
		['reference', []],
		['bos', [0]],
		['bos+eos', [0, 0]],
	] as const)('an empty text under %s → %j', (convention, inputIds) => {
		expect(planModelInput([], GPT2, convention).inputIds).toEqual(inputIds);
	});

	it.each([
		['bos', NO_BOS, /needs a BOS token id.*Use the reference convention/],
		['bos+eos', { addsBos: false, addsEos: false, bosTokenId: 0 }, /needs a EOS token id/],
		['reference', { addsBos: true, addsEos: false }, /needs a BOS token id, and this tokenizer/],
	] as const)('%s without the id it needs throws', (convention, behaviour, message) => {
		expect(() => planModelInput([10], behaviour, convention)).toThrow(BenchtopError);
		expect(() => planModelInput([10], behaviour, convention)).toThrow(message);
	});
});

describe('assembleScoredTokens', () => {
	const text = 'The cat';
	const textSpans = Object.freeze([
		{ start: 0, end: 3, special: false },
		{ start: 3, end: 7, special: false },
	]);
	const plan = (convention: SurprisalConvention): ModelInputPlan =>
		planModelInput([464, 3797], GPT2, convention);

	it('reference: the first token has 0 bits and stays in the text', () => {
		const scored = assembleScoredTokens({
			text,
			plan: plan('reference'),
			tokens: ['The', 'Ġcat'],
			textSpans,
			surprisalsBits: Float64Array.from([0, 9.5]),
		});
		expect(scored).toEqual([
			{ token: 'The', surprisalBits: 0, start: 0, end: 3 },
			{ token: 'Ġcat', surprisalBits: 9.5, start: 3, end: 7 },
		]);
	});

	it('bos+eos: BOS zero-width at 0 and EOS zero-width at text.length, both special', () => {
		const scored = assembleScoredTokens({
			text,
			plan: plan('bos+eos'),
			tokens: ['<|endoftext|>', 'The', 'Ġcat', '<|endoftext|>'],
			textSpans,
			surprisalsBits: [0, 3.25, 9.5, 2],
		});
		expect(scored).toEqual([
			{ token: '<|endoftext|>', surprisalBits: 0, start: 0, end: 0, special: true },
			{ token: 'The', surprisalBits: 3.25, start: 0, end: 3 },
			{ token: 'Ġcat', surprisalBits: 9.5, start: 3, end: 7 },
			{ token: '<|endoftext|>', surprisalBits: 2, start: 7, end: 7, special: true },
		]);
	});

	it('copies NaN surprisals as given (tokenize requests)', () => {
		const scored = assembleScoredTokens({
			text,
			plan: plan('bos'),
			tokens: ['<|endoftext|>', 'The', 'Ġcat'],
			textSpans,
			surprisalsBits: [Number.NaN, Number.NaN, Number.NaN],
		});
		expect(scored.map((t) => t.surprisalBits)).toEqual([Number.NaN, Number.NaN, Number.NaN]);
	});

	it('keeps a special flag that the offsets give a text token', () => {
		const scored = assembleScoredTokens({
			text: 'a',
			plan: planModelInput([5, 0], GPT2, 'reference'),
			tokens: ['a', '<|endoftext|>'],
			textSpans: [
				{ start: 0, end: 1, special: false },
				{ start: 1, end: 1, special: true },
			],
			surprisalsBits: [0, 4],
		});
		expect(scored[1]).toEqual({
			token: '<|endoftext|>',
			surprisalBits: 4,
			start: 1,
			end: 1,
			special: true,
		});
	});

	it.each([
		['too few token strings', ['The'], textSpans, [0, 1]],
		['too few surprisals', ['The', 'Ġcat'], textSpans, [0]],
		['too few offsets', ['The', 'Ġcat'], textSpans.slice(0, 1), [0, 1]],
	] as const)('throws for %s', (_name, tokens, spans, bits) => {
		expect(() =>
			assembleScoredTokens({
				text,
				plan: plan('reference'),
				tokens,
				textSpans: spans,
				surprisalsBits: bits,
			}),
		).toThrow(BenchtopError);
	});
});
