// The model pickers' "Suggested" hub models: listed with their download size and memory need on
// the Run page (GPT-2 family, with a time estimate for the opened suite) and the Evals page
// (instruction-tuned); on a device that reports little memory a suggestion is marked "will not
// fit" and refused with its reason, and a typed-in model that will not fit cannot be run, a
// typed model that is not a suggestion sized from its config.json (answered by Playwright). Every
// other request to huggingface.co is aborted; no model file is ever asked for. Evals starts on
// gpt2-en-small and offers the most capable suggestion that fits in one click (not offline).
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';

async function forbidHub(page: Page): Promise<string[]> {
	const hubRequests: string[] = [];
	await page.route(/huggingface\.co/, async (route) => {
		hubRequests.push(route.request().url());
		await route.abort();
	});
	return hubRequests;
}

test('Run and Evals pages suggest hub models with their size and fit', async ({ page }) => {
	await page.addInitScript(() => {
		Object.defineProperty(navigator, 'deviceMemory', { get: () => 8 });
	});
	const hubRequests = await forbidHub(page);
	await page.goto('/');
	await page.getByRole('radio', { name: 'Hugging Face hub' }).check();
	const run = page.getByTestId('model-suggestions');
	await expect(run.getByRole('button', { name: 'Xenova/distilgpt2' })).toBeVisible();
	await expect(run).toContainText('fp32, 330 MB');
	await expect(run).toContainText('fits');
	await run.getByRole('button', { name: 'Xenova/distilgpt2' }).click();
	await expect(page.getByLabel('Hub model id')).toHaveValue('Xenova/distilgpt2');

	await page.goto('/#/evals');
	const policy = page.getByRole('group', { name: 'Model under test' });
	const evals = policy.getByTestId('model-suggestions');
	await expect(
		evals.getByRole('button', { name: 'HuggingFaceTB/SmolLM2-135M-Instruct' }),
	).toBeVisible();
	await expect(evals).toContainText('fp16, 327 MB');
	expect(hubRequests).toEqual([]);
});

test('Evals starts on gpt2-en-small and offers the most capable model that fits in one click; offline, what GPT-2 can do', async ({
	page,
}) => {
	await page.addInitScript(() => {
		Object.defineProperty(navigator, 'deviceMemory', { get: () => 8 });
	});
	const hubRequests = await forbidHub(page);
	await page.goto('/#/evals');
	const policy = page.getByRole('group', { name: 'Model under test' });
	const model = policy.getByLabel('Model', { exact: true });
	await expect(model).toHaveValue('gpt2-en-small');
	await expect(model.locator('option')).toHaveText(['gpt2-en-small', 'gpt2-random-tiny']);
	const offer = policy.getByTestId('recommended-model');
	await expect(offer).toContainText('Use onnx-community/Qwen2.5-0.5B-Instruct');
	await expect(offer).toContainText('(q8, 512 MB, fits)');
	await expect(policy.getByTestId('text-model-note')).toContainText(
		'as a test-taker or an agent it scores low',
	);
	await expect(policy.getByTestId('text-model-note')).not.toContainText('random');

	// Offline: no hub model is offered; the sentence on what a GPT-2 can do stays.
	await page.context().setOffline(true);
	await expect(offer).toHaveCount(0);
	await expect(policy.getByTestId('text-model-note')).toContainText('it continues text');
	await page.context().setOffline(false);

	// One click picks it (nothing downloads until a run uses it).
	await offer.getByRole('button', { name: 'Use onnx-community/Qwen2.5-0.5B-Instruct' }).click();
	await expect(model).toHaveValue('onnx-community/Qwen2.5-0.5B-Instruct');
	await expect(policy.getByTestId('recommended-model')).toHaveCount(0);
	expect(hubRequests).toEqual([]);
});

test('a model that will not fit is refused with its reason, and nothing downloads', async ({
	page,
}) => {
	await page.addInitScript(() => {
		Object.defineProperty(navigator, 'deviceMemory', { get: () => 0.25 });
	});
	const hubRequests = await forbidHub(page);
	await page.goto('/#/evals');
	const policy = page.getByRole('group', { name: 'Model under test' });
	const list = policy.getByTestId('model-suggestions');
	await expect(list).toContainText('will not fit');
	await list.getByRole('button', { name: 'HuggingFaceTB/SmolLM2-135M-Instruct' }).click();
	const refused = list.getByRole('alert');
	await expect(refused).toContainText('Not chosen: HuggingFaceTB/SmolLM2-135M-Instruct');
	await expect(refused).toContainText('the device reports 0.25 GiB');
	await refused.getByRole('button', { name: 'Dismiss' }).click();
	await expect(refused).toHaveCount(0);
	await expect(policy.getByLabel('Model', { exact: true })).toHaveValue('gpt2-en-small');
	expect(hubRequests).toEqual([]);
});

test('the Run page shows size, memory and time before a download, and refuses a model that will not fit', async ({
	page,
}) => {
	await page.addInitScript(() => {
		Object.defineProperty(navigator, 'deviceMemory', { get: () => 1 });
		Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => 2 });
	});
	const hubRequests = await forbidHub(page);
	await page.goto('/');
	await page.getByRole('button', { name: /Center embedding/ }).click();
	const expectation = page.getByTestId('model-expectation');
	// The bundled default: its size, its memory need against the device's, its time.
	await expect(expectation).toContainText('gpt2-en-small, fp32: bundled (42.6 MB)');
	await expect(expectation).toContainText(
		'Needs about 0.1 GiB of memory; the device reports 1 GiB: fits.',
	);
	await expect(page.getByTestId('model-time-estimate')).toHaveText(
		/^Scoring this suite \(about [\d,]+ tokens\): under 10 s on this device \(estimate\)\.$/,
	);

	await page.getByRole('radio', { name: 'Hugging Face hub' }).check();
	const list = page.getByTestId('model-suggestions');
	await expect(list).toContainText('needs about 1.2 GiB: will not fit');
	await expect(list).toContainText(
		/needs about 0\.2 GiB: fits this suite in (under 10 s|about \d+ (s|min)) on this device \(estimate\)/,
	);
	// Picking the fp32 GPT-2 is refused; typing it in is refused at Run.
	// Listed smallest first: the fp32 GPT-2 is the last of its two rows.
	await list.getByRole('button', { name: 'Xenova/gpt2' }).last().click();
	await expect(list.getByRole('alert')).toContainText('Not chosen: Xenova/gpt2 (fp32, 654 MB)');
	await page.getByLabel('Hub model id').fill('Xenova/gpt2');
	await expect(page.getByTestId('model-fit-refusal')).toHaveText(
		/^Xenova\/gpt2 \(fp32\) will not fit this device: needs about 1\.2 GiB of memory; the device reports 1 GiB\. Loading it could crash the tab/,
	);
	await expect(page.getByRole('button', { name: 'Run suite' })).toBeDisabled();
	await expect(page.locator('#run-blocker')).toContainText('Xenova/gpt2 (fp32) will not fit');

	// Its 8-bit copy fits: size, memory and time are shown, and Run is no longer refused for size.
	await page.getByRole('combobox', { name: /^Weights/ }).selectOption('q8');
	await expect(page.getByTestId('model-fit-refusal')).toHaveCount(0);
	await expect(expectation).toContainText('Xenova/gpt2, q8: 166 MB to download.');
	await expect(page.getByTestId('model-time-estimate')).toHaveText(
		/^Scoring this suite \(about [\d,]+ tokens\): (under 10 s|about \d+ (s|min)) on this device \(estimate\)\.$/,
	);
	await expect(page.locator('#run-blocker')).not.toContainText('will not fit');
	expect(hubRequests.filter((url) => url.includes('.onnx'))).toEqual([]);
});

test('a hub model typed by hand is sized from its config.json, and refused on the Run page when it will not fit', async ({
	page,
}) => {
	await page.addInitScript(() => {
		Object.defineProperty(navigator, 'deviceMemory', { get: () => 4 });
		Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => 2 });
	});
	// Playwright answers config.json for two made-up repos (Llama-3.2-1B's fields; an encoder);
	// every other hub request is aborted, and no model file is asked for.
	const configs: Record<string, unknown> = {
		'someone/llama-1b': JSON.parse(
			readFileSync('tests/fixtures/hub-configs/llama-3.2-1b.config.json', 'utf8'),
		) as unknown,
		'someone/encoder': { model_type: 'bert', hidden_size: 768, num_hidden_layers: 12 },
	};
	const hubRequests: string[] = [];
	await page.route(/huggingface\.co/, async (route) => {
		const url = new URL(route.request().url());
		hubRequests.push(url.pathname);
		const match = /^\/(.+)\/resolve\/main\/config\.json$/.exec(url.pathname);
		const config = match ? configs[match[1] ?? ''] : undefined;
		if (config === undefined) return route.abort();
		return route.fulfill({
			status: 200,
			contentType: 'application/json',
			body: JSON.stringify(config),
			headers: {
				'access-control-allow-origin': '*',
				'cross-origin-resource-policy': 'cross-origin',
			},
		});
	});
	await page.goto('/');
	await page.getByRole('button', { name: /Center embedding/ }).click();
	await page.getByRole('radio', { name: 'Hugging Face hub' }).check();
	await page.getByLabel('Hub model id').fill('someone/llama-1b');
	const expectation = page.getByTestId('model-expectation');
	// (1,235,814,400 parameters + the tied embedding stored again) × 4 bytes = 5.99 GB.
	await expect(expectation).toContainText(
		'someone/llama-1b, fp32: about 5.99 GB to download (1.24 B parameters, estimated from its config.json).',
	);
	await expect(page.getByTestId('model-fit-refusal')).toHaveText(
		/^someone\/llama-1b \(fp32\) will not fit this device: needs about 11\.2 GiB of memory \(estimated from its config\.json\); the device reports 4 GiB\. Loading it could crash the tab/,
	);
	await expect(page.getByRole('button', { name: 'Run suite' })).toBeDisabled();
	await expect(page.locator('#run-blocker')).toContainText('someone/llama-1b (fp32) will not fit');

	// 8-bit: tight, shown with its time, not refused.
	await page.getByRole('combobox', { name: /^Weights/ }).selectOption('q8');
	await expect(page.getByTestId('model-fit-refusal')).toHaveCount(0);
	await expect(expectation).toContainText(
		'Needs about 2.2 GiB of memory (estimated from its config.json), over half of the 4 GiB the device reports: tight.',
	);
	await expect(page.getByTestId('model-time-estimate')).toHaveText(
		/^Scoring this suite \(about [\d,]+ tokens\): (under 10 s|about \d+ (s|min)) on this device \(estimate\)\.$/,
	);

	// An architecture the app cannot size: today's words, nothing refused.
	await page.getByLabel('Hub model id').fill('someone/encoder');
	await expect(expectation).toContainText(
		'The size of someone/encoder (q8) is known only once its download starts',
	);
	await expect(page.getByTestId('model-fit-refusal')).toHaveCount(0);
	expect(hubRequests).toContain('/someone/llama-1b/resolve/main/config.json');
	expect(hubRequests).toContain('/someone/encoder/resolve/main/config.json');
	expect(hubRequests.filter((path) => !path.endsWith('.json'))).toEqual([]);
});
