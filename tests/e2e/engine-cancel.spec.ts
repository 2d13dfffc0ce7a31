// Cancellation through the real worker: an aborted scoring request stops within a batch or two
// (the cancel message must get through while batches run) and rejects with CancelledError.
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import type { EngineHarness } from '../../src/worker/engine-harness';

test('cancel during scoring stops within one batch with CancelledError', async ({ page }) => {
	const url = new URL('../fixtures/golden/surprisals-gpt2-en-small.json', import.meta.url);
	const golden = JSON.parse(await readFile(url, 'utf8')) as { sentences: { text: string }[] };
	const texts = golden.sentences.map((s) => s.text);
	await page.goto('/harness/engine.html');
	await expect(page.locator('#status')).toHaveText('ready');
	const result = await page.evaluate(async (texts) => {
		const harness = window.benchtopEngine as EngineHarness;
		const info = await harness.load({
			source: 'bundled',
			id: 'gpt2-en-small',
			dtype: 'fp32',
			backend: 'wasm',
		});
		return harness.scoreAndCancel(info.modelKey, texts, 2, 2);
	}, texts);
	// 60 sentences in batches of 2 = 30 batches; the abort is sent after the 2nd.
	expect(result.errorName).toBe('CancelledError');
	expect(result.progressEvents).toBeLessThanOrEqual(4);
});
