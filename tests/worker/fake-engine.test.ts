import { describe, expect, it } from 'vitest';
import {
	CancelledError,
	ModelFileMissingError,
	ModelNotLoadedError,
	UnsupportedModelError,
} from '../../src/worker/engine-errors';
import {
	FAKE_BOS,
	FAKE_EOS,
	FAKE_FAILING_MODEL_IDS,
	FakeEngine,
	fakeBoundarySurprisalBits,
	fakeSurprisalBits,
	scoreFakeText,
} from '../../src/worker/fake-engine';
import type { ModelSpec } from '../../src/core/model/model-spec';
import type { ScoreProgress } from '../../src/worker/protocol';

const SPEC: ModelSpec = { source: 'bundled', id: 'gpt2-en-small', dtype: 'fp32', backend: 'wasm' };

describe('scoreFakeText', () => {
	it.each([
		['The dog barks.', ['The', ' dog', ' barks', '.']],
		["Don't stop", ["Don't", ' stop']],
		['  two  spaces  ', ['  two', '  spaces', '  ']],
		['café, naïve', ['café', ',', ' naïve']],
		['', []],
		['   ', ['   ']],
	])('splits %j into %j and the spans reassemble the text', (text, expected) => {
		const tokens = scoreFakeText(text, 'reference');
		expect(tokens.map((t) => t.token)).toEqual(expected);
		expect(tokens.map((t) => text.slice(t.start, t.end)).join('')).toBe(text);
	});

	it('gives the first token 0 bits under reference and scores the rest from their characters', () => {
		const tokens = scoreFakeText('The dog', 'reference');
		expect(tokens.map((t) => t.surprisalBits)).toEqual([0, fakeSurprisalBits(' dog')]);
	});

	it('prepends a special BOS under bos and appends a scored EOS under bos+eos', () => {
		const bos = scoreFakeText('Hi there', 'bos');
		expect(bos[0]).toEqual({ token: FAKE_BOS, surprisalBits: 0, start: 0, end: 0, special: true });
		expect(bos[1]?.surprisalBits).toBe(fakeSurprisalBits('Hi'));
		const eos = scoreFakeText('Hi there', 'bos+eos');
		expect(eos.at(-1)).toEqual({
			token: FAKE_EOS,
			surprisalBits: fakeSurprisalBits(FAKE_EOS),
			start: 8,
			end: 8,
			special: true,
		});
	});

	it('keeps surprisals in [1, 16) bits', () => {
		for (const token of ['a', ' the', '.', 'xyzzy', ' café']) {
			const bits = fakeSurprisalBits(token);
			expect(bits).toBeGreaterThanOrEqual(1);
			expect(bits).toBeLessThan(16);
		}
	});
});

describe('FakeEngine', () => {
	it('wordBoundaries: every token (BOS too) gets its deterministic boundary surprisal; none without', async () => {
		const engine = new FakeEngine();
		const { modelKey } = await engine.loadModel({ spec: SPEC });
		const request = { modelKey, texts: ['Hi there.'], convention: 'bos' } as const;
		const plain = await engine.scoreTexts(request);
		const withBoundaries = await engine.scoreTexts({ ...request, wordBoundaries: true });
		const tokens = withBoundaries.texts[0]?.tokens ?? [];
		expect(tokens.map((t) => [t.token, t.boundarySurprisalBits])).toEqual(
			[FAKE_BOS, 'Hi', ' there', '.'].map((token) => [token, fakeBoundarySurprisalBits(token)]),
		);
		expect(tokens.map(({ boundarySurprisalBits: _b, ...rest }) => rest)).toEqual(
			plain.texts[0]?.tokens,
		);
		for (const token of plain.texts[0]?.tokens ?? []) {
			expect(token).not.toHaveProperty('boundarySurprisalBits');
		}
		for (const token of ['a', ' the', '.', FAKE_EOS]) {
			expect(fakeBoundarySurprisalBits(token)).toBeGreaterThanOrEqual(0.1);
			expect(fakeBoundarySurprisalBits(token)).toBeLessThan(3.1);
		}
	});

	it('scores in input order, one progress event per batch', async () => {
		const engine = new FakeEngine();
		const { modelKey } = await engine.loadModel({ spec: SPEC });
		const texts = ['a b', 'c', 'd e f', 'g', 'h'];
		const events: ScoreProgress[] = [];
		const result = await engine.scoreTexts(
			{ modelKey, texts, convention: 'bos', maxBatchSize: 2 },
			{ onProgress: (p) => events.push(p) },
		);
		expect(result.texts.map((t) => t.index)).toEqual([0, 1, 2, 3, 4]);
		expect(result.tokenCount).toBe(3 + 2 + 4 + 2 + 2);
		expect(events.map((e) => [e.done, e.total, e.texts.length])).toEqual([
			[2, 5, 2],
			[4, 5, 2],
			[5, 5, 1],
		]);
	});

	it('stops within one batch when cancelled', async () => {
		const engine = new FakeEngine({ batchDelayMs: 20 });
		const { modelKey } = await engine.loadModel({ spec: SPEC });
		const controller = new AbortController();
		let batches = 0;
		const promise = engine.scoreTexts(
			{
				modelKey,
				texts: Array.from({ length: 20 }, (_, i) => `s${i}`),
				convention: 'bos',
				maxBatchSize: 2,
			},
			{
				signal: controller.signal,
				onProgress: () => {
					batches++;
					if (batches === 2) controller.abort();
				},
			},
		);
		await expect(promise).rejects.toBeInstanceOf(CancelledError);
		expect(batches).toBe(2);
	});

	it('fails like a real engine for the failing model ids and unknown keys', async () => {
		const engine = new FakeEngine();
		await expect(
			engine.loadModel({ spec: { ...SPEC, id: FAKE_FAILING_MODEL_IDS.missingFile } }),
		).rejects.toBeInstanceOf(ModelFileMissingError);
		await expect(
			engine.loadModel({ spec: { ...SPEC, id: FAKE_FAILING_MODEL_IDS.notCausal } }),
		).rejects.toBeInstanceOf(UnsupportedModelError);
		await expect(
			engine.scoreTexts({ modelKey: 'nope', texts: ['a'], convention: 'bos' }),
		).rejects.toBeInstanceOf(ModelNotLoadedError);
	});

	it('tokenizes without scoring (NaN surprisal) and forgets disposed models', async () => {
		const engine = new FakeEngine();
		const { modelKey } = await engine.loadModel({ spec: SPEC });
		const { tokens } = await engine.tokenize({ modelKey, text: 'a b', convention: 'reference' });
		expect(tokens.map((t) => [t.token, t.start, t.end])).toEqual([
			['a', 0, 1],
			[' b', 1, 3],
		]);
		expect(tokens.every((t) => Number.isNaN(t.surprisalBits))).toBe(true);
		await engine.disposeModel(modelKey);
		await expect(
			engine.tokenize({ modelKey, text: 'a', convention: 'bos' }),
		).rejects.toBeInstanceOf(ModelNotLoadedError);
	});
});
