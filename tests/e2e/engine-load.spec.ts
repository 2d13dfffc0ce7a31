// A bundled model's load in the real worker: its weights are downloaded once (transformers.js's
// size check, given a progress callback, used to GET the whole file a second time), the byte
// progress still reaches the page, ending with `done`, and no copy goes into transformers.js's
// Cache Storage (the service worker's precache holds the bundled models).
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import type { EngineHarness } from '../../src/worker/engine-harness';

const MODEL = 'gpt2-random-tiny';
const WEIGHTS = new URL(`../../public/models/${MODEL}/onnx/model.onnx`, import.meta.url);

test('a bundled model downloads its weights once, with byte progress', async ({
	context,
	page,
}) => {
	const weightRequests: string[] = [];
	await context.route(`**/models/${MODEL}/onnx/model.onnx`, async (route) => {
		weightRequests.push(route.request().method());
		await route.continue();
	});
	await page.goto('/harness/engine.html');
	await expect(page.locator('#status')).toHaveText('ready');
	const { progress, cachedPaths } = await page.evaluate(async (id) => {
		const harness = window.benchtopEngine as EngineHarness;
		await harness.load({ source: 'bundled', id, dtype: 'fp32', backend: 'wasm' });
		const paths: string[] = [];
		for (const name of await caches.keys()) {
			const cache = await caches.open(name);
			paths.push(...(await cache.keys()).map((request) => new URL(request.url).pathname));
		}
		return { progress: harness.progress, cachedPaths: paths };
	}, MODEL);
	expect(cachedPaths.filter((path) => path.includes(`/models/${MODEL}/`))).toEqual([]);
	expect(weightRequests).toEqual(['GET']);
	const size = (await readFile(WEIGHTS)).length;
	const weights = progress.filter((event) => event.file === 'onnx/model.onnx');
	expect(weights.some((event) => event.status === 'progress' && event.total === size)).toBe(true);
	expect(weights.at(-1)).toMatchObject({ status: 'done', loaded: size });
});
