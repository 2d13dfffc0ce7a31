// Reading and exporting results in the built app with the REAL engine (bundled gpt2-random-tiny):
// accuracy tables, region chart and drill-down after a run; the result TSV equals the CLI's
// `run` output for the same suite and model; a run bundle imported in a fresh browser profile
// shows identically; the compare view; a 360 px dark screenshot.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test, type Download, type Page } from '@playwright/test';

const SCREENSHOTS = 'tests/e2e/screenshots';
const SUITE_FILE = 'subject-verb-agreement-pp.json';
const SUITE_NAME = 'Subject-verb agreement across a prepositional phrase';
const ITEM_COUNT = 16;

/** Drops a file on the page header: the page-wide drop target takes suites and run bundles. */
async function dropFile(page: Page, name: string, content: string): Promise<void> {
	const dataTransfer = await page.evaluateHandle(
		({ name, content }) => {
			const transfer = new DataTransfer();
			transfer.items.add(new File([content], name, { type: 'application/json' }));
			return transfer;
		},
		{ name, content },
	);
	for (const type of ['dragenter', 'dragover', 'drop']) {
		await page.dispatchEvent('header', type, { dataTransfer });
	}
}

async function downloadText(page: Page, buttonName: string): Promise<[string, Download]> {
	const [download] = await Promise.all([
		page.waitForEvent('download'),
		page.getByRole('button', { name: buttonName }).click(),
	]);
	const path = await download.path();
	return [readFileSync(path, 'utf8'), download];
}

/** What the results page shows, as text: tables, chart values and the item grid. */
async function shownResults(page: Page): Promise<Record<string, string | null>> {
	const text = (testId: string) => page.getByTestId(testId).textContent();
	return {
		status: await text('results-status'),
		predictions: await text('prediction-accuracy'),
		rules: await text('item-accuracy'),
		chart: await page.getByTestId('region-chart').locator('table').textContent(),
		items: await text('item-grid'),
	};
}

test('results of a real run: tables, chart, drill-down, exports equal to the CLI, bundle import', async ({
	page,
	browser,
}, testInfo) => {
	const suiteText = readFileSync(`suites/${SUITE_FILE}`, 'utf8');
	await page.goto('/');
	await dropFile(page, SUITE_FILE, suiteText);
	await expect(page.getByRole('heading', { name: SUITE_NAME })).toBeVisible();
	await page.getByLabel('Bundled model (works offline)').selectOption('gpt2-random-tiny');
	await page.getByRole('button', { name: 'Run suite' }).click();
	await expect(page).toHaveURL(/#\/results\/\d+$/);
	await expect(page.getByTestId('results-status')).toContainText(
		`Done: ${ITEM_COUNT} of ${ITEM_COUNT} items`,
		{ timeout: 120_000 },
	);

	// Accuracy per prediction (pretty-printed formula) and under both item rules.
	const predictions = page.getByTestId('prediction-accuracy');
	await expect(predictions.getByRole('row')).toHaveCount(1 + 2);
	await expect(predictions).toContainText('(4;%sg_ungrammatical%) > (4;%sg_grammatical%)');
	const rules = page.getByTestId('item-accuracy');
	await expect(rules.getByRole('rowheader', { name: 'all predictions hold' })).toBeVisible();
	await expect(rules.getByRole('rowheader', { name: 'first prediction only' })).toBeVisible();
	await expect(page.getByTestId('region-chart').locator('canvas')).toBeVisible();
	await expect(page.getByTestId('item-grid').locator('tbody tr')).toHaveCount(ITEM_COUNT);

	// Drill-down: a token's exact value shows on keyboard focus.
	await page.getByRole('link', { name: 'Item 3: token surprisals' }).click();
	await expect(page).toHaveURL(/\/item\/3$/);
	const drillDown = page.getByTestId('drill-down');
	await expect(drillDown.getByRole('heading', { name: /Item 3/ })).toBeVisible();
	const firstStrip = drillDown
		.getByRole('group', { name: /Token surprisals of condition/ })
		.first();
	const secondToken = firstStrip.locator('[data-token]').nth(1);
	await firstStrip.locator('[data-token]').first().focus();
	await page.keyboard.press('ArrowRight');
	await expect(secondToken).toBeFocused();
	// The exact value shows on focus, and is the token's accessible description.
	await expect(secondToken.getByText(/\d+\.\d{3,} bits/)).toBeVisible();
	await expect(secondToken).toHaveAccessibleDescription(/\d+\.\d{3,} bits/);
	await page.screenshot({ path: `${SCREENSHOTS}/results-drill-down.png`, fullPage: true });

	// Result TSV: the same bytes as `npm run cli -- run <suite> --model gpt2-random-tiny` with no
	// --convention: app and CLI both take the bundled model's own default (bos), and both name it
	// in the table's last column.
	const [resultsTsv, download] = await downloadText(page, 'Result TSV');
	expect(download.suggestedFilename()).toMatch(/-results\.tsv$/);
	const cliTsv = execFileSync(
		'npm',
		['run', '--silent', 'cli', '--', 'run', `suites/${SUITE_FILE}`, '--model', 'gpt2-random-tiny'],
		{ encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
	);
	expect(resultsTsv.split('\n')).toHaveLength(1 + 2 * ITEM_COUNT + 1);
	expect(resultsTsv.split('\n')[0]).toBe('suite\tprediction_id\titem_number\tresult\tconvention');
	expect(resultsTsv).toBe(cliTsv);

	const [regionsCsv] = await downloadText(page, 'Region table CSV');
	expect(regionsCsv.split('\r\n')[0]).toBe(
		'item_number,condition_name,region_number,content,tokens,sum,mean,median,range,max,min',
	);
	const [surprisals] = await downloadText(page, 'Token surprisals TSV');
	// lm-zoo's four columns first (item and condition columns may follow).
	expect(surprisals.split('\n')[0]).toMatch(/^sentence_id\ttoken_id\ttoken\tsurprisal(\t|$)/);
	// The exported token surprisals give the exported results through the CLI's lm-zoo path.
	const surprisalsPath = testInfo.outputPath('surprisals.tsv');
	writeFileSync(surprisalsPath, surprisals);
	const evaluated = execFileSync(
		'npm',
		[
			'run',
			'--silent',
			'cli',
			'--',
			'evaluate',
			`suites/${SUITE_FILE}`,
			'--surprisals',
			surprisalsPath,
		],
		{ encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
	);
	// `evaluate` has surprisals, not a convention: the same table without the convention column.
	expect(evaluated).toBe(resultsTsv.replaceAll(/\t(convention|bos)\n/g, '\n'));
	const [bundle] = await downloadText(page, 'Run bundle (JSON)');
	const shown = await shownResults(page);

	// Another machine: a fresh profile (empty IndexedDB) imports the bundle, twice for compare.
	const other = await browser.newContext();
	const otherPage = await other.newPage();
	await otherPage.goto('/');
	await dropFile(otherPage, 'run.benchtop-run.json', bundle);
	await expect(otherPage).toHaveURL(/#\/results\/1$/);
	await expect(otherPage.getByTestId('results-status')).toContainText(`Done: ${ITEM_COUNT}`);
	await otherPage.goto('/#/results/1');
	await expect(otherPage.getByTestId('item-grid').locator('tbody tr')).toHaveCount(ITEM_COUNT);
	const importedShown = await shownResults(otherPage);
	expect(importedShown).toEqual(shown);
	const [importedTsv] = await downloadText(otherPage, 'Result TSV');
	expect(importedTsv).toBe(cliTsv);

	await dropFile(otherPage, 'run-again.benchtop-run.json', bundle);
	await expect(otherPage).toHaveURL(/#\/results\/2$/);
	await otherPage.getByRole('link', { name: 'Compare models on this suite' }).click();
	const compare = otherPage.getByTestId('compare-table');
	await expect(compare.getByRole('columnheader')).toHaveCount(1 + 2);
	await expect(compare.getByRole('row')).toHaveCount(1 + 2 + 2);
	await expect(otherPage.getByTestId('compare-chart').locator('canvas')).toBeVisible();
	await otherPage.screenshot({ path: `${SCREENSHOTS}/compare-view.png`, fullPage: true });

	// The bundle is sealed with its results' SHA-256: one changed surprisal is refused, with where.
	const edited = JSON.parse(bundle) as {
		items: { sentences: { surprisalsBits: number[] }[] }[];
	};
	edited.items[0]!.sentences[0]!.surprisalsBits[1]! += 0.5;
	await otherPage.goto('/#/history');
	await dropFile(otherPage, 'edited.benchtop-run.json', JSON.stringify(edited));
	await expect(
		otherPage.getByRole('status').filter({ hasText: 'edited.benchtop-run.json' }),
	).toContainText('cannot be imported at /resultsSha256: the results do not match');
	await expect(otherPage.locator('table.history tbody tr')).toHaveCount(2);

	// Small screen, dark theme: no sideways scrolling of the page.
	await otherPage.emulateMedia({ colorScheme: 'dark' });
	await otherPage.setViewportSize({ width: 360, height: 800 });
	await otherPage.goto('/#/results/1/item/2');
	await expect(otherPage.getByTestId('drill-down')).toBeVisible();
	const scrollWidth = await otherPage.evaluate(() => document.documentElement.scrollWidth);
	expect(scrollWidth).toBeLessThanOrEqual(360);
	await otherPage.screenshot({ path: `${SCREENSHOTS}/results-360px-dark.png`, fullPage: true });
	await other.close();
});
