// The hub path of the real worker without the network: Playwright answers the worker's requests
// to https://huggingface.co/<id>/resolve/<revision>/<file> with the bundled gpt2-random-tiny
// files. Checks byte progress, scores equal to the bundled model, and the browser cache listing
// and deletion; and that an unanswered hub request is a NetworkUnavailableError.
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import type { EngineHarness } from '../../src/worker/engine-harness';

const HUB_ID = 'benchtop-test/tiny-gpt2';
const FOLDER = new URL('../../public/models/gpt2-random-tiny/', import.meta.url);
const TEXTS = ['The keys to the cabinet are on the table.', 'Zoë paid €5 — naïvely.'];

test('a hub model downloads with byte progress, scores like the bundled copy, is cached and deleted', async ({
	page,
}) => {
	const served: string[] = [];
	await page.route('https://huggingface.co/**', async (route) => {
		const url = new URL(route.request().url());
		const prefix = `/${HUB_ID}/resolve/main/`;
		const file = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : '';
		const body = file ? await readFile(new URL(file, FOLDER)).catch(() => undefined) : undefined;
		served.push(`${file || url.pathname} ${body ? 200 : 404}`);
		await route.fulfill({
			status: body ? 200 : 404,
			body: body ?? 'not found',
			headers: {
				'access-control-allow-origin': '*',
				'access-control-expose-headers': 'content-length, content-range, etag',
				'cross-origin-resource-policy': 'cross-origin',
				'content-length': String(body?.length ?? 9),
			},
		});
	});
	await page.goto('/harness/engine.html');
	await expect(page.locator('#status')).toHaveText('ready');
	const result = await page.evaluate(
		async ({ id, texts }) => {
			const harness = window.benchtopEngine as EngineHarness;
			const hub = await harness.load({
				source: 'hub',
				id,
				revision: 'main',
				dtype: 'fp32',
				backend: 'wasm',
			});
			const bundled = await harness.load({
				source: 'bundled',
				id: 'gpt2-random-tiny',
				dtype: 'fp32',
				backend: 'wasm',
			});
			const hubScores = await harness.score(hub.modelKey, texts, 'bos');
			const bundledScores = await harness.score(bundled.modelKey, texts, 'bos');
			const cachedBefore = await harness.listCachedModels();
			const deleted = await harness.deleteCachedModel(id);
			const cachedAfter = await harness.listCachedModels();
			return {
				hub,
				progress: harness.progress,
				hubTexts: hubScores.texts,
				bundledTexts: bundledScores.texts,
				cachedBefore,
				deleted,
				cachedAfter,
			};
		},
		{ id: HUB_ID, texts: TEXTS },
	);
	expect(served).toContain('onnx/model.onnx 200');
	expect(result.hub.spec).toMatchObject({ source: 'hub', id: HUB_ID, backend: 'wasm' });
	const onnxSize = (await readFile(new URL('onnx/model.onnx', FOLDER))).length;
	const onnxProgress = result.progress.filter((p) => p.file === 'onnx/model.onnx');
	expect(onnxProgress.some((p) => p.status === 'progress' && p.total === onnxSize)).toBe(true);
	expect(onnxProgress.at(-1)?.status).toBe('done');
	expect(result.hubTexts).toEqual(result.bundledTexts);
	const hubEntry = result.cachedBefore.find((m) => m.id === HUB_ID);
	expect(hubEntry).toMatchObject({ source: 'hub' });
	expect(hubEntry?.bytes).toBeGreaterThanOrEqual(onnxSize);
	expect(result.deleted.filesDeleted).toBe(hubEntry?.files);
	expect(result.cachedAfter.find((m) => m.id === HUB_ID)).toBeUndefined();
});

test('a hub model with no network fails with NetworkUnavailableError', async ({ page }) => {
	await page.route('https://huggingface.co/**', (route) => route.abort('internetdisconnected'));
	await page.goto('/harness/engine.html');
	await expect(page.locator('#status')).toHaveText('ready');
	const error = await page.evaluate(async (id) => {
		const harness = window.benchtopEngine as EngineHarness;
		try {
			await harness.load({ source: 'hub', id, revision: 'main', dtype: 'fp32', backend: 'wasm' });
			return null;
		} catch (e) {
			return { name: (e as Error).name, message: (e as Error).message };
		}
	}, HUB_ID);
	expect(error?.name).toBe('NetworkUnavailableError');
	expect(error?.message).toMatch(/network/);
});
