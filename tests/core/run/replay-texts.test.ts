import { describe, expect, it } from 'vitest';
import type { TextModelSpec } from '../../../src/core/model/model-spec';
import { replayTextsOf } from '../../../src/core/run/replay-texts';

const REPLAY_A: TextModelSpec = { source: 'replay', file: 'a.jsonl', sha256: 'aa' };
const REPLAY_B: TextModelSpec = { source: 'replay', file: 'b.jsonl', sha256: 'bb' };
const LOCAL: TextModelSpec = { source: 'bundled', id: 'tiny', dtype: 'fp32', backend: 'wasm' };

describe('replayTextsOf', () => {
	it('keeps the text of each replay model by its SHA-256', () => {
		expect(
			replayTextsOf([
				{ spec: REPLAY_A, replayText: 'answers a' },
				{ spec: REPLAY_B, replayText: 'answers b' },
			]),
		).toEqual({ aa: 'answers a', bb: 'answers b' });
	});

	it('skips roles not used, other models, and replay models without text', () => {
		expect(replayTextsOf([null, { spec: LOCAL, replayText: 'stray' }, { spec: REPLAY_A }])).toEqual(
			{},
		);
	});

	it('keeps one text when both roles answer from the same file', () => {
		expect(
			replayTextsOf([
				{ spec: REPLAY_A, replayText: 'same' },
				{ spec: REPLAY_A, replayText: 'same' },
			]),
		).toEqual({ aa: 'same' });
	});
});
