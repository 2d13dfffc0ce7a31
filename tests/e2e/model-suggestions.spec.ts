// The model pickers' "Suggested" hub models: listed with their download size on the Run page
// (GPT-2 family) and the Evals page (instruction-tuned); on a device that reports very little
// memory a suggestion is marked "will not fit" and asks before it is chosen. No hub request is
// ever made: every request to huggingface.co fails the test. Evals starts on gpt2-en-small and offers
// the most capable suggestion that fits in one click (not offline).
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

test('a model that will not fit asks first, and cancel chooses nothing', async ({ page }) => {
	await page.addInitScript(() => {
		Object.defineProperty(navigator, 'deviceMemory', { get: () => 0.25 });
	});
	const hubRequests = await forbidHub(page);
	await page.goto('/#/evals');
	const policy = page.getByRole('group', { name: 'Model under test' });
	const list = policy.getByTestId('model-suggestions');
	await expect(list).toContainText('will not fit');
	await list.getByRole('button', { name: 'HuggingFaceTB/SmolLM2-135M-Instruct' }).click();
	const ask = list.getByRole('alertdialog');
	await expect(ask).toContainText('will probably not fit');
	await expect(ask).toContainText('0.25 GiB');
	await ask.getByRole('button', { name: 'Cancel' }).click();
	await expect(ask).toHaveCount(0);
	await expect(policy.getByLabel('Model', { exact: true })).toHaveValue('gpt2-en-small');
	expect(hubRequests).toEqual([]);
});
