// A local model folder in the browser: the files a user picks (here the bundled tiny model's,
// fetched as Blobs) go to the worker with the load request and score exactly like the bundled
// model; a folder without its ONNX weights fails with ModelFileMissingError.
import { expect, test } from '@playwright/test';
import type { EngineHarness } from '../../src/worker/engine-harness';

const FILES = [
	'config.json',
	'generation_config.json',
	'tokenizer.json',
	'tokenizer_config.json',
	'onnx/model.onnx',
];
const TEXTS = ['The keys to the cabinet are on the table.', 'Zoë paid €5 — naïvely.'];

test('picked folder files score like the bundled model; without weights a named error', async ({
	page,
}) => {
	await page.goto('/harness/engine.html');
	await expect(page.locator('#status')).toHaveText('ready');
	const result = await page.evaluate(
		async ({ files, texts }) => {
			const harness = window.benchtopEngine as EngineHarness;
			const picked = await Promise.all(
				files.map(async (path) => ({
					path,
					file: await (await fetch(`/models/gpt2-random-tiny/${path}`)).blob(),
				})),
			);
			const base = { source: 'local', dtype: 'fp32', backend: 'wasm' } as const;
			const local = await harness.load({ ...base, id: 'my tiny model' }, picked);
			const bundled = await harness.load({ ...base, source: 'bundled', id: 'gpt2-random-tiny' });
			const localScores = await harness.score(local.modelKey, texts, 'bos');
			const bundledScores = await harness.score(bundled.modelKey, texts, 'bos');
			const error = await harness
				.load(
					{ ...base, id: 'no weights' },
					picked.filter((f) => !f.path.endsWith('.onnx')),
				)
				.then(
					() => null,
					(e: Error) => ({ name: e.name, message: e.message }),
				);
			return { local, localTexts: localScores.texts, bundledTexts: bundledScores.texts, error };
		},
		{ files: FILES, texts: TEXTS },
	);
	expect(result.local.spec).toMatchObject({ source: 'local', id: 'my tiny model' });
	expect(result.localTexts).toEqual(result.bundledTexts);
	expect(result.error?.name).toBe('ModelFileMissingError');
	expect(result.error?.message).toMatch(/model\.onnx/);
});
