// The Library (issue 26 item 2): a suite run on the bundled tiny model, an Evals run and a Memory
// run answered from replay files, all in one list with their kind, models and counts; filter by
// kind, model and status, search by name; two runs exported as a zip of sealed bundles, one
// deleted, the zip imported back (each run stored anew); an imported Evals run opens on its page;
// axe on the filled Library at 1280 and 390 px, light and dark.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import { axeSummaryInBothThemes } from './axe';

test.use({ bypassCSP: true });

const MODEL_ID = 'gpt2-random-tiny';
const MEMORY_REPLAY = 'tests/fixtures/memory-ui/classroom-agent.replay.jsonl';

async function suiteRun(page: Page): Promise<void> {
	await page.goto('/');
	await page.getByRole('button', { name: /Garden path: NP\/Z/ }).click();
	await expect(page.getByRole('heading', { name: /Garden path: NP\/Z/ })).toBeVisible();
	await page.getByLabel('Bundled model (works offline)').selectOption(MODEL_ID);
	await page.getByRole('button', { name: 'Run suite' }).click();
	await expect(page.getByTestId('results-status')).toContainText('Done', { timeout: 120_000 });
}

async function evalsRun(page: Page): Promise<void> {
	await page.goto('/#/evals');
	await page
		.getByRole('button', { name: /^capitals\b/ })
		.first()
		.click();
	await expect(page.getByText(/Picked capitals\.test\.v1/)).toBeVisible();
	await page.getByRole('group', { name: 'Model under test' }).getByLabel('Replay file').check();
	await page.getByTestId('policy-replay').setInputFiles({
		name: 'answers.replay.jsonl',
		mimeType: 'application/jsonl',
		buffer: Buffer.from(`${JSON.stringify({ when: '', completion: ' Paris' })}\n`),
	});
	await page.getByRole('button', { name: 'Run eval' }).click();
	await expect(page.getByTestId('evals-metrics')).toBeVisible({ timeout: 60_000 });
}

async function memoryRun(page: Page): Promise<void> {
	await page.goto('/#/memory');
	await page.getByRole('button', { name: /^Classroom basics/ }).click();
	await expect(page.getByText(/Loaded Classroom basics: 5 tests/)).toBeVisible();
	await page.getByRole('group', { name: 'Agent' }).getByLabel('Replay file').check();
	await page.getByTestId('policy-replay').setInputFiles(MEMORY_REPLAY);
	await page.getByRole('button', { name: 'Run tests' }).click();
	await expect(page.getByTestId('memory-progress')).toContainText('done', { timeout: 60_000 });
}

test('runs of three kinds in one Library: filter, search, export as a zip, delete, import back', async ({
	page,
}) => {
	test.setTimeout(300_000);
	await suiteRun(page);
	await evalsRun(page);
	await memoryRun(page);

	await page.getByRole('link', { name: 'Library' }).click();
	await expect(page.getByRole('heading', { name: 'Library', exact: true })).toBeVisible();
	const table = page.getByRole('table', { name: /Stored runs/ });
	const rows = table.locator('tbody tr');
	await expect(rows).toHaveCount(3);
	// Newest first: Memory, Evals, suite; each says its kind, what ran, its model and its counts.
	await expect(rows.nth(0)).toContainText('Memory');
	await expect(rows.nth(0)).toContainText('Classroom basics');
	await expect(rows.nth(0)).toContainText('replay:classroom-agent.replay.jsonl (replay)');
	await expect(rows.nth(0)).toContainText(/done, 5\/5 tests/);
	await expect(rows.nth(1)).toContainText('Evals');
	await expect(rows.nth(1)).toContainText(/capitals/);
	await expect(rows.nth(1)).toContainText('replay:answers.replay.jsonl (replay)');
	await expect(rows.nth(1)).toContainText(/done, (\d+)\/\1 samples/);
	await expect(rows.nth(2)).toContainText('Suite');
	await expect(rows.nth(2)).toContainText(/Garden path: NP\/Z/);
	await expect(rows.nth(2)).toContainText(`${MODEL_ID} (bundled,`);
	await expect(rows.nth(2)).toContainText('done, 16/16 items');
	const [memoryId, evalsId, suiteId] = await rows
		.locator('th[scope="row"]')
		.evaluateAll((cells) => cells.map((cell) => Number(/Run (\d+)/.exec(cell.textContent)?.[1])));

	const axe: string[] = [];
	for (const size of [
		{ width: 1280, height: 800 },
		{ width: 390, height: 844 },
	]) {
		await page.setViewportSize(size);
		axe.push(...(await axeSummaryInBothThemes(page, `library @${size.width}`)));
	}
	await page.setViewportSize({ width: 1280, height: 800 });
	await page.emulateMedia({ colorScheme: 'light' });
	expect(axe).toEqual([]);

	// Filter by kind, by model, by status; search by name.
	const filters = page.getByRole('search', { name: /Filter stored runs/ });
	await filters.getByLabel('Kind').selectOption('evals');
	await expect(rows).toHaveCount(1);
	await expect(rows.first()).toContainText(/capitals/);
	await filters.getByLabel('Kind').selectOption('ltm');
	await expect(rows).toHaveCount(1);
	await expect(rows.first()).toContainText('Classroom basics');
	await filters.getByLabel('Kind').selectOption('');
	await filters.getByLabel('Model').selectOption(MODEL_ID);
	await expect(rows).toHaveCount(1);
	await expect(rows.first()).toContainText(/Garden path/);
	await filters.getByLabel('Model').selectOption('');
	await filters.getByLabel('Status').selectOption('interrupted');
	await expect(page.getByText('No run matches the filters.')).toBeVisible();
	await filters.getByLabel('Status').selectOption('done');
	await expect(rows).toHaveCount(3);
	await filters.getByLabel('Search').fill('garden');
	await expect(rows).toHaveCount(1);
	await expect(filters).toContainText('1 of 3 runs');
	await filters.getByLabel('Search').fill('classroom replay');
	await expect(rows).toHaveCount(1);
	await expect(rows.first()).toContainText('Classroom basics');
	await filters.getByRole('button', { name: 'Clear filters' }).click();
	await expect(rows).toHaveCount(3);

	// Export the suite run and the Evals run as one zip of sealed bundles.
	await page
		.getByRole('checkbox', { name: `Pick run ${suiteId} for the matrix or an export` })
		.check();
	await page.getByRole('checkbox', { name: `Pick run ${evalsId} for an export` }).check();
	await expect(page.getByRole('button', { name: 'Matrix of picked runs (1)' })).toBeEnabled();
	const [download] = await Promise.all([
		page.waitForEvent('download'),
		page.getByRole('button', { name: 'Export picked runs (2)' }).click(),
	]);
	expect(download.suggestedFilename()).toMatch(/^benchtop-runs-\d{4}-\d\d-\d\d-2\.zip$/);
	const zipPath = await download.path();
	const files = unzipSync(new Uint8Array(readFileSync(zipPath)));
	expect(Object.keys(files).sort()).toEqual([
		`run${suiteId}-suite-Garden-path-NP-Z-ambiguity-with-and-without-a-comma.benchtop-run.json`,
		`run${evalsId}-evals-capitals.benchtop-run.json`,
	]);
	for (const bytes of Object.values(files)) {
		const bundle = JSON.parse(strFromU8(bytes)) as { format: string; resultsSha256: string };
		expect(bundle.format).toBe('benchtop-run/2');
		expect(bundle.resultsSha256).toMatch(/^[0-9a-f]{64}$/);
	}

	// Delete the Evals run.
	page.once('dialog', (dialog) => void dialog.accept());
	await page.getByRole('button', { name: `Delete run ${evalsId}` }).click();
	await expect(
		page.getByRole('status').filter({ hasText: `Run ${evalsId} deleted.` }),
	).toBeVisible();
	await expect(rows).toHaveCount(2);
	await expect(page.getByRole('button', { name: `Delete run ${memoryId}` })).toBeVisible();

	// Import the zip back: both runs stored anew (new ids), the Evals run opens on its page.
	await page.getByTestId('history-import').setInputFiles({
		name: 'two-runs.zip',
		mimeType: 'application/zip',
		buffer: readFileSync(zipPath),
	});
	await expect(
		page.getByRole('status').filter({ hasText: /^Imported 2 of 2 runs from two-runs\.zip/ }),
	).toBeVisible();
	await expect(rows).toHaveCount(4);
	await page
		.getByRole('search', { name: /Filter stored runs/ })
		.getByLabel('Kind')
		.selectOption('evals');
	await expect(rows).toHaveCount(1);
	await expect(rows.first()).toContainText(/done, (\d+)\/\1 samples/);
	await rows
		.first()
		.getByRole('button', { name: /^Open run \d+$/ })
		.click();
	// The URL names the run shown: a link that opens it again.
	await expect(page).toHaveURL(/#\/evals\/run\/\d+$/);
	await expect(page.getByTestId('evals-metrics')).toBeVisible();

	// A share link that is not one is refused where it is pasted.
	await page.getByRole('link', { name: 'Library' }).click();
	await page.getByLabel('Or open a share link').fill('https://example.org/#/nothing');
	await page.getByRole('button', { name: 'Open link' }).click();
	await expect(page.getByRole('alert')).toContainText('not a Benchtop share link');
});
