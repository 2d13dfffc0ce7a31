// The model × suite matrix of runs picked in History, on the real engine: two bundled models ×
// two bundled suites = four runs, picked and opened as "Matrix of picked runs". Two model columns,
// two suite rows; each cell's accuracy is what the run's results page shows and links there; the
// CSV is the long form; the McNemar comparison shows; axe finds nothing at 1280 and 390 px.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { axeSummary } from './axe';

const SCREENSHOTS = 'tests/e2e/screenshots';
const MODELS = ['gpt2-random-tiny', 'gpt2-en-small'] as const;
const SUITES = [
	{ file: 'garden-path-npz.json', card: /Garden path: NP\/Z/ },
	{ file: 'subject-verb-agreement-pp.json', card: /Subject-verb agreement across a prepositional/ },
] as const;

interface SuiteFacts {
	readonly name: string;
	readonly items: number;
	/** Long-form CSV lines per model: one per prediction, plus "all" for several. */
	readonly csvLines: number;
}

function suiteFacts(file: string): SuiteFacts {
	const json = JSON.parse(readFileSync(`suites/${file}`, 'utf8')) as {
		meta: { name: string };
		items: unknown[];
		predictions: unknown[];
	};
	const predictions = json.predictions.length;
	return {
		name: json.meta.name,
		items: json.items.length,
		csvLines: predictions > 1 ? predictions + 1 : predictions,
	};
}

// The app's CSP forbids inline scripts, which is how Playwright injects axe: bypass it here only.
test.use({ bypassCSP: true });

const progress = (page: Page) => page.getByRole('region', { name: 'Run progress' });

/** Runs a bundled suite with a bundled model; returns the run id and prediction 0's "c / n". */
async function runSuite(
	page: Page,
	card: RegExp,
	modelId: string,
	items: number,
): Promise<{ runId: number; passed: string }> {
	await page.getByRole('link', { name: 'Run', exact: true }).click();
	await page.getByRole('button', { name: card }).click();
	await expect(page.getByRole('heading', { name: card })).toBeVisible();
	await page.getByLabel('Bundled model (works offline)').selectOption(modelId);
	await page.getByRole('button', { name: 'Run suite' }).click();
	await expect(page).toHaveURL(/#\/results\/\d+$/);
	await expect(progress(page).getByText(`${items} / ${items} items`)).toBeVisible({
		timeout: 120_000,
	});
	const runId = Number(/#\/results\/(\d+)$/.exec(page.url())?.[1]);
	const firstPrediction = page.getByTestId('prediction-accuracy').locator('tbody tr').first();
	// The tables catch up with the progress bar a moment later: wait for every item.
	const passedCell = firstPrediction.locator('td').nth(1);
	await expect(passedCell).toHaveText(new RegExp(`^\\d+ / ${items}$`));
	const passed = (await passedCell.textContent())?.trim() ?? '';
	return { runId, passed };
}

test('runs picked in History open as a model × suite matrix', async ({ page }) => {
	await page.goto('/');
	await expect(page.getByRole('heading', { name: 'Bundled suites' })).toBeVisible();
	const runs: { runId: number; passed: string; model: string; suite: SuiteFacts }[] = [];
	for (const { file, card } of SUITES) {
		const suite = suiteFacts(file);
		for (const model of MODELS) {
			runs.push({ ...(await runSuite(page, card, model, suite.items)), model, suite });
		}
	}

	await page.getByRole('link', { name: 'Library' }).click();
	const matrixButton = page.getByRole('button', { name: /^Matrix of picked runs/ });
	await expect(matrixButton).toBeDisabled();
	for (const { runId } of runs) {
		await page.getByRole('checkbox', { name: `Pick run ${runId} for the matrix` }).check();
	}
	await matrixButton.click();
	await expect(page).toHaveURL(
		new RegExp(`#/matrix\\?runs=${runs.map((r) => r.runId).join(',')}$`),
	);

	const table = page.getByRole('table', { name: /Item accuracy per suite and model/ });
	await expect(table).toBeVisible();
	const columnHeaders = table.locator('thead th');
	await expect(columnHeaders).toHaveCount(1 + MODELS.length);
	for (const [index, model] of MODELS.entries()) {
		await expect(columnHeaders.nth(index + 1)).toContainText(model);
	}
	for (const { suite } of runs) {
		await expect(table.getByRole('rowheader', { name: suite.name })).toHaveCount(1);
	}
	await expect(table.locator('tbody tr:not(.circuit)')).toHaveCount(SUITES.length);

	// Each cell: the accuracy and counts its run's results page shows (prediction 0).
	for (const { runId, passed } of runs) {
		const [correct, items] = passed.split(' / ').map(Number);
		const link = table.getByRole('link', { name: new RegExp(`results of run ${runId}$`) });
		await expect(link).toHaveText(new RegExp(`^${((correct ?? 0) / (items ?? 1)).toFixed(3)}`));
		await expect(link.locator('xpath=..')).toContainText(`${correct}/${items}`);
	}
	// Every prediction on demand: a suite with two predictions lists both and "All predictions".
	await page.getByLabel("Show every prediction's accuracy in each cell").check();
	const agreement = table.getByRole('row').filter({
		has: page.getByRole('rowheader', { name: /^Subject-verb agreement/ }),
	});
	await expect(agreement.getByText(/^Prediction 1: /)).toHaveCount(MODELS.length);
	await expect(agreement.getByText(/^All predictions: /)).toHaveCount(MODELS.length);
	await page.screenshot({ path: `${SCREENSHOTS}/matrix-view.png`, fullPage: true });

	// The CSV: the long-form header, then per model column a line per suite prediction ("all" too).
	const [download] = await Promise.all([
		page.waitForEvent('download'),
		page.getByRole('button', { name: 'Export CSV' }).click(),
	]);
	const csv = readFileSync(await download.path(), 'utf8');
	const lines = csv.split('\r\n').filter((line) => line !== '');
	expect(lines[0]).toBe(
		'model,convention,suite,circuit,prediction,items,correct,accuracy,interval_low,interval_high',
	);
	const perModel = SUITES.reduce((sum, { file }) => sum + suiteFacts(file).csvLines, 0);
	expect(lines).toHaveLength(1 + MODELS.length * perModel);

	// The paired comparison: a McNemar row per suite and one over the battery.
	const comparison = page.getByRole('table', { name: /McNemar tests of/ });
	await expect(comparison).toBeVisible();
	await expect(comparison.locator('tbody tr')).toHaveCount(SUITES.length);
	await expect(comparison.getByRole('rowheader', { name: /Whole battery/ })).toBeVisible();
	// Per suite the verdict follows the Holm-adjusted p-value; the whole battery is one test.
	await expect(comparison.getByRole('columnheader', { name: 'Holm-adjusted p' })).toBeVisible();
	await expect(comparison.locator('tbody tr').first().locator('td').last()).toHaveText(
		/^\d(\.\d+)?(e-\d+)?\s+(differs beyond noise|within noise)$/,
	);
	await expect(comparison.locator('tfoot td').last()).toHaveText(
		/one test, not adjusted\s+(differs beyond noise|within noise)/,
	);

	expect(await axeSummary(page, 'picked matrix, 1280 px')).toEqual([]);
	await page.setViewportSize({ width: 390, height: 844 });
	expect(await axeSummary(page, 'picked matrix, 390 px')).toEqual([]);
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
	await page.screenshot({ path: `${SCREENSHOTS}/matrix-view-390.png`, fullPage: true });

	// A cell opens its run's results.
	const first = runs[0];
	if (!first) throw new Error('no run');
	await table.getByRole('link', { name: new RegExp(`results of run ${first.runId}$`) }).click();
	await expect(page).toHaveURL(new RegExp(`#/results/${first.runId}$`));
	await expect(page.getByTestId('prediction-accuracy')).toBeVisible();
});

test('the matrix without a stored battery says so and links to the battery page', async ({
	page,
}) => {
	await page.goto('/#/matrix');
	await expect(page.getByText('No battery has been run in this browser yet.')).toBeVisible();
	await expect(page.getByRole('link', { name: 'Run a battery' })).toHaveAttribute(
		'href',
		'#/battery',
	);
	await page.goto('/#/matrix?runs=41,42');
	await expect(page.getByText(/None of the picked runs \(41, 42\) is stored/)).toBeVisible();
	expect(await axeSummary(page, 'matrix, none stored')).toEqual([]);
});

/** Runs the bundled suites as one battery with `modelId`; returns the battery's matrix link. */
async function runBattery(page: Page, modelId: string): Promise<string> {
	await page.getByRole('link', { name: 'Battery', exact: true }).click();
	for (const { file } of SUITES) {
		const name = suiteFacts(file).name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
		await page.getByRole('checkbox', { name: new RegExp(name) }).check();
	}
	await page.getByLabel('Bundled model (works offline)').selectOption(modelId);
	const link = page.getByTestId('battery-matrix-link');
	const href = async (): Promise<string | null> =>
		(await link.count()) > 0 ? await link.getAttribute('href') : null;
	// The link of a battery run before stays until the new one starts: wait for a new one.
	const before = await href();
	await page.getByRole('button', { name: 'Run battery' }).click();
	let shown = '';
	await expect
		.poll(
			async () => {
				shown = (await href()) ?? '';
				return shown !== '' && shown !== before;
			},
			{ timeout: 150_000 },
		)
		.toBe(true);
	await expect(page.getByRole('heading', { name: 'Battery done' })).toBeVisible();
	return shown;
}

test('a battery and every battery of the same suites form the matrix', async ({ page }) => {
	await page.goto('/');
	const first = await runBattery(page, MODELS[0]);
	const second = await runBattery(page, MODELS[1]);
	expect(first).toMatch(/^#\/matrix\/[0-9a-f-]{36}$/);
	expect(second).not.toBe(first);

	// The first battery's matrix has the second as a column too; `#/matrix` is the newest.
	for (const [url, firstModel] of [
		[`/${first}`, MODELS[0]],
		['/#/matrix', MODELS[1]],
	] as const) {
		await page.goto(url);
		const table = page.getByRole('table', { name: /Item accuracy per suite and model/ });
		await expect(table.locator('thead th')).toHaveCount(1 + MODELS.length);
		await expect(table.locator('thead th').nth(1)).toContainText(firstModel);
		await expect(table.locator('tbody tr:not(.circuit)')).toHaveCount(SUITES.length);
		await expect(page.getByTestId('matrix-summary')).toContainText(
			'and 1 other battery of the same suites: 2 suites',
		);
	}
	expect(await axeSummary(page, 'battery matrix')).toEqual([]);

	// History: a battery member's "Matrix" opens its battery's matrix.
	await page.getByRole('link', { name: 'Library' }).click();
	await page.getByRole('button', { name: 'Matrix of the battery of run 1' }).click();
	await expect(page).toHaveURL(new RegExp(`${first}$`));
});
