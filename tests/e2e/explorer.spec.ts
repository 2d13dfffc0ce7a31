// The explorer with the REAL engine: a link scores its text at once (gpt2-random-tiny), tokens
// and words, a second model to compare, the link follows the choices, and axe finds nothing.
// Also minimal pairs dropped on the page open as a suite and run, and the drill-down's Words
// toggle on that run.
import { expect, test, type Page } from '@playwright/test';
import { axeSummary } from './axe';

const TINY = 'gpt2-random-tiny';

// axe is injected as an inline script, which the app's CSP forbids.
test.use({ bypassCSP: true });

const series = (page: Page) => page.getByTestId('explore-series');
/** The line chart (a canvas): one line per model, counted by its series. */
const chartLines = (page: Page) =>
	page.getByTestId('explore-chart').getByRole('img', { name: /^Line chart of surprisal/ });

test('a link scores its text; tokens, words, chart, and a link that follows the choices', async ({
	page,
}) => {
	await page.goto(`/#/explore?text=${encodeURIComponent('The dog barks.')}&model=${TINY}`);
	await expect(page.getByTestId('explore-status')).toContainText(`Scored with ${TINY}`, {
		timeout: 60_000,
	});
	await expect(series(page)).toHaveCount(1);
	// BOS, then GPT-2's tokens: The / dog / bark / s / .
	const tokens = series(page).locator('[data-token]');
	await expect(tokens).toHaveCount(6);
	await expect(tokens.nth(4)).toHaveAccessibleName(/^s \d+\.\d bits$/);
	await expect(tokens.nth(1)).toHaveAccessibleName(/^The \d+\.\d bits$/);
	await expect(chartLines(page)).toHaveAttribute('data-series-count', '1');
	await expect(chartLines(page).locator('canvas')).toBeVisible();

	await page.getByLabel('Words').check();
	// BOS, then three words: bark + s + . make the word "barks.".
	await expect(series(page).locator('[data-token]')).toHaveCount(4);
	await expect(series(page).locator('[data-token]').nth(3)).toHaveAccessibleName(/^barks\. /);
	await expect(page.getByTestId('explore-link')).toHaveAttribute('href', /unit=words/);

	await page.getByTestId('explore-text').fill('Colorless green ideas sleep furiously.');
	await page.getByRole('button', { name: 'Score' }).click();
	await expect(page).toHaveURL(/text=Colorless%20green%20ideas/);
	// Still words: BOS and the five words.
	await expect(series(page).locator('[data-token]')).toHaveCount(6, { timeout: 60_000 });
	await expect(series(page).locator('[data-token]').nth(5)).toHaveAccessibleName(/^furiously\. /);
	expect(await axeSummary(page, 'explorer, words')).toEqual([]);
});

test('compare two models on the same text', async ({ page }) => {
	await page.goto(
		`/#/explore?text=${encodeURIComponent('Dogs bark.')}&model=${TINY}&compare=gpt2-en-small`,
	);
	await expect(page.getByTestId('explore-status')).toContainText(
		`Scored with ${TINY} and gpt2-en-small`,
		{ timeout: 120_000 },
	);
	await expect(series(page)).toHaveCount(2);
	await expect(chartLines(page)).toHaveAttribute('data-series-count', '2');
	await expect(chartLines(page).locator('canvas')).toBeVisible();
	// Same tokenizer: the same tokens, with different surprisals.
	const names = async (index: number) =>
		series(page)
			.nth(index)
			.locator('[data-token]')
			.evaluateAll((buttons) =>
				buttons.map((button) => button.querySelector('.text')?.textContent ?? ''),
			);
	expect(await names(0)).toEqual(await names(1));
});

test('minimal pairs dropped on the page open as a suite, run, and show per word', async ({
	page,
}) => {
	await page.goto('/');
	const pairs =
		'{"sentence_good": "The dogs bark.", "sentence_bad": "The dogs barks.", "UID": "demo_pairs"}\n' +
		'{"sentence_good": "She left.", "sentence_bad": "She leaved.", "UID": "demo_pairs"}\n';
	const dataTransfer = await page.evaluateHandle((text) => {
		const transfer = new DataTransfer();
		transfer.items.add(new File([text], 'pairs.jsonl', { type: 'application/x-ndjson' }));
		return transfer;
	}, pairs);
	for (const type of ['dragenter', 'dragover', 'drop']) {
		await page.dispatchEvent('header', type, { dataTransfer });
	}
	await expect(page.getByRole('heading', { name: 'demo_pairs', exact: true })).toBeVisible();
	await page.getByLabel('Bundled model (works offline)').selectOption(TINY);
	await page.getByRole('button', { name: 'Run suite' }).click();
	await expect(page).toHaveURL(/#\/results\/\d+$/, { timeout: 60_000 });
	await expect(page.getByRole('heading', { name: 'Accuracy', exact: true })).toBeVisible({
		timeout: 60_000,
	});
	// The drill-down's Words toggle: "The dogs bark." is three words whatever its tokens.
	await page.goto(`${page.url()}/item/1`);
	await expect(page.getByRole('heading', { name: 'Item 1: surprisal per token' })).toBeVisible();
	const good = page.getByRole('group', { name: /^Token surprisals of condition good/ });
	const textUnits = good.locator('[data-token]:not(.special)');
	expect(await textUnits.count()).toBeGreaterThanOrEqual(3);
	await page.getByLabel('Words (tokens summed)').check();
	await expect(page.getByRole('heading', { name: 'Item 1: surprisal per word' })).toBeVisible();
	await expect(textUnits).toHaveCount(3);
	await expect(textUnits.nth(2)).toHaveAccessibleName(/^bark\. /);
});
