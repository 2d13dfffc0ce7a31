import { describe, expect, it } from 'vitest';
import {
	defaultConvention,
	readTokenizerConventionFacts,
	type ConventionFacts,
} from '../../../src/core/model/default-convention';
import type { SurprisalConvention } from '../../../src/core/model/model-spec';

describe('defaultConvention', () => {
	const cases: [string, ConventionFacts, SurprisalConvention, RegExp][] = [
		['bundled model', { source: 'bundled', id: 'gpt2-en-small' }, 'bos', /trained with/],
		[
			'bundled model, even if its tokenizer adds no BOS',
			{ source: 'bundled', id: 'gpt2-random-tiny', addBosToken: false },
			'bos',
			/gpt2-random-tiny/,
		],
		[
			'hub tokenizer that adds BOS itself',
			{ source: 'hub', id: 'Xenova/TinyLlama', addBosToken: true, hasBosToken: true },
			'bos',
			/add_bos_token/,
		],
		[
			'hub tokenizer that adds BOS but has no BOS token',
			{ source: 'hub', id: 'x/y', addBosToken: true, hasBosToken: false },
			'reference',
			/does not say/,
		],
		[
			'hub tokenizer that says it adds none',
			{ source: 'hub', id: 'Xenova/gpt2', addBosToken: false },
			'reference',
			/adds no start-of-text/,
		],
		['hub model, nothing known', { source: 'hub', id: 'a/b' }, 'reference', /does not say/],
		['local folder, nothing known', { source: 'local', id: 'my-model' }, 'reference', /my-model/],
	];
	it.each(cases)('%s', (_name, facts, convention, reason) => {
		const result = defaultConvention(facts);
		expect(result.convention).toBe(convention);
		expect(result.reason).toMatch(reason);
	});
});

describe('readTokenizerConventionFacts', () => {
	const cases: [string, unknown, ReturnType<typeof readTokenizerConventionFacts>][] = [
		[
			'GPT-2 style',
			{ bos_token: '<|endoftext|>', add_bos_token: false },
			{ addBosToken: false, hasBosToken: true },
		],
		[
			'Llama style, token as an object',
			{ add_bos_token: true, bos_token: { content: '<s>', lstrip: false } },
			{ addBosToken: true, hasBosToken: true },
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
