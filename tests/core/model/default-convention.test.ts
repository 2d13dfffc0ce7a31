// The one rule for a model's default convention (app and CLI): the model card for a bundled model,
// else what the tokenizer does (tokenizer.json's post-processor, else add_bos_token), else
// `reference`; each with a reason read from those facts.
import { describe, expect, it } from 'vitest';
import {
	conventionFactsFromFiles,
	defaultConvention,
	parseConventionFile,
	readModelConfigConventionFacts,
	readTokenizerConventionFacts,
	readTokenizerJsonConventionFacts,
	type ConventionFacts,
} from '../../../src/core/model/default-convention';
import type { SurprisalConvention } from '../../../src/core/model/model-spec';

/** Llama-3's tokenizer.json post-processor: ByteLevel, then `<|begin_of_text|> $A`. */
const LLAMA3_TOKENIZER = {
	version: '1.0',
	post_processor: {
		type: 'Sequence',
		processors: [
			{ type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
			{
				type: 'TemplateProcessing',
				single: [
					{ SpecialToken: { id: '<|begin_of_text|>', type_id: 0 } },
					{ Sequence: { id: 'A', type_id: 0 } },
				],
				pair: [],
				special_tokens: {},
			},
		],
	},
};
/** Llama-3's tokenizer_config.json says nothing about add_bos_token. */
const LLAMA3_TOKENIZER_CONFIG = { bos_token: '<|begin_of_text|>', eos_token: '<|end_of_text|>' };
/** Qwen2.5: no BOS token in the tokenizer, one in config.json. */
const QWEN_TOKENIZER = { post_processor: { type: 'ByteLevel', trim_offsets: false } };
const QWEN_TOKENIZER_CONFIG = { bos_token: null, eos_token: '<|endoftext|>' };
const QWEN_CONFIG = { bos_token_id: 151643, eos_token_id: 151643 };
/** GPT-2 (as Xenova/gpt2 and the bundled models). */
const GPT2_TOKENIZER = { post_processor: { type: 'ByteLevel' } };
const GPT2_TOKENIZER_CONFIG = { bos_token: '<|endoftext|>', add_bos_token: false };

describe('defaultConvention', () => {
	const cases: [string, ConventionFacts, SurprisalConvention, RegExp][] = [
		['bundled model: its card', { source: 'bundled', id: 'gpt2-en-small' }, 'bos', /model card/],
		[
			'bundled model, even if its tokenizer adds no BOS',
			{ source: 'bundled', id: 'gpt2-random-tiny', addsBos: false },
			'bos',
			/gpt2-random-tiny: its model card/,
		],
		[
			'tokenizer_config says the tokenizer adds BOS',
			{
				source: 'hub',
				id: 'Xenova/TinyLlama',
				addsBos: true,
				addsBosFrom: 'add_bos_token',
				hasBosToken: true,
			},
			'bos',
			/adds its own start-of-text token \(add_bos_token in tokenizer_config\.json\)/,
		],
		[
			'adds BOS but has no BOS token',
			{ source: 'hub', id: 'x/y', addsBos: true, hasBosToken: false },
			'reference',
			/does not say/,
		],
		[
			'tokenizer that adds none',
			{ source: 'hub', id: 'Xenova/gpt2', addsBos: false, addsBosFrom: 'post-processor' },
			'reference',
			/adds no start-of-text token \(its post-processor in tokenizer\.json\).*0 bits\.$/,
		],
		['hub model, nothing known', { source: 'hub', id: 'a/b' }, 'reference', /does not say/],
		[
			'endpoint',
			{ source: 'openai', id: 'm' },
			'reference',
			/endpoint m does not say what its tokenizer adds/,
		],
	];
	it.each(cases)('%s', (_name, facts, convention, reason) => {
		const result = defaultConvention(facts);
		expect(result.convention).toBe(convention);
		expect(result.reason).toMatch(reason);
	});
});

describe('conventionFactsFromFiles → defaultConvention', () => {
	it('GPT-2-like: reference, no BOS added, the first word 0 bits', () => {
		const facts = conventionFactsFromFiles('local', 'gpt2', {
			tokenizerJson: GPT2_TOKENIZER,
			tokenizerConfig: GPT2_TOKENIZER_CONFIG,
			config: { bos_token_id: 50256 },
		});
		expect(facts).toEqual({
			source: 'local',
			id: 'gpt2',
			addsBos: false,
			addsBosFrom: 'post-processor',
			hasBosToken: true,
			configBosTokenId: 50256,
		});
		expect(defaultConvention(facts)).toEqual({
			convention: 'reference',
			reason:
				"gpt2's tokenizer adds no start-of-text token (its post-processor in tokenizer.json), so it is scored as syntaxgym-core does: the first word gets 0 bits.",
		});
	});

	it('Llama-3-like: the post-processor adds BOS (TemplateProcessing), so bos, never "does not say"', () => {
		const facts = conventionFactsFromFiles('local', 'Llama-3.2-1B', {
			tokenizerJson: LLAMA3_TOKENIZER,
			tokenizerConfig: LLAMA3_TOKENIZER_CONFIG,
			config: { bos_token_id: 128000 },
		});
		expect(facts).toMatchObject({ addsBos: true, addsBosFrom: 'post-processor' });
		const result = defaultConvention(facts);
		expect(result.convention).toBe('bos');
		expect(result.reason).toBe(
			"Llama-3.2-1B's tokenizer adds its own start-of-text token (its post-processor in tokenizer.json), so the first word is scored after it (reference keeps that token too: the same numbers).",
		);
		// Before: tokenizer_config.json alone says nothing about add_bos_token.
		expect(
			defaultConvention({
				source: 'hub',
				id: 'x',
				...readTokenizerConventionFacts(LLAMA3_TOKENIZER_CONFIG),
			}).reason,
		).toMatch(/does not say/);
	});

	it('Qwen-like: no BOS added, no BOS token; bos would fall back to config.json’s bos_token_id', () => {
		const facts = conventionFactsFromFiles('hub', 'Qwen/Qwen2.5-0.5B', {
			tokenizerJson: QWEN_TOKENIZER,
			tokenizerConfig: QWEN_TOKENIZER_CONFIG,
			config: QWEN_CONFIG,
		});
		expect(facts).toMatchObject({ addsBos: false, hasBosToken: false, configBosTokenId: 151643 });
		const result = defaultConvention(facts);
		expect(result.convention).toBe('reference');
		expect(result.reason).toMatch(/0 bits \(bos would use config\.json's bos_token_id 151643/);
	});

	it('the post-processor wins over add_bos_token; add_bos_token counts when tokenizer.json is unread', () => {
		expect(
			conventionFactsFromFiles('hub', 'a/b', {
				tokenizerJson: GPT2_TOKENIZER,
				tokenizerConfig: { add_bos_token: true },
			}),
		).toMatchObject({ addsBos: false, addsBosFrom: 'post-processor' });
		expect(
			conventionFactsFromFiles('hub', 'a/b', { tokenizerConfig: { add_bos_token: true } }),
		).toMatchObject({ addsBos: true, addsBosFrom: 'add_bos_token' });
		expect(conventionFactsFromFiles('hub', 'a/b', {})).toEqual({ source: 'hub', id: 'a/b' });
	});
});

describe('readTokenizerJsonConventionFacts', () => {
	const cases: [string, unknown, ReturnType<typeof readTokenizerJsonConventionFacts>][] = [
		['Llama-3', LLAMA3_TOKENIZER, { addsBos: true, addsBosFrom: 'post-processor' }],
		['GPT-2', GPT2_TOKENIZER, { addsBos: false, addsBosFrom: 'post-processor' }],
		[
			'no post-processor',
			{ post_processor: null },
			{ addsBos: false, addsBosFrom: 'post-processor' },
		],
		[
			'template with the text first (EOS only)',
			{
				post_processor: {
					type: 'TemplateProcessing',
					single: [{ Sequence: { id: 'A' } }, { SpecialToken: { id: '</s>' } }],
				},
			},
			{ addsBos: false, addsBosFrom: 'post-processor' },
		],
		[
			'BERT',
			{ post_processor: { type: 'BertProcessing' } },
			{ addsBos: true, addsBosFrom: 'post-processor' },
		],
		['unknown type', { post_processor: { type: 'Mystery' } }, {}],
		[
			'unknown type in a sequence',
			{ post_processor: { type: 'Sequence', processors: [{ type: 'Mystery' }] } },
			{},
		],
		['no post_processor key', { model: {} }, {}],
		['not an object', 'tokenizer', {}],
	];
	it.each(cases)('%s', (_name, json, facts) => {
		expect(readTokenizerJsonConventionFacts(json)).toEqual(facts);
	});
});

describe('readTokenizerConventionFacts', () => {
	const cases: [string, unknown, ReturnType<typeof readTokenizerConventionFacts>][] = [
		[
			'GPT-2 style',
			{ bos_token: '<|endoftext|>', add_bos_token: false },
			{ addsBos: false, addsBosFrom: 'add_bos_token', hasBosToken: true },
		],
		[
			'Llama style, token as an object',
			{ add_bos_token: true, bos_token: { content: '<s>', lstrip: false } },
			{ addsBos: true, addsBosFrom: 'add_bos_token', hasBosToken: true },
		],
		['no BOS token', { bos_token: null }, { hasBosToken: false }],
		['nothing said', { model_max_length: 512 }, {}],
		['wrong types', { add_bos_token: 'yes', bos_token: 3 }, {}],
		['not an object', [1, 2], {}],
		['null', null, {}],
	];
	it.each(cases)('%s', (_name, json, facts) => {
		expect(readTokenizerConventionFacts(json)).toEqual(facts);
	});
});

describe('readModelConfigConventionFacts and parseConventionFile', () => {
	it('reads a whole bos_token_id only; a file that is not JSON is no facts', () => {
		expect(readModelConfigConventionFacts(QWEN_CONFIG)).toEqual({ configBosTokenId: 151643 });
		expect(readModelConfigConventionFacts({ bos_token_id: [1, 2] })).toEqual({});
		expect(readModelConfigConventionFacts({ bos_token_id: -1 })).toEqual({});
		expect(parseConventionFile('{"a": 1}')).toEqual({ a: 1 });
		expect(parseConventionFile('{ not json')).toBeUndefined();
		expect(parseConventionFile(undefined)).toBeUndefined();
	});
});
