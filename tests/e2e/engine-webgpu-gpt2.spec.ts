// WebGPU agrees with WASM on a GPT-2-124M-shaped model (12 layers, 768 wide, 50,257-token output
// layer; built from a fixed seed by the bench's generator, fp32 only, into a temporary folder and
// served from the built app's models/ for this test): one sentence of each bundled suite, scored
// in the real worker on WASM and on the WebGPU adapter Chromium gives with --enable-unsafe-webgpu
// (SwiftShader, on the CPU, on machines without a GPU: slow, so a sample of sentences). Same
// tokens, surprisals within 1e-3 bits. Skipped, with the reason, where the browser has no adapter.
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ensureModelFolder, GPT2_124M, linkModelFolder } from '../../bench/gpt2-shaped-model';
import { buildSuiteSentences } from '../../src/core/syntaxgym/suite/build-sentences';
import { parseSuite } from '../../src/core/syntaxgym/suite/parse-suite';
import type { EngineHarness } from '../../src/worker/engine-harness';

const MODEL_ID = 'gpt2-124m-shaped-e2e';
const SERVED = join(process.env.BENCHTOP_E2E_OUT_DIR ?? 'dist', 'models', MODEL_ID);

test.use({
	launchOptions: {
		executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
		args: ['--enable-unsafe-webgpu'],
	},
});

test.beforeAll(async () => {
	test.setTimeout(120_000);
	const { dir } = await ensureModelFolder(
		'gpt2-124m-shaped',
		{
			config: GPT2_124M,
			seed: 124,
			tokenizerDir: new URL('../../public/models/gpt2-en-small/', import.meta.url).pathname,
			variants: ['fp32'],
		},
		join(tmpdir(), 'benchtop-e2e-models'),
	);
	await linkModelFolder(dir, SERVED, 'fp32');
});

test.afterAll(async () => {
	await rm(SERVED, { recursive: true, force: true });
});

/** The first sentence of each bundled suite. */
async function sampleSentences(): Promise<string[]> {
	const index = JSON.parse(await readFile('suites/index.json', 'utf8')) as {
		suites: { file: string }[];
	};
	const sentences: string[] = [];
	for (const { file } of index.suites) {
		const parsed = parseSuite(await readFile(`suites/${file}`, 'utf8'));
		if (!parsed.ok) throw new Error(`the bundled suite ${file} does not parse`);
		const first = buildSuiteSentences(parsed.suite)[0];
		if (first) sentences.push(first.text);
	}
	return sentences;
}

test('WebGPU matches WASM within 1e-3 bits on a GPT-2-124M-shaped model', async ({ page }) => {
	test.setTimeout(600_000);
	const texts = await sampleSentences();
	await page.goto('/harness/engine.html');
	await expect(page.locator('#status')).toHaveText('ready');
	const adapter = await page.evaluate(async () => {
		const gpu = (navigator as { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
		return gpu ? (await gpu.requestAdapter().catch(() => null)) !== null : false;
	});
	test.skip(!adapter, 'this browser gives no WebGPU adapter');
	const result = await page.evaluate(
		async ({ id, texts }) => {
			const harness = window.benchtopEngine as EngineHarness;
			const score = async (backend: 'wasm' | 'webgpu') => {
				const info = await harness.load({ source: 'bundled', id, dtype: 'fp32', backend });
				const scored = await harness.score(info.modelKey, texts, 'bos');
				return { backend: info.spec.backend, fallbackReason: info.fallbackReason, scored };
			};
			return { wasm: await score('wasm'), webgpu: await score('webgpu') };
		},
		{ id: MODEL_ID, texts },
	);
	expect(result.wasm.backend).toBe('wasm');
	expect(result.webgpu.backend, result.webgpu.fallbackReason).toBe('webgpu');
	let maxDifference = 0;
	let tokens = 0;
	result.wasm.scored.texts.forEach((text, i) => {
		const other = result.webgpu.scored.texts[i]?.tokens ?? [];
		expect(other.map((t) => t.token)).toEqual(text.tokens.map((t) => t.token));
		text.tokens.forEach((token, k) => {
			tokens += 1;
			maxDifference = Math.max(
				maxDifference,
				Math.abs(token.surprisalBits - (other[k]?.surprisalBits ?? Number.NaN)),
			);
		});
	});
	console.log(
		`GPT-2-124M-shaped, ${texts.length} sentences, ${tokens} tokens: WebGPU vs WASM max |Δ| = ${maxDifference} bits ` +
			`(WASM ${Math.round(result.wasm.scored.wallMs)} ms, WebGPU ${Math.round(result.webgpu.scored.wallMs)} ms)`,
	);
	expect(texts.length).toBeGreaterThanOrEqual(8);
	expect(maxDifference).toBeLessThanOrEqual(1e-3);
});
