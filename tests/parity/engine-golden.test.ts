// Golden parity in Node: TransformersEngine (onnxruntime-node, fp32, `bos` convention) against the
// PyTorch surprisals and offsets of ../shared/models/golden (vendored in tests/fixtures/golden).
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../src/worker/node-engine';

interface GoldenSentence {
	readonly id: number;
	readonly text: string;
	readonly tokens: readonly string[];
	readonly offsets: readonly (readonly [number, number])[];
	readonly surprisal_bits: readonly (number | null)[];
}

const TOLERANCE_BITS = 1e-3;

describe.each(['gpt2-en-small', 'gpt2-random-tiny'])(
	'golden parity: %s (Node, fp32, bos)',
	(id) => {
		it('matches PyTorch surprisals within 1e-3 bits and the golden tokens and offsets, all 60 sentences', async () => {
			const url = new URL(`../fixtures/golden/surprisals-${id}.json`, import.meta.url);
			const golden = JSON.parse(await readFile(url, 'utf8')) as { sentences: GoldenSentence[] };
			expect(golden.sentences).toHaveLength(60);
			const engine = createNodeEngine({ threads: 2 });
			const { modelKey } = await engine.loadModel({
				spec: { source: 'bundled', id, dtype: 'fp32', backend: 'node-cpu' },
			});
			const result = await engine.scoreTexts({
				modelKey,
				texts: golden.sentences.map((s) => s.text),
				convention: 'bos',
			});
			let maxDifference = 0;
			golden.sentences.forEach((sentence, i) => {
				const tokens = result.texts[i]?.tokens ?? [];
				expect(
					tokens.map((t) => t.token),
					`sentence ${sentence.id}`,
				).toEqual(sentence.tokens);
				expect(
					tokens.map((t) => [t.start, t.end]),
					`sentence ${sentence.id}`,
				).toEqual(sentence.offsets);
				sentence.surprisal_bits.forEach((expected, k) => {
					if (expected === null) return expect(tokens[k]?.surprisalBits).toBe(0);
					maxDifference = Math.max(
						maxDifference,
						Math.abs((tokens[k]?.surprisalBits ?? NaN) - expected),
					);
				});
			});
			console.log(`${id}: Node max |Δ| = ${maxDifference} bits`);
			expect(maxDifference).toBeLessThanOrEqual(TOLERANCE_BITS);
			await engine.disposeModel(modelKey);
		});
	},
);
