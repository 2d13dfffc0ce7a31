// TryIt over a LocalWorkerModel on FakeEngine: streamed output, the two parameters sent, input
// problems in words, cancel keeps the text so far, failures as messages.
import { describe, expect, it } from 'vitest';
import type { GenerateRequest, TextModel } from '../../../../src/core/model/generation';
import type { ModelSpec } from '../../../../src/core/model/model-spec';
import { LocalWorkerModel } from '../../../../src/ui/io/local-worker-model';
import { TryIt } from '../../../../src/ui/state/shared/try-it.svelte';
import { FAKE_GREEDY_TOKENS, FakeEngine } from '../../../../src/worker/fake-engine';
import { createInThreadClient } from '../../../../src/worker/inference-client';

const SPEC: ModelSpec = {
	source: 'bundled',
	id: 'gpt2-random-tiny',
	dtype: 'fp32',
	backend: 'wasm',
};

function localModel(batchDelayMs = 0): LocalWorkerModel {
	return new LocalWorkerModel({
		client: createInThreadClient(new FakeEngine({ batchDelayMs })),
		spec: SPEC,
	});
}

describe('TryIt', () => {
	it('streams the completion into output and reports usage', async () => {
		const tryIt = new TryIt();
		tryIt.prompt = 'Hello';
		tryIt.maxTokens = 100;
		const seen: string[] = [];
		const model = localModel(5);
		const running = tryIt.generate(model);
		expect(tryIt.generating).toBe(true);
		while (tryIt.generating) {
			if (seen.at(-1) !== tryIt.output) seen.push(tryIt.output);
			await new Promise((resolve) => setTimeout(resolve, 1));
		}
		await running;
		expect(tryIt.status).toBe('done');
		expect(tryIt.usage?.completionTokens).toBe(FAKE_GREEDY_TOKENS);
		expect(tryIt.finishReason).toBe('stop');
		// Partial texts were visible before the end, each a prefix of the final text.
		expect(seen.filter((text) => text !== '' && text !== tryIt.output).length).toBeGreaterThan(0);
		for (const text of seen) expect(tryIt.output.startsWith(text)).toBe(true);
	});

	it('sends exactly max_tokens and temperature, with a text prompt and a try call', async () => {
		const requests: GenerateRequest[] = [];
		const roles: string[] = [];
		const recording: TextModel = {
			label: 'recording',
			abilities: { score: false, generate: true, chat: false },
			async *generate(request, call) {
				requests.push(request);
				roles.push(call.role);
				yield { type: 'token', text: ' ok' };
				yield { type: 'done', completion: ' ok', finishReason: 'length' };
			},
			countTokens: () => 0,
		};
		const tryIt = new TryIt();
		tryIt.prompt = 'Say';
		tryIt.maxTokens = 7;
		tryIt.temperature = 0.5;
		await tryIt.generate(async () => recording);
		expect(requests).toEqual([
			{ prompt: { kind: 'text', text: 'Say' }, params: { max_tokens: 7, temperature: 0.5 } },
		]);
		expect(roles).toEqual(['try']);
		expect(tryIt.output).toBe(' ok');
		tryIt.asChat = true;
		await tryIt.generate(recording);
		expect(requests[1]?.prompt).toEqual({
			kind: 'chat',
			messages: [{ role: 'user', content: 'Say' }],
		});
	});

	it.each([
		[{ prompt: '' }, /Type a prompt/],
		[{ maxTokens: 0 }, /Max tokens must be a whole number from 1 to 1024/],
		[{ maxTokens: 2.5 }, /Max tokens/],
		[{ maxTokens: 5000 }, /Max tokens/],
		[{ temperature: -1 }, /Temperature must be from 0/],
		[{ temperature: Number.NaN }, /Temperature/],
	])('says what is wrong with %j and does not generate', async (change, message) => {
		const tryIt = new TryIt();
		Object.assign(tryIt, change);
		expect(tryIt.problem).toMatch(message);
		await tryIt.generate(localModel());
		expect(tryIt.status).toBe('idle');
	});

	it('cancel stops within a token step and keeps the text so far', async () => {
		const tryIt = new TryIt();
		const running = tryIt.generate(localModel(25));
		while (tryIt.output === '') await new Promise((resolve) => setTimeout(resolve, 2));
		tryIt.cancel();
		await running;
		expect(tryIt.status).toBe('cancelled');
		expect(tryIt.message).toBe('Generation cancelled.');
		expect(tryIt.output.length).toBeGreaterThan(0);
		expect(tryIt.usage).toBeNull();
	});

	it('shows a failure with the model error', async () => {
		const failing: TextModel = {
			label: 'failing',
			abilities: { score: false, generate: true, chat: false },
			// eslint-disable-next-line require-yield -- fails before the first token
			async *generate() {
				throw new Error('HTTP 401 from the endpoint: check the API key.');
			},
			countTokens: () => 0,
		};
		const tryIt = new TryIt();
		await tryIt.generate(failing);
		expect(tryIt.status).toBe('failed');
		expect(tryIt.message).toBe('Generation failed: HTTP 401 from the endpoint: check the API key.');
	});
});
