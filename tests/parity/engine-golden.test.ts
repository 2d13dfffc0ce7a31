// Golden parity in Node: TransformersEngine (onnxruntime-node, fp32, `bos` convention) against the
// PyTorch surprisals and offsets of ../shared/models/golden (vendored in tests/fixtures/golden).
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../src/worker/node-engine';
import type { ScoredText } from '../../src/worker/protocol';

interface GoldenSentence {
	readonly id: number;
	readonly text: string;
	readonly tokens: readonly string[];
	readonly offsets: readonly (readonly [number, number])[];
	readonly surprisal_bits: readonly (number | null)[];
}

const TOLERANCE_BITS = 1e-3;

/** A sentence sharing the first half (by words) of `text`, then going its own way: scored just
 * before `text`, it makes the engine reuse its cache for the shared beginning of `text`. */
function sibling(text: string): string {
	const words = text.split(' ');
	return `${words.slice(0, Math.ceil(words.length / 2)).join(' ')} zebra crossing`;
}

/** Largest |engine − PyTorch| over the golden sentences, after checking tokens and offsets. */
function maxDifferenceBits(
	sentences: readonly GoldenSentence[],
	scored: readonly ScoredText[],
): number {
	let maxDifference = 0;
	sentences.forEach((sentence, i) => {
		const tokens = scored[i]?.tokens ?? [];
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
	return maxDifference;
}

describe.each(['gpt2-en-small', 'gpt2-random-tiny'])(
	'golden parity: %s (Node, fp32, bos)',
	(id) => {
		it('matches PyTorch surprisals within 1e-3 bits and the golden tokens and offsets, all 60 sentences, plain and reusing shared prefixes', async () => {
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
			const maxDifference = maxDifferenceBits(golden.sentences, result.texts);
			console.log(`${id}: Node max |Δ| = ${maxDifference} bits`);
			expect(maxDifference).toBeLessThanOrEqual(TOLERANCE_BITS);

			// Each golden sentence right after a sibling that shares its first half: the engine
			// reuses the sibling's key/value cache for that half and runs only the rest.
			const texts = golden.sentences.flatMap((s) => [sibling(s.text), s.text]);
			const reused = await engine.scoreTexts({ modelKey, texts, convention: 'bos' });
			expect(reused.prefixReuse).toEqual({ used: true });
			expect(reused.positionsComputed).toBeLessThan(0.9 * reused.tokenCount);
			const withReuse = maxDifferenceBits(
				golden.sentences,
				reused.texts.filter((_, i) => i % 2 === 1),
			);
			console.log(`${id}: Node with prefix reuse max |Δ| = ${withReuse} bits`);
			expect(withReuse).toBeLessThanOrEqual(TOLERANCE_BITS);
			await engine.disposeModel(modelKey);
		});
	},
);
