// A generation whose first new token ends it (EOS) is an empty completion, finished by 'stop':
// transformers.js's tokenizer refuses to decode no ids ("token_ids must be a non-empty array"),
// which once failed an Evals run in CI ("The model failed while generating"). The runtime here is
// a small one of our own: a tokenizer that refuses as transformers.js's does, and a decoding loop
// that answers EOS at once.
import { describe, expect, it } from 'vitest';
import { generateText, type GenerationRuntime } from '../../src/worker/generate-text';

const EOS = 0;

function runtime(answer: readonly number[]): GenerationRuntime {
	return {
		tokenizer: {
			encode: (text) => [...text].map((char) => char.charCodeAt(0)),
			decode: (ids) => {
				if (ids.length === 0) throw new Error('token_ids must be a non-empty array of integers.');
				return String.fromCharCode(...ids);
			},
			apply_chat_template: () => '',
		},
		eosTokenIds: [EOS],
		startTokenId: EOS,
		maxPositions: 64,
		async runGenerate(inputIds, maxNewTokens, hooks) {
			hooks.streamer.put([inputIds.map(BigInt)]);
			for (const id of answer.slice(0, maxNewTokens)) {
				hooks.streamer.put([[BigInt(id)]]);
				if (hooks.stoppingCriteria([[BigInt(id)]]).every(Boolean)) break;
			}
			hooks.streamer.end();
			return Promise.resolve();
		},
	};
}

describe('a generation whose first token is EOS', () => {
	it('is an empty completion that stopped, with max_tokens 1 and more', async () => {
		for (const max_tokens of [1, 8]) {
			const result = await generateText(runtime([EOS]), {
				prompt: { kind: 'text', text: 'Hi.' },
				params: { temperature: 0, max_tokens },
			});
			expect(result.completion).toBe('');
			expect(result.finishReason).toBe('stop');
			expect(result.usage.completionTokens).toBe(1);
		}
	});

	it('still decodes the tokens before an EOS', async () => {
		const result = await generateText(runtime([104, 105, EOS]), {
			prompt: { kind: 'text', text: 'Hi.' },
			params: { temperature: 0, max_tokens: 8 },
		});
		expect(result.completion).toBe('hi');
		expect(result.finishReason).toBe('stop');
	});
});
