// The WebGPU path of the real worker (decomposed log-prob tail, GPU sessions) on whatever adapter
// Chromium gives with --enable-unsafe-webgpu: a SwiftShader (CPU) adapter on machines without a
// GPU, which is slow but exact enough for a correctness check on gpt2-random-tiny. Skipped when
// no adapter is available; without one, the engine must fall back to WASM and say why.
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { buildSuiteSentences } from '../../src/core/syntaxgym/suite/build-sentences';
import { parseSuite } from '../../src/core/syntaxgym/suite/parse-suite';
import type { EngineHarness } from '../../src/worker/engine-harness';

interface GoldenSentence {
	readonly text: string;
	readonly tokens: readonly string[];
	readonly surprisal_bits: readonly (number | null)[];
}

// launchOptions replace the config's as a whole: the executable is named again.
test.use({
	launchOptions: {
		executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
		args: ['--enable-unsafe-webgpu'],
	},
});

test('WebGPU (or the WASM fallback, said so) matches the golden surprisals of gpt2-random-tiny', async ({
	page,
}) => {
	const url = new URL('../fixtures/golden/surprisals-gpt2-random-tiny.json', import.meta.url);
	// SwiftShader runs WebGPU on the CPU: the first 24 sentences keep this under a minute.
	const all = JSON.parse(await readFile(url, 'utf8')) as { sentences: GoldenSentence[] };
	const golden = { sentences: all.sentences.slice(0, 24) };
	test.setTimeout(300_000);
	await page.goto('/harness/engine.html');
	await expect(page.locator('#status')).toHaveText('ready');
	const result = await page.evaluate(
		async (texts) => {
			const gpu = (navigator as { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
			const adapter = gpu ? await gpu.requestAdapter().catch(() => null) : null;
			const harness = window.benchtopEngine as EngineHarness;
			const info = await harness.load({
				source: 'bundled',
				id: 'gpt2-random-tiny',
				dtype: 'fp32',
				backend: 'webgpu',
			});
			const scored = await harness.score(info.modelKey, texts, 'bos');
			return { adapter: adapter !== null, info, texts: scored.texts };
		},
		golden.sentences.map((s) => s.text),
	);
	if (result.adapter) {
		expect(result.info.spec.backend, result.info.fallbackReason).toBe('webgpu');
	} else {
		expect(result.info.spec.backend).toBe('wasm');
		expect(result.info.fallbackReason).toMatch(/WebGPU/);
	}
	let maxDifference = 0;
	golden.sentences.forEach((sentence, i) => {
		const tokens = result.texts[i]?.tokens ?? [];
		expect(tokens.map((t) => t.token)).toEqual(sentence.tokens);
		sentence.surprisal_bits.forEach((expected, k) => {
			if (expected === null) return;
			maxDifference = Math.max(
				maxDifference,
				Math.abs((tokens[k]?.surprisalBits ?? NaN) - expected),
			);
		});
	});
	console.log(`gpt2-random-tiny on ${result.info.spec.backend}: max |Δ| = ${maxDifference} bits`);
	expect(maxDifference).toBeLessThanOrEqual(1e-3);
});

test('WebGPU: shared-prefix reuse gives every token of a bundled suite as plain batches (≤ 1e-4 bits)', async ({
	page,
}) => {
	test.setTimeout(300_000);
	const parsed = parseSuite(await readFile('suites/subject-verb-agreement-pp.json', 'utf8'));
	if (!parsed.ok) throw new Error('the bundled suite does not parse');
	const texts = buildSuiteSentences(parsed.suite).map((sentence) => sentence.text);
	await page.goto('/harness/engine.html');
	await expect(page.locator('#status')).toHaveText('ready');
	const result = await page.evaluate(async (sentences) => {
		const gpu = (navigator as { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
		const adapter = gpu ? await gpu.requestAdapter().catch(() => null) : null;
		if (!adapter) return null;
		const harness = window.benchtopEngine as EngineHarness;
		const info = await harness.load({
			source: 'bundled',
			id: 'gpt2-random-tiny',
			dtype: 'fp32',
			backend: 'webgpu',
		});
		const plain = await harness.score(info.modelKey, sentences, 'bos', undefined, false);
		const reused = await harness.score(info.modelKey, sentences, 'bos', undefined, true);
		return { backend: info.spec.backend, plain, reused };
	}, texts);
	test.skip(result === null, 'no WebGPU adapter in this browser');
	if (result === null) return;
	expect(result.backend).toBe('webgpu');
	expect(result.reused.prefixReuse?.used).toBe(true);
	let maxDifference = 0;
	result.plain.texts.forEach((text, i) => {
		const other = result.reused.texts[i]?.tokens ?? [];
		expect(other.map((t) => t.token)).toEqual(text.tokens.map((t) => t.token));
		text.tokens.forEach((token, k) => {
			maxDifference = Math.max(
				maxDifference,
				Math.abs(token.surprisalBits - (other[k]?.surprisalBits ?? NaN)),
			);
		});
	});
	console.log(
		`WebGPU prefix reuse vs plain, ${texts.length} sentences: max |Δ| = ${maxDifference} bits; positions ${result.reused.positionsComputed} vs ${result.plain.positionsComputed}`,
	);
	expect(result.reused.positionsComputed ?? Infinity).toBeLessThan(
		result.plain.positionsComputed ?? 0,
	);
	expect(maxDifference).toBeLessThanOrEqual(1e-4);
});
