// A model slow on WASM is offered WebGPU on the Battery page: GPT-2 (q8, a suggested hub model,
// never downloaded) over a long battery on a 2-core device. With a hardware adapter (the page's
// navigator.gpu answered by the test: no such GPU here) the picker offers it and "Use WebGPU"
// switches the backend; with Chromium's own software adapter (SwiftShader, from
// --enable-unsafe-webgpu) it is named and not offered; a short battery gets no advice.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';

test.use({
	launchOptions: {
		executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
		args: [
			'--disable-background-networking',
			'--disable-component-update',
			'--enable-unsafe-webgpu',
		],
	},
});

/** The bundled garden path `copies` times over, as one suite file. */
function longSuite(copies: number): { name: string; mimeType: string; buffer: Buffer } {
	const base = JSON.parse(readFileSync('suites/garden-path-npz.json', 'utf8')) as {
		meta: { name: string };
		items: { item_number: number }[];
	};
	const items = Array.from({ length: copies }, (_, copy) =>
		base.items.map((item, index) => ({ ...item, item_number: copy * 1000 + index + 1 })),
	).flat();
	const suite = { ...base, meta: { ...base.meta, name: `Garden path ×${copies}` }, items };
	return {
		name: `garden-path-x${copies}.json`,
		mimeType: 'application/json',
		buffer: Buffer.from(JSON.stringify(suite)),
	};
}

/** The device the estimate reads: 8 GiB, 2 cores; `adapter`: answer navigator.gpu with a hardware one. */
async function device(page: Page, adapter: 'hardware' | 'browser'): Promise<void> {
	await page.addInitScript((fakeAdapter) => {
		Object.defineProperty(navigator, 'deviceMemory', { get: () => 8 });
		Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => 2 });
		if (fakeAdapter) {
			const limits = { maxBufferSize: 2 ** 32, maxStorageBufferBindingSize: 2 ** 31 };
			const gpu = {
				requestAdapter: () =>
					Promise.resolve({ limits, info: { architecture: 'e2e', isFallbackAdapter: false } }),
			};
			Object.defineProperty(navigator, 'gpu', { get: () => gpu });
		}
	}, adapter === 'hardware');
	await page.route(/huggingface\.co/, (route) => route.abort());
}

async function pickGpt2q8(page: Page, copies: number): Promise<void> {
	await page.goto('/#/battery');
	await page.getByTestId('battery-files').setInputFiles([longSuite(copies)]);
	await expect(page.getByTestId('battery-totals')).toContainText('1 suite picked');
	await page.getByRole('radio', { name: 'Hugging Face hub' }).check();
	await page.getByLabel('Hub model id').fill('Xenova/gpt2');
	await page.getByRole('combobox', { name: /^Weights/ }).selectOption('q8');
	await expect(page.getByTestId('model-time-estimate')).toBeVisible();
}

test('a long battery on WASM is offered a hardware WebGPU adapter; Use WebGPU switches to it', async ({
	page,
}) => {
	await device(page, 'hardware');
	await pickGpt2q8(page, 192);
	const advice = page.getByTestId('webgpu-advice');
	await expect(advice).toHaveText(
		/^On WASM this takes about \d+ min here\. This browser has a WebGPU adapter, which runs the model on the graphics processor/,
	);
	await advice.getByRole('button', { name: 'Use WebGPU' }).click();
	await expect(page.getByRole('combobox', { name: /^Backend/ })).toHaveValue('webgpu');
	await expect(advice).toHaveCount(0);
	await expect(page.getByTestId('model-time-estimate')).toHaveText(/No time estimate on WebGPU/);
});

test("Chromium's software adapter is named, not offered", async ({ page }) => {
	await device(page, 'browser');
	await page.goto('/');
	const software = await page.evaluate(async () => {
		const gpu = (navigator as { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
		const adapter = (await gpu?.requestAdapter().catch(() => null)) as {
			info?: { isFallbackAdapter?: boolean; architecture?: string };
		} | null;
		if (!adapter) return null;
		return adapter.info?.isFallbackAdapter === true || adapter.info?.architecture === 'swiftshader';
	});
	await pickGpt2q8(page, 192);
	const advice = page.getByTestId('webgpu-advice');
	if (software === true) {
		await expect(advice).toHaveText(
			/^On WASM this takes about \d+ min here\. This browser's WebGPU adapter is a software one that runs on the CPU, slower than WASM, so WebGPU is not offered\.\s*$/,
		);
		await expect(advice.getByRole('button')).toHaveCount(0);
	} else {
		// No adapter at all (or a hardware one, which this machine was not expected to have).
		console.log(`WebGPU adapter here: ${software === null ? 'none' : 'hardware'}`);
		await expect(advice).toHaveCount(software === null ? 0 : 1);
	}
});

test('a short battery gets no advice, even with a hardware adapter', async ({ page }) => {
	await device(page, 'hardware');
	// One copy of the suite: seconds on WASM.
	await pickGpt2q8(page, 1);
	await expect(page.getByTestId('model-time-estimate')).toHaveText(/on this device \(estimate\)/);
	await expect(page.getByTestId('webgpu-advice')).toHaveCount(0);
});
