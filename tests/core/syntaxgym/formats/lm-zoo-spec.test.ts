import { describe, expect, it } from 'vitest';
import { parseLmZooSpec } from '../../../../src/core/syntaxgym/formats/lm-zoo-spec';
import { InputFormatError } from '../../../../src/core/errors';

describe('parseLmZooSpec', () => {
	it('reads a word-level spec (sg-eval template shape)', () => {
		const text = JSON.stringify({
			name: 'My Language Model',
			vocabulary: {
				unk_types: ['<unk>'],
				prefix_types: [],
				suffix_types: ['<eos>'],
				special_types: [],
			},
			tokenizer: { type: 'word', cased: true },
		});
		expect(parseLmZooSpec(text)).toEqual({
			unkTypes: ['<unk>'],
			prefixTypes: [],
			suffixTypes: ['<eos>'],
			specialTypes: [],
			cased: true,
			sentinels: [],
			moses: false,
		});
	});

	it('reads subword sentinels, metaspace, Moses and a drop pattern', () => {
		const text = JSON.stringify({
			vocabulary: { prefix_types: ['<|endoftext|>'], suffix_types: ['<|endoftext|>'] },
			tokenizer: {
				type: 'subword',
				cased: false,
				sentinel_pattern: 'Ġ',
				sentinel_position: 'initial',
				metaspace: '▁',
				behaviors: ['moses'],
				drop_token_pattern: '^[^a-z]+$',
			},
		});
		expect(parseLmZooSpec(text)).toEqual({
			unkTypes: [],
			prefixTypes: ['<|endoftext|>'],
			suffixTypes: ['<|endoftext|>'],
			specialTypes: [],
			cased: false,
			sentinels: [
				{ pattern: 'Ġ', position: 'initial' },
				{ pattern: '▁', position: 'initial' },
			],
			moses: true,
			dropTokenPattern: '^[^a-z]+$',
		});
	});

	it.each([
		['{"vocabulary": {"unk_types": "<unk>"}}', 'spec.json: /vocabulary/unk_types: must be a list'],
		['{"tokenizer": {"cased": "yes"}}', 'spec.json: /tokenizer/cased: must be true or false'],
		['[1]', 'spec.json: /: an lm-zoo spec is a JSON object'],
		[
			'{"tokenizer": {"type": "subword", "sentinel_pattern": "#", "sentinel_position": "left"}}',
			'sentinel_position: must be one of',
		],
		[
			'{"tokenizer": {"drop_token_pattern": "("}}',
			'drop_token_pattern: is not a valid regular expression',
		],
		['{\n  "vocabulary": {,}\n}', 'spec.json:2:18: not valid JSON'],
	])('%s → InputFormatError', (text, message) => {
		const run = () => parseLmZooSpec(text, 'spec.json');
		expect(run).toThrow(InputFormatError);
		expect(run).toThrow(message);
	});
});
