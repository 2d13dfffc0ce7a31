// Local generation in the app's worker with the REAL engine and the bundled gpt2-en-small:
// the "Try it" box streams text as it is generated, and Cancel stops it.
import { expect, test, type Page } from '@playwright/test';

// gpt2-en-small, not the tiny model: the tiny model's 128-position context ends a generation within
// milliseconds on a quiet machine, before a frame sees it grow or Cancel can be clicked.
const MODEL_ID = 'gpt2-en-small';

async function openTryIt(page: Page): Promise<void> {
	await page.goto('/');
	await page.getByLabel('Bundled model (works offline)').selectOption(MODEL_ID);
	await page.getByTestId('try-it').locator('summary').click();
}

/** Lengths of the completion text seen while generation runs (sampled every frame). */
async function watchOutputLengths(page: Page): Promise<number[]> {
	return page.evaluate(
		() =>
			new Promise<number[]>((resolve) => {
				const output = document.querySelector('[data-testid="try-it-output"]');
				const seen: number[] = [];
				const started = performance.now();
				const sample = (): void => {
					const length = output?.textContent?.length ?? 0;
					if (seen.at(-1) !== length) seen.push(length);
					const busy = output?.getAttribute('aria-busy') === 'true';
					if (
						(!busy && performance.now() - started > 500) ||
						performance.now() - started > 60_000
					) {
						resolve(seen);
					} else {
						requestAnimationFrame(sample);
					}
				};
				sample();
			}),
	);
}

test('Try it streams a local completion token by token', async ({ page }) => {
	await openTryIt(page);
	const box = page.getByTestId('try-it');
	await box.getByLabel('Prompt').fill('The children walked to the');
	await box.getByLabel('Max tokens').fill('120');
	await box.getByLabel('Temperature (0 = greedy)').fill('0');
	const watching = watchOutputLengths(page);
	await box.getByRole('button', { name: 'Generate' }).click();
	const lengths = await watching;
	await expect(page.getByTestId('try-it-status')).toContainText(/\d+ tokens/, { timeout: 60_000 });
	// The text grew in several steps (streamed), not once at the end.
	const growing = lengths.filter((length) => length > 'The children walked to the'.length);
	expect(growing.length).toBeGreaterThan(3);
	const output = (await page.getByTestId('try-it-output').textContent()) ?? '';
	expect(output.startsWith('The children walked to the')).toBe(true);
	expect(output.length).toBeGreaterThan('The children walked to the'.length);

	// Greedy decoding is reproducible: the same prompt gives the same completion.
	await box.getByRole('button', { name: 'Generate' }).click();
	await expect(page.getByTestId('try-it-status')).toContainText(/\d+ tokens/, { timeout: 60_000 });
	await expect(page.getByTestId('try-it-output')).toHaveText(output);
});

test('Cancel stops a local generation and keeps the text so far', async ({ page }) => {
	await openTryIt(page);
	const box = page.getByTestId('try-it');
	// Greedy, on a prompt whose greedy completion runs to its length without an end-of-text token
	// (checked with `benchtop generate --temperature 0`): sampled at temperature 1 the model may
	// stop after a dozen tokens, before Cancel can be clicked.
	await box.getByLabel('Prompt').fill('The children walked to the');
	await box.getByLabel('Max tokens').fill('1000');
	await box.getByLabel('Temperature (0 = greedy)').fill('0');
	await box.getByRole('button', { name: 'Generate' }).click();
	const output = page.getByTestId('try-it-output');
	const promptLength = (await box.getByLabel('Prompt').inputValue()).length;
	await expect
		.poll(async () => ((await output.textContent()) ?? '').length, { timeout: 60_000 })
		.toBeGreaterThan(promptLength + 5);
	await box.getByRole('button', { name: 'Cancel' }).click({ timeout: 10_000 });
	await expect(box.getByText('Generation cancelled.')).toBeVisible();
	const atCancel = ((await output.textContent()) ?? '').length;
	await page.waitForTimeout(500);
	// Nothing arrives after the cancel, and Generate is offered again.
	expect(((await output.textContent()) ?? '').length).toBe(atCancel);
	await expect(box.getByRole('button', { name: 'Generate' })).toBeEnabled();
});
