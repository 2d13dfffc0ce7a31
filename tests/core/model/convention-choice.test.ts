// The convention of a model choice: one key per model (weights and backend are the same model),
// the facts the choice alone gives, and the user's pick over the model's default.
import { describe, expect, it } from 'vitest';
import {
	conventionDefaultOf,
	conventionFactsOf,
	conventionModelKey,
	settleConvention,
} from '../../../src/core/model/convention-choice';

const bundled = { source: 'bundled', id: 'gpt2-en-small', dtype: 'fp32', backend: 'wasm' } as const;
const hub = { source: 'hub', id: 'o/m', dtype: 'fp32', backend: 'wasm' } as const;
const endpoint = { source: 'openai', model: 'm', baseUrl: 'http://127.0.0.1:8000/v1' } as const;

describe('conventionModelKey', () => {
	it('names the model, not its weights or backend', () => {
		expect(conventionModelKey(bundled)).toBe('bundled:gpt2-en-small');
		expect(conventionModelKey({ ...bundled, dtype: 'q8', backend: 'webgpu' })).toBe(
			'bundled:gpt2-en-small',
		);
		expect(conventionModelKey(hub)).toBe('hub:o/m@main');
		expect(conventionModelKey({ ...hub, revision: 'v2' })).toBe('hub:o/m@v2');
		expect(conventionModelKey(endpoint)).toBe('openai:m@http://127.0.0.1:8000/v1');
		expect(conventionModelKey(null)).toBeNull();
	});
});

describe('conventionFactsOf', () => {
	it('knows bundled and endpoint models at once; a hub model or a folder needs its tokenizer files', () => {
		expect(conventionDefaultOf(conventionFactsOf(bundled))?.convention).toBe('bos');
		expect(conventionFactsOf({ ...bundled, source: 'local', id: 'folder' })).toBeNull();
		expect(conventionDefaultOf(conventionFactsOf(endpoint))?.convention).toBe('reference');
		expect(conventionFactsOf(hub)).toBeNull();
		expect(conventionDefaultOf(null)).toBeNull();
	});
});

describe('settleConvention', () => {
	const bos = { convention: 'bos', reason: 'why' } as const;

	it('takes the pick made for this model, else the model default, else waits', () => {
		const pick = { modelKey: 'a', convention: 'bos+eos' } as const;
		expect(settleConvention('a', bos, pick)).toEqual({ convention: 'bos+eos', pending: false });
		expect(settleConvention('b', bos, pick)).toEqual({ convention: 'bos', pending: false });
		expect(settleConvention('b', null, pick)).toEqual({ convention: 'bos+eos', pending: true });
		// Nothing chosen: nothing to wait for (a run cannot start anyway).
		expect(settleConvention(null, null, pick)).toEqual({ convention: 'bos+eos', pending: false });
	});
});
