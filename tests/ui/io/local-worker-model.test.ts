// LocalWorkerModel over the in-thread client and FakeEngine: streamed tokens then `done`, cancel
// by AbortSignal or a plain { aborted } flag, an early break stops the worker, token counts.
import { describe, expect, it } from 'vitest';
import type { GenerationEvent } from '../../../src/core/model/generation';
import type { ModelSpec } from '../../../src/core/model/model-spec';
import { LocalWorkerModel, localModelLabel } from '../../../src/ui/io/local-worker-model';
import { FAKE_GREEDY_TOKENS, FakeEngine } from '../../../src/worker/fake-engine';
import { CancelledError, createInThreadClient } from '../../../src/worker/inference-client';

const SPEC: ModelSpec = {
	source: 'bundled',
	id: 'gpt2-random-tiny',
	dtype: 'fp32',
	backend: 'wasm',
};
const CALL = { runId: 'r', sampleId: 's', role: 'policy' } as const;
const REQUEST = { prompt: { kind: 'text', text: 'The cat' }, params: { temperature: 0 } } as const;

function model(batchDelayMs = 0): LocalWorkerModel {
	return new LocalWorkerModel({
		client: createInThreadClient(new FakeEngine({ batchDelayMs })),
		spec: SPEC,
	});
}

async function collect(events: AsyncIterable<GenerationEvent>): Promise<GenerationEvent[]> {
	const all: GenerationEvent[] = [];
	for await (const event of events) all.push(event);
	return all;
}

describe('LocalWorkerModel', () => {
	it('streams token events, then done with the completion the tokens make', async () => {
		const events = await collect(model().generate(REQUEST, CALL));
		const tokens = events.filter((e) => e.type === 'token');
		expect(tokens).toHaveLength(FAKE_GREEDY_TOKENS);
		const done = events.at(-1);
		expect(done).toMatchObject({
			type: 'done',
			finishReason: 'stop',
			usage: { completionTokens: FAKE_GREEDY_TOKENS },
		});
		expect(done?.type === 'done' && done.completion).toBe(
			tokens.map((t) => (t.type === 'token' ? t.text : '')).join(''),
		);
	});

	it('is greedy-deterministic and honours max_tokens', async () => {
		const m = model();
		const first = await collect(m.generate(REQUEST, CALL));
		const again = await collect(m.generate(REQUEST, CALL));
		expect(again).toEqual(first);
		const short = await collect(
			m.generate({ ...REQUEST, params: { temperature: 0, max_tokens: 3 } }, CALL),
		);
		expect(short.filter((e) => e.type === 'token')).toHaveLength(3);
		expect(short.at(-1)).toMatchObject({ type: 'done', finishReason: 'length' });
	});

	it('throws CancelledError within one token step when the AbortSignal fires', async () => {
		const controller = new AbortController();
		let tokens = 0;
		const run = (async () => {
			for await (const event of model(20).generate(REQUEST, CALL, controller.signal)) {
				if (event.type === 'token' && ++tokens === 2) controller.abort();
			}
		})();
		await expect(run).rejects.toBeInstanceOf(CancelledError);
		expect(tokens).toBeLessThanOrEqual(3);
	});

	it('polls a plain { aborted } signal (core has no AbortSignal)', async () => {
		const signal = { aborted: false };
		let tokens = 0;
		const m = new LocalWorkerModel({
			client: createInThreadClient(new FakeEngine({ batchDelayMs: 30 })),
			spec: SPEC,
			cancelPollMs: 5,
		});
		const run = (async () => {
			for await (const event of m.generate(REQUEST, CALL, signal)) {
				if (event.type === 'token' && ++tokens === 1) signal.aborted = true;
			}
		})();
		await expect(run).rejects.toBeInstanceOf(CancelledError);
		expect(tokens).toBeLessThanOrEqual(2);
	});

	it('stops the worker when the consumer breaks early', async () => {
		const signals: AbortSignal[] = [];
		class RecordingEngine extends FakeEngine {
			override generate(
				params: Parameters<FakeEngine['generate']>[0],
				options: Parameters<FakeEngine['generate']>[1] = {},
			): ReturnType<FakeEngine['generate']> {
				if (options.signal) signals.push(options.signal);
				return super.generate(params, options);
			}
		}
		const m = new LocalWorkerModel({
			client: createInThreadClient(new RecordingEngine({ batchDelayMs: 20 })),
			spec: SPEC,
		});
		for await (const event of m.generate(REQUEST, CALL)) {
			if (event.type === 'token') break;
		}
		await new Promise((resolve) => setTimeout(resolve, 10));
		expect(signals).toHaveLength(1);
		expect(signals[0]?.aborted).toBe(true);
	});

	it('counts tokens without special ones and labels the model by its spec', async () => {
		const m = model();
		expect(await m.countTokens('a b, c')).toBe(4);
		expect(m.label).toBe('bundled:gpt2-random-tiny');
		expect(
			localModelLabel({ ...SPEC, source: 'hub', id: 'Xenova/distilgpt2', revision: 'main' }),
		).toBe('hub:Xenova/distilgpt2@main');
		expect(m.abilities).toEqual({ score: true, generate: true, chat: false });
	});
});
