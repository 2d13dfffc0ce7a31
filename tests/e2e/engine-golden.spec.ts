// Golden parity in Chromium: the real inference worker (WASM, fp32, `bos` convention), driven by
// harness/engine.html, against the PyTorch surprisals and offsets in tests/fixtures/golden.
import { readdir, readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { buildSuiteSentences } from '../../src/core/syntaxgym/suite/build-sentences';
import { parseSuite } from '../../src/core/syntaxgym/suite/parse-suite';
import type { EngineHarness } from '../../src/worker/engine-harness';
import { createNodeEngine } from '../../src/worker/node-engine';

interface GoldenSentence {
	readonly id: number;
	readonly text: string;
	readonly tokens: readonly string[];
	readonly offsets: readonly (readonly [number, number])[];
	readonly surprisal_bits: readonly (number | null)[];
}

const TOLERANCE_BITS = 1e-3;

async function readGolden(id: string): Promise<{ sentences: GoldenSentence[] }> {
	const url = new URL(`../fixtures/golden/surprisals-${id}.json`, import.meta.url);
	return JSON.parse(await readFile(url, 'utf8')) as { sentences: GoldenSentence[] };
}

/** Each golden sentence right after a sibling sharing its first half (by words), so most borrow a
 * cache: sentence i is at 2i + 1. */
function withSiblings(sentences: readonly GoldenSentence[]): string[] {
	return sentences.flatMap((s) => {
		const words = s.text.split(' ');
		return [`${words.slice(0, Math.ceil(words.length / 2)).join(' ')} zebra crossing`, s.text];
	});
}

for (const id of ['gpt2-en-small', 'gpt2-random-tiny']) {
	test(`golden parity in Chromium (WASM, fp32, bos): ${id}, all 60 sentences`, async ({ page }) => {
		const golden = await readGolden(id);
		expect(golden.sentences).toHaveLength(60);
		// Bundled models and the self-hosted ORT wasm: no request leaves the app's origin.
		const requests: string[] = [];
		page.on('request', (request) => requests.push(request.url()));
		await page.goto('/harness/engine.html');
		await expect(page.locator('#status')).toHaveText('ready');
		const result = await page.evaluate(
			async ({ id, texts }) => {
				const harness = window.benchtopEngine as EngineHarness;
				const info = await harness.load({ source: 'bundled', id, dtype: 'fp32', backend: 'wasm' });
				const scored = await harness.score(info.modelKey, texts, 'bos');
				return {
					info,
					texts: scored.texts,
					isolated: harness.crossOriginIsolated,
					progress: harness.progress,
				};
			},
			{ id, texts: golden.sentences.map((s) => s.text) },
		);
		expect(result.isolated).toBe(true);
		const origin = new URL(page.url()).origin;
		expect(requests.filter((url) => !url.startsWith(origin) && !url.startsWith('blob:'))).toEqual(
			[],
		);
		expect(requests.some((url) => url.includes(`/models/${id}/onnx/model.onnx`))).toBe(true);
		expect(requests.some((url) => /ort-wasm-simd-threaded\.asyncify.*\.wasm$/.test(url))).toBe(
			true,
		);
		expect(result.info.spec.backend).toBe('wasm');
		// The server sends the ONNX file with its Content-Length: byte progress has the true total.
		const onnxBytes = (
			await readFile(new URL(`../../public/models/${id}/onnx/model.onnx`, import.meta.url))
		).length;
		expect(
			result.progress.some(
				(p) => p.file === 'onnx/model.onnx' && p.status === 'progress' && p.total === onnxBytes,
			),
		).toBe(true);
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
		test.info().annotations.push({ type: 'max |Δ| bits', description: String(maxDifference) });
		console.log(`${id}: Chromium WASM max |Δ| = ${maxDifference} bits`);
		expect(maxDifference).toBeLessThanOrEqual(TOLERANCE_BITS);
	});
}

test('batch invariance in Chromium (WASM, fp32): gpt2-en-small alone vs batched, ≤ 1e-4 bits', async ({
	page,
}) => {
	const golden = await readGolden('gpt2-en-small');
	await page.goto('/harness/engine.html');
	await expect(page.locator('#status')).toHaveText('ready');
	const runs = await page.evaluate(
		async (texts) => {
			const harness = window.benchtopEngine as EngineHarness;
			const info = await harness.load({
				source: 'bundled',
				id: 'gpt2-en-small',
				dtype: 'fp32',
				backend: 'wasm',
			});
			const alone = await harness.score(info.modelKey, texts, 'bos', 1);
			const batched = await harness.score(info.modelKey, texts, 'bos');
			const reversed = await harness.score(info.modelKey, [...texts].reverse(), 'bos', 7);
			return [alone.texts, batched.texts, [...reversed.texts].reverse()];
		},
		golden.sentences.map((s) => s.text),
	);
	const [alone = [], ...others] = runs;
	let maxDifference = 0;
	for (const other of others) {
		alone.forEach((text, i) => {
			const tokens = other[i]?.tokens ?? [];
			expect(tokens.map((t) => t.token)).toEqual(text.tokens.map((t) => t.token));
			text.tokens.forEach((t, k) => {
				maxDifference = Math.max(
					maxDifference,
					Math.abs(t.surprisalBits - (tokens[k]?.surprisalBits ?? NaN)),
				);
			});
		});
	}
	console.log(`gpt2-en-small: Chromium WASM batch invariance max |Δ| = ${maxDifference} bits`);
	expect(maxDifference).toBeLessThanOrEqual(1e-4);
});

test('shared-prefix reuse in Chromium (WASM, fp32): golden parity (≤ 1e-3 bits), and every token of the bundled suites as in plain batches (≤ 1e-4 bits)', async ({
	page,
}) => {
	const golden = await readGolden('gpt2-en-small');
	const siblings = withSiblings(golden.sentences);
	const suiteTexts: string[] = [];
	const suitesDir = new URL('../../suites/', import.meta.url);
	for (const file of (await readdir(suitesDir)).filter((f) => f.endsWith('.json')).sort()) {
		if (file === 'index.json') continue;
		const parsed = parseSuite(await readFile(new URL(file, suitesDir), 'utf8'), {
			mode: 'compatible',
		});
		if (parsed.ok) suiteTexts.push(...buildSuiteSentences(parsed.suite).map((s) => s.text));
	}
	await page.goto('/harness/engine.html');
	await expect(page.locator('#status')).toHaveText('ready');
	const runs = await page.evaluate(
		async ({ siblings, suiteTexts }) => {
			const harness = window.benchtopEngine as EngineHarness;
			const info = await harness.load({
				source: 'bundled',
				id: 'gpt2-en-small',
				dtype: 'fp32',
				backend: 'wasm',
			});
			const golden = await harness.score(info.modelKey, siblings, 'bos');
			const reused = await harness.score(info.modelKey, suiteTexts, 'bos');
			const plain = await harness.score(info.modelKey, suiteTexts, 'bos', undefined, false);
			return { golden, reused, plain };
		},
		{ siblings, suiteTexts },
	);
	expect(runs.golden.prefixReuse).toEqual({ used: true });
	expect(runs.golden.positionsComputed).toBeLessThan(0.9 * runs.golden.tokenCount);
	let goldenDifference = 0;
	golden.sentences.forEach((sentence, i) => {
		const tokens = runs.golden.texts[2 * i + 1]?.tokens ?? [];
		expect(tokens.map((t) => t.token)).toEqual(sentence.tokens);
		sentence.surprisal_bits.forEach((expected, k) => {
			if (expected === null) return expect(tokens[k]?.surprisalBits).toBe(0);
			goldenDifference = Math.max(
				goldenDifference,
				Math.abs((tokens[k]?.surprisalBits ?? NaN) - expected),
			);
		});
	});
	expect(runs.reused.prefixReuse).toEqual({ used: true });
	expect(runs.plain.prefixReuse?.used).toBe(false);
	expect(runs.reused.positionsComputed).toBeLessThan(runs.plain.positionsComputed ?? 0);
	let plainDifference = 0;
	runs.plain.texts.forEach((text, i) => {
		const tokens = runs.reused.texts[i]?.tokens ?? [];
		expect(tokens.map((t) => t.token)).toEqual(text.tokens.map((t) => t.token));
		text.tokens.forEach((t, k) => {
			plainDifference = Math.max(
				plainDifference,
				Math.abs(t.surprisalBits - (tokens[k]?.surprisalBits ?? NaN)),
			);
		});
	});
	console.log(
		`Chromium WASM with prefix reuse: golden max |Δ| = ${goldenDifference} bits; ` +
			`vs plain, ${suiteTexts.length} suite sentences, max |Δ| = ${plainDifference} bits; ` +
			`positions ${runs.reused.positionsComputed} vs ${runs.plain.positionsComputed}`,
	);
	expect(goldenDifference).toBeLessThanOrEqual(TOLERANCE_BITS);
	expect(plainDifference).toBeLessThanOrEqual(1e-4);
});

test('word boundaries in Chromium (WASM, fp32): as in Node (≤ 1e-3 bits), plain and reused batches alike and surprisals unchanged (≤ 1e-4 bits)', async ({
	page,
}) => {
	const golden = await readGolden('gpt2-en-small');
	const texts = withSiblings(golden.sentences);
	await page.goto('/harness/engine.html');
	await expect(page.locator('#status')).toHaveText('ready');
	const runs = await page.evaluate(async (texts) => {
		const harness = window.benchtopEngine as EngineHarness;
		const info = await harness.load({
			source: 'bundled',
			id: 'gpt2-en-small',
			dtype: 'fp32',
			backend: 'wasm',
		});
		const without = await harness.score(info.modelKey, texts, 'bos');
		const reused = await harness.score(info.modelKey, texts, 'bos', undefined, true, true);
		const plain = await harness.score(info.modelKey, texts, 'bos', undefined, false, true);
		return { without, reused, plain };
	}, texts);
	const engine = createNodeEngine({ threads: 2 });
	const { modelKey } = await engine.loadModel({
		spec: { source: 'bundled', id: 'gpt2-en-small', dtype: 'fp32', backend: 'node-cpu' },
	});
	const node = await engine.scoreTexts({
		modelKey,
		texts,
		convention: 'bos',
		wordBoundaries: true,
	});
	await engine.disposeModel(modelKey);
	expect(runs.reused.prefixReuse).toEqual({ used: true });
	const maxDifference = (
		a: typeof node.texts,
		b: typeof node.texts,
		field: 'surprisalBits' | 'boundarySurprisalBits',
	): number => {
		let max = 0;
		a.forEach((text, i) => {
			const tokens = b[i]?.tokens ?? [];
			expect(tokens.map((t) => t.token)).toEqual(text.tokens.map((t) => t.token));
			text.tokens.forEach((t, k) => {
				max = Math.max(max, Math.abs((t[field] ?? NaN) - (tokens[k]?.[field] ?? NaN)));
			});
		});
		return max;
	};
	const vsNode = maxDifference(node.texts, runs.reused.texts, 'boundarySurprisalBits');
	const plainVsReused = maxDifference(runs.plain.texts, runs.reused.texts, 'boundarySurprisalBits');
	const surprisals = maxDifference(runs.without.texts, runs.reused.texts, 'surprisalBits');
	console.log(
		`Chromium WASM word boundaries: vs Node max |Δ| = ${vsNode} bits; plain vs reused ` +
			`${plainVsReused}; surprisals with vs without the flag ${surprisals}`,
	);
	// Chromium's WASM kernels against Node's CPU ones: the golden parity tolerance (measured ~7e-5).
	expect(vsNode).toBeLessThanOrEqual(TOLERANCE_BITS);
	// The flag feeds each text's last token too, so batches take other shapes; WASM's numbers
	// depend on the shape within the batch-invariance tolerance (measured ~3e-5; exactly 0 in Node).
	expect(plainVsReused).toBeLessThanOrEqual(1e-4);
	expect(surprisals).toBeLessThanOrEqual(1e-4);
});

test('a request during the warm-up after loading is scored as one after it (Chromium, WASM)', async ({
	page,
}) => {
	const golden = await readGolden('gpt2-en-small');
	await page.goto('/harness/engine.html');
	await expect(page.locator('#status')).toHaveText('ready');
	const [during, after] = await page.evaluate(
		async (texts) => {
			const harness = window.benchtopEngine as EngineHarness;
			const info = await harness.load({
				source: 'bundled',
				id: 'gpt2-en-small',
				dtype: 'fp32',
				backend: 'wasm',
			});
			// The worker's warm-up (src/worker/model-warm-up.ts) is under way: this request stops it.
			await new Promise((resolve) => setTimeout(resolve, 300));
			const first = await harness.score(info.modelKey, texts, 'bos');
			const second = await harness.score(info.modelKey, texts, 'bos');
			return [first.texts, second.texts];
		},
		golden.sentences.map((s) => s.text),
	);
	let maxDifference = 0;
	golden.sentences.forEach((sentence, i) => {
		const first = during?.[i]?.tokens ?? [];
		const second = after?.[i]?.tokens ?? [];
		expect(first.map((t) => t.token)).toEqual(sentence.tokens);
		expect(second.map((t) => t.token)).toEqual(sentence.tokens);
		sentence.surprisal_bits.forEach((expected, k) => {
			if (expected === null) return;
			maxDifference = Math.max(
				maxDifference,
				Math.abs((first[k]?.surprisalBits ?? NaN) - expected),
				Math.abs((first[k]?.surprisalBits ?? NaN) - (second[k]?.surprisalBits ?? NaN)),
			);
		});
	});
	expect(maxDifference).toBeLessThanOrEqual(TOLERANCE_BITS);
});
