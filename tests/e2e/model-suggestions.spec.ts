// The model pickers' "Suggested" hub models: listed with their download size on the Run page
// (GPT-2 family) and the Evals page (instruction-tuned); on a device that reports very little
// memory a suggestion is marked "will not fit" and asks before it is chosen. No hub request is
// ever made: every request to huggingface.co fails the test.
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
	await expect(policy.getByLabel('Model', { exact: true })).toHaveValue('gpt2-random-tiny');
	expect(hubRequests).toEqual([]);
});
