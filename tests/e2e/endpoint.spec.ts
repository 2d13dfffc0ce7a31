// The app talks to a real OpenAI-compatible server: our own `serve` over the bundled
// gpt2-en-small (the tiny model generates 40 tokens within a frame or two, too fast to see the
// stream arrive in pieces), started by this test on a free port and stopped after. Endpoint model →
// Test connection → Try it streams a completion from the server; a bundled suite runs through
// the endpoint (echo prompt logprobs) and shows its results.
import { expect, test } from '@playwright/test';
import { startServeProcess, type ServeProcess, APP_ORIGIN } from './serve-process';
import { axeSummary } from './axe';

const MODEL_ID = 'gpt2-en-small';

let server: ServeProcess | undefined;
let baseUrl = '';

test.beforeAll(async () => {
	server = await startServeProcess(MODEL_ID);
	baseUrl = server.baseUrl;
});

test.afterAll(() => {
	server?.stop();
});

test('Endpoint model: Test connection lists the model, Try it streams from the server', async ({
	page,
}) => {
	await page.goto('/');
	await page.getByRole('radio', { name: 'Endpoint' }).check();
	const form = page.getByTestId('endpoint-form');
	await form.getByLabel(/Base URL/).fill(baseUrl);
	await form.getByRole('button', { name: 'Test connection' }).click();
	await expect(page.getByTestId('endpoint-message')).toHaveText(
		`Connected to ${baseUrl}: 1 model.`,
	);
	// The only model is picked; serve echoes prompt logprobs, so the endpoint can score text.
	await expect(form.getByLabel('Model id')).toHaveValue(MODEL_ID);
	await expect(page.getByTestId('model-abilities')).toContainText('score text ✓');
	await expect(page.getByTestId('model-abilities')).toContainText('generate ✓');

	const box = page.getByTestId('try-it');
	await box.locator('summary').click();
	await box.getByLabel('Prompt').fill('The bird sang');
	await box.getByLabel('Max tokens').fill('40');
	await box.getByLabel('Temperature (0 = greedy)').fill('0');
	const lengths = page.evaluate(
		() =>
			new Promise<number[]>((resolve) => {
				const output = document.querySelector('[data-testid="try-it-output"]');
				const seen: number[] = [];
				const started = performance.now();
				const sample = (): void => {
					const length = output?.textContent?.length ?? 0;
					if (seen.at(-1) !== length) seen.push(length);
					const busy = output?.getAttribute('aria-busy') === 'true';
					if ((!busy && performance.now() - started > 500) || performance.now() - started > 60_000)
						resolve(seen);
					else requestAnimationFrame(sample);
				};
				sample();
			}),
	);
	await box.getByRole('button', { name: 'Generate' }).click();
	await expect(page.getByTestId('try-it-status')).toContainText(/\d+ tokens/, { timeout: 60_000 });
	const seen = await lengths;
	expect(seen.filter((length) => length > 'The bird sang'.length).length).toBeGreaterThan(2);
	const output = (await page.getByTestId('try-it-output').textContent()) ?? '';
	expect(output.startsWith('The bird sang')).toBe(true);
	expect(output.length).toBeGreaterThan('The bird sang'.length);
	// As a chat message: /v1/chat/completions, streamed as server-sent events.
	await box.getByLabel('As a chat message').check();
	await box.getByRole('button', { name: 'Generate' }).click();
	await expect(page.getByTestId('try-it-status')).toContainText(/\d+ tokens/, { timeout: 60_000 });
	expect(((await page.getByTestId('try-it-output').textContent()) ?? '').length).toBeGreaterThan(0);
});

test('a bundled suite runs through the endpoint and lands on its results', async ({
	page,
	context,
}) => {
	await page.goto('/');
	await page.getByRole('button', { name: /^Garden path: NP\/Z ambiguity/ }).click();
	await expect(
		page.getByRole('heading', { name: 'Garden path: NP/Z ambiguity with and without a comma' }),
	).toBeVisible();
	await page.getByRole('radio', { name: 'Endpoint' }).check();
	const form = page.getByTestId('endpoint-form');
	await form.getByLabel(/Base URL/).fill(baseUrl);
	await form.getByRole('button', { name: 'Test connection' }).click();
	await expect(page.getByTestId('model-abilities')).toContainText('score text ✓');
	await expect(page.locator('#run-blocker')).toContainText(`16 items with openai/${MODEL_ID}`);
	await page.getByRole('button', { name: 'Run suite' }).click();

	await expect(page).toHaveURL(/#\/results\/\d+$/);
	const progress = page.getByRole('region', { name: 'Run progress' });
	await expect(progress.getByText('16 / 16 items')).toBeVisible({ timeout: 120_000 });
	await expect(progress.getByRole('status')).toHaveText('Done');
	await expect(progress).toContainText(`with openai/${MODEL_ID}`);
	// The results page names the endpoint's model and base URL where a local run shows its
	// dtype and backend, and shows the accuracy tables.
	await expect(page.getByText(`openai/${MODEL_ID} (endpoint ${baseUrl})`)).toBeVisible();
	await expect(page.getByRole('term').filter({ hasText: 'Endpoint' })).toBeVisible();
	await expect(page.getByRole('heading', { name: 'Accuracy', exact: true })).toBeVisible();
	const accuracies = page.getByTestId('prediction-accuracy').locator('tbody td.number');
	await expect(accuracies.first()).toHaveText(/^\d+(\.\d+)?\s?%$/);

	// Its share link carries the endpoint (never a key); opened, it says the endpoint must be
	// reachable, and running it again through the same server reproduces it exactly.
	await page.getByRole('button', { name: 'Share link' }).click();
	const url = await page.getByTestId('share-url').inputValue();
	expect(url).toMatch(/#\/share\/2\/[A-Za-z0-9_-]+$/);
	const opened = await context.newPage();
	await opened.goto(url);
	await expect(opened.getByTestId('share-model')).toHaveText(
		`openai/${MODEL_ID} (endpoint ${baseUrl})`,
	);
	await expect(opened.getByTestId('share-endpoint-note')).toContainText(
		`must be reachable from this page`,
	);
	await opened.getByRole('button', { name: 'Run to reproduce' }).click();
	await expect(opened.getByTestId('share-comparison')).toHaveText(
		/Reproduced:\s+16\/16 item outcomes identical, max region difference 0 bits/,
		{ timeout: 120_000 },
	);
	await opened.close();

	// The history lists both runs (the shared one and its reproduction) with the endpoint.
	await page.getByRole('link', { name: 'Library' }).click();
	// (Read again: the reproduction was stored by the other tab.)
	await page.reload();
	await expect(page.getByText(`openai/${MODEL_ID} (endpoint ${baseUrl})`)).toHaveCount(2);
	await expect(page.getByRole('cell', { name: /done, 16\/16 items/ })).toHaveCount(2);
});

test.describe('the endpoint form and Try it', () => {
	// The app's CSP forbids inline scripts, which is how axe is injected: bypassed here only.
	test.use({ bypassCSP: true });

	test('fit a 360 px window and have no axe violations', async ({ page }) => {
		await page.setViewportSize({ width: 360, height: 800 });
		await page.goto('/');
		await page.getByRole('radio', { name: 'Endpoint' }).check();
		await page
			.getByTestId('endpoint-form')
			.getByLabel(/Base URL/)
			.fill(baseUrl);
		await page.getByRole('button', { name: 'Test connection' }).click();
		await expect(page.getByTestId('endpoint-message')).toContainText('Connected');
		await page.getByTestId('try-it').locator('summary').click();
		await expect
			.poll(() => page.evaluate(() => document.documentElement.scrollWidth))
			.toBeLessThanOrEqual(360);
		const picker = page.locator('.model-picker').first();
		expect(await axeSummary(page, 'endpoint form, 360 px', { include: picker })).toEqual([]);
	});
});

test('a wrong base URL says what to do', async ({ page }) => {
	await page.goto('/');
	await page.getByRole('radio', { name: 'Endpoint' }).check();
	const form = page.getByTestId('endpoint-form');
	// Nothing listens on port 9 (discard): the fetch fails as it would for CORS or a down server.
	await form.getByLabel(/Base URL/).fill('http://127.0.0.1:9/v1');
	await form.getByRole('button', { name: 'Test connection' }).click();
	const message = page.getByTestId('endpoint-message');
	await expect(message).toBeVisible();
	await expect(message).toHaveAttribute('role', 'alert');
	await expect(message).toContainText('Cannot reach http://127.0.0.1:9/v1');
	// What to do: the CORS flag per server, naming this page's origin.
	await expect(message).toContainText('CORS');
	await expect(message).toContainText(`--allowed-origins '["${APP_ORIGIN}"]'`);
});
