// The suite editor in the built app: a 2-item, 2-condition, 3-region suite built by typing and
// pasting, a prediction from the builder, export; the exported JSON validates (parseSuite) and
// the suite runs on the real engine with the bundled gpt2-random-tiny.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { parseSuite } from '../../src/core/syntaxgym/suite/parse-suite';
import { axeSummaryInBothThemes } from './axe';

/** Pastes `text` into the focused element as a spreadsheet would (a paste event with text). */
async function pasteInto(page: Page, label: string, text: string): Promise<void> {
	const input = page.getByLabel(label, { exact: true });
	await input.focus();
	await input.evaluate((element, pasted) => {
		const data = new DataTransfer();
		data.setData('text/plain', pasted);
		element.dispatchEvent(
			new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
		);
	}, text);
}

test('build a suite by typing and pasting, add a prediction, export, run', async ({ page }) => {
	// The model the editor's "Run this suite" will use: the tiny bundled one.
	await page.goto('/');
	await page.getByLabel('Bundled model (works offline)').selectOption('gpt2-random-tiny');
	// The Run page's word-boundary option holds for the editor's run too.
	await page.getByTestId('word-boundaries').check();
	await page.getByRole('link', { name: 'Editor' }).click();
	await expect(page.getByRole('heading', { name: 'Suite editor' })).toBeVisible();
	// On a phone the page itself does not scroll sideways: the grid scrolls inside its box.
	await page.setViewportSize({ width: 360, height: 800 });
	await expect
		.poll(() => page.evaluate(() => document.documentElement.scrollWidth))
		.toBeLessThanOrEqual(360);
	await page.setViewportSize({ width: 1280, height: 720 });

	// Meta and conditions.
	await page.getByLabel('Name', { exact: true }).fill('Editor agreement');
	await page.getByLabel('Condition 1 name').fill('match');
	await page.getByLabel('Condition 1 name').press('Tab');
	await page.getByLabel('Condition 2 name').fill('mismatch');
	await page.getByLabel('Condition 2 name').press('Tab');
	await page.getByLabel('Region 3 name').fill('verb');
	await page.getByLabel('Region 3 name').press('Tab');

	// Item 1, condition match: typed cell by cell.
	await page.getByLabel('Item 1, match, region 1 (region_1)').fill('The key');
	await page.getByLabel('Item 1, match, region 2 (region_2)').fill('to the cabinets');
	await page.getByLabel('Item 1, match, region 3 (verb)').fill('is');
	// The rest pasted as a spreadsheet block from item 1 / mismatch: it grows the grid by an item.
	await pasteInto(
		page,
		'Item 1, mismatch, region 1 (region_1)',
		'The key\tto the cabinets\tare\nThe road\tto the villages\tis\nThe road\tto the villages\tare\n',
	);
	await expect(page.getByLabel('Item 2, mismatch, region 3 (verb)')).toHaveValue('are');

	// Undo/redo of the paste.
	await page.getByRole('button', { name: 'Undo' }).click();
	await expect(page.getByLabel('Item 2, mismatch, region 3 (verb)')).toHaveCount(0);
	await page.getByRole('button', { name: 'Redo' }).click();
	await expect(page.getByLabel('Item 2, mismatch, region 3 (verb)')).toHaveValue('are');

	// Prediction from the builder: region 3, mismatch > match.
	await page.getByLabel('Builder region').selectOption('3');
	await page.getByLabel('Builder left condition').selectOption('mismatch');
	await page.getByLabel('Builder relation').selectOption('>');
	await page.getByLabel('Builder right condition').selectOption('match');
	await page.getByRole('button', { name: 'Add prediction' }).click();
	await expect(page.getByLabel('Prediction 1 formula')).toHaveValue('(3;%mismatch%) > (3;%match%)');
	await expect(page.getByTestId('editor-valid')).toHaveText(
		'Valid suite: 2 items, 2 conditions, 3 regions, 1 prediction.',
	);

	// A warning points at its grid cell (not a JSON line) and takes the focus there.
	const cell = page.getByLabel('Item 2, match, region 2 (region_2)');
	await cell.fill('');
	const goTo = page.getByRole('button', { name: 'Go to Item 2, match, region 2 (region_2)' });
	await expect(goTo).toBeVisible();
	await expect(page.getByText(/suite line \d+/)).toHaveCount(0);
	await goTo.click();
	await expect(cell).toBeFocused();
	await cell.fill('to the villages');
	await expect(page.getByTestId('editor-valid')).toBeVisible();

	// A broken formula is pointed at by column, then fixed.
	await page.getByLabel('Prediction 1 formula').fill('(3;%mismatch%) >> (3;%match%)');
	await expect(page.getByText('Column 17:')).toBeVisible();
	await page.getByLabel('Prediction 1 formula').fill('(3;%mismatch%) > (3;%match%)');
	await expect(page.getByTestId('editor-valid')).toBeVisible();
	await expect(page.getByTestId('editor-dirty')).toBeVisible();

	// Unsaved-changes guard: leaving by an in-app link asks first; "cancel" stays.
	let asked = '';
	page.once('dialog', (dialog) => {
		asked = dialog.message();
		void dialog.dismiss();
	});
	await page.getByRole('link', { name: 'Library' }).click();
	expect(asked).toMatch(/unsaved changes/);
	await expect(page).toHaveURL(/#\/editor$/);
	await expect(page.getByLabel('Item 2, mismatch, region 3 (verb)')).toHaveValue('are');

	// Tokenization preview of a row with the bundled tiny model (the app's default model
	// is gpt2-en-small; the preview uses whatever the picker holds).
	await page.getByRole('button', { name: 'Preview tokens of item 1, match' }).click();
	await expect(page.getByTestId('token-preview')).toContainText('cabinets', { timeout: 60_000 });

	// Export: the downloaded JSON validates in strict mode.
	const [download] = await Promise.all([
		page.waitForEvent('download'),
		page.getByRole('button', { name: 'Export JSON' }).click(),
	]);
	expect(download.suggestedFilename()).toBe('editor-agreement.json');
	const exported = readFileSync(await download.path(), 'utf8');
	const parsed = parseSuite(exported, { mode: 'strict' });
	expect(parsed.ok).toBe(true);
	if (!parsed.ok) return;
	expect(parsed.suite.items.map((item) => item.conditions.length)).toEqual([2, 2]);
	expect(parsed.suite.regionNames).toEqual(['region_1', 'region_2', 'verb']);
	expect(parsed.suite.predictions.map((p) => p.formula)).toEqual(['(3;%mismatch%) > (3;%match%)']);
	await expect(page.getByTestId('editor-dirty')).toHaveCount(0);

	// "Run this suite" runs it at once on the real engine and opens the run's results.
	await page.getByRole('button', { name: 'Run this suite' }).click();
	await expect(page).toHaveURL(/#\/results\/\d+$/);
	await expect(page.getByRole('heading', { name: 'Results: Editor agreement' })).toBeVisible();
	const progress = page.getByRole('region', { name: 'Run progress' });
	await expect(progress.getByText('2 / 2 items')).toBeVisible({ timeout: 120_000 });
	await expect(progress.getByRole('status')).toHaveText('Done');
	// It was scored with word boundaries, as the Run page's option asked.
	const runId = Number(/#\/results\/(\d+)$/.exec(page.url())?.[1]);
	expect(await storedWordBoundaries(page, runId)).toBe(true);
});

/** `wordBoundaries` of a run record as the app's IndexedDB holds it (read raw). */
async function storedWordBoundaries(page: Page, runId: number): Promise<unknown> {
	return page.evaluate(async (runId) => {
		const db = await new Promise<IDBDatabase>((resolve, reject) => {
			const request = indexedDB.open('benchtop');
			request.onsuccess = () => resolve(request.result);
			request.onerror = () => reject(request.error);
		});
		const run = await new Promise<{ wordBoundaries?: boolean } | undefined>((resolve, reject) => {
			const request = db.transaction('runs').objectStore('runs').get(runId);
			request.onsuccess = () => resolve(request.result);
			request.onerror = () => reject(request.error);
		});
		db.close();
		return run?.wordBoundaries;
	}, runId);
}

test('a truncated paste opens in the editor with its error, is fixed there and runs', async ({
	page,
}) => {
	const suite = {
		meta: { name: 'Mended agreement', metric: 'sum' },
		region_meta: { '1': 'subject', '2': 'verb' },
		predictions: [{ type: 'formula', formula: '(2;%bad%) > (2;%good%)' }],
		items: [1, 2].map((itemNumber) => ({
			item_number: itemNumber,
			conditions: [
				{ name: 'good', verb: 'is' },
				{ name: 'bad', verb: 'are' },
			].map(({ name, verb }) => ({
				condition_name: name,
				regions: [
					{ region_number: 1, content: itemNumber === 1 ? 'The key' : 'The road' },
					{ region_number: 2, content: verb },
				],
			})),
		})),
	};
	const whole = `${JSON.stringify(suite, null, '\t')}\n`;
	// Cut off before the closing brackets, as a paste that lost its end.
	const truncated = whole.slice(0, whole.lastIndexOf(']'));

	await page.goto('/');
	await page.getByLabel('Bundled model (works offline)').selectOption('gpt2-random-tiny');
	await page.getByText('Paste JSON').click();
	await page.getByLabel('Suite JSON').fill(truncated);
	await page.getByRole('button', { name: 'Open pasted suite' }).click();
	const problems = page.getByRole('region', { name: 'Suite problems' });
	await expect(problems.getByTestId('early-end')).toHaveText(/The file ends early/);

	await page.getByRole('button', { name: 'Open in the editor' }).click();
	await expect(page).toHaveURL(/#\/editor$/);
	const text = page.getByLabel('Suite JSON text');
	await expect(text).toHaveValue(truncated);
	// The syntax error is located in the text, and "Go to" puts the caret there.
	const editorProblems = page.getByRole('region', { name: 'Suite problems' });
	await expect(editorProblems.getByTestId('early-end')).toHaveText(/The file ends early/);
	await editorProblems.getByRole('button', { name: /^Go to line \d+, column \d+$/ }).click();
	await expect(text).toBeFocused();
	await expect(page.getByRole('button', { name: 'Open in the grid' })).toBeDisabled();
	await expect(page.getByRole('button', { name: 'Run this suite' })).toBeDisabled();

	// Fixed: it validates, goes into the grid, and "Run this suite" runs it.
	await text.fill(whole);
	await expect(page.getByTestId('editor-valid')).toHaveText(
		'Valid suite: 2 items, 2 conditions, 2 regions, 1 prediction.',
	);
	await page.getByRole('button', { name: 'Open in the grid' }).click();
	await expect(page.getByLabel('Item 2, bad, region 2 (verb)')).toHaveValue('are');
	await expect(page.getByTestId('editor-valid')).toBeVisible();
	await expect(page.getByTestId('editor-dirty')).toBeVisible();
	await page.getByRole('button', { name: 'Run this suite' }).click();
	await expect(page).toHaveURL(/#\/results\/\d+$/);
	await expect(page.getByRole('heading', { name: 'Results: Mended agreement' })).toBeVisible();
	const progress = page.getByRole('region', { name: 'Run progress' });
	await expect(progress.getByText('2 / 2 items')).toBeVisible({ timeout: 120_000 });
	await expect(progress.getByRole('status')).toHaveText('Done');
	// The word-boundary option was left off: the run is recorded without it.
	const runId = Number(/#\/results\/(\d+)$/.exec(page.url())?.[1]);
	expect(await storedWordBoundaries(page, runId)).toBeUndefined();
});

test.describe('a broken suite in the editor, checked by axe', () => {
	// The app's CSP forbids inline scripts, which is how Playwright injects axe.
	test.use({ bypassCSP: true });

	test('valid JSON with a missing condition opens in the grid, problems at their cells', async ({
		page,
	}) => {
		const rows = (item: number, conditions: string[]) =>
			conditions.map((name) => ({
				condition_name: name,
				regions: [
					{ region_number: 1, content: item === 1 ? 'The key' : 'The road' },
					{ region_number: 2, content: name === 'good' ? 'is' : 'are' },
				],
			}));
		const broken = JSON.stringify(
			{
				meta: { name: 'Half an item', metric: 'sum' },
				region_meta: { '1': 'subject', '2': 'verb' },
				predictions: [{ type: 'formula', formula: '(2;%bad%) > (2;%good%)' }],
				items: [
					{ item_number: 1, conditions: rows(1, ['good', 'bad']) },
					{ item_number: 2, conditions: rows(2, ['good']) },
				],
			},
			null,
			2,
		);
		await page.goto('/');
		await page.getByText('Paste JSON').click();
		await page.getByLabel('Suite JSON').fill(broken);
		await page.getByRole('button', { name: 'Open pasted suite' }).click();
		await expect(page.getByRole('region', { name: 'Suite problems' })).toContainText('error');
		const open = page.getByRole('button', { name: 'Open in the editor' });
		await expect(open).toBeVisible();
		expect(await axeSummaryInBothThemes(page, 'problems listed')).toEqual([]);

		await open.click();
		await expect(page.getByLabel('Item 1, bad, region 2 (verb)')).toHaveValue('are');
		// Item 2's missing row is in the grid, empty; the problems point at its cells.
		const cell = page.getByLabel('Item 2, bad, region 2 (verb)');
		await expect(cell).toHaveValue('');
		await expect(page.getByTestId('editor-notes')).toHaveText(
			'item 2 has no condition "bad": its row was added, empty',
		);
		const goTo = page.getByRole('button', { name: 'Go to Item 2, bad, region 2 (verb)' });
		await expect(goTo).toBeVisible();
		expect(await axeSummaryInBothThemes(page, 'editor grid')).toEqual([]);
		await goTo.click();
		await expect(cell).toBeFocused();
		await cell.fill('are');
		await page.getByLabel('Item 2, bad, region 1 (subject)').fill('The road');
		await expect(page.getByTestId('editor-valid')).toHaveText(
			'Valid suite: 2 items, 2 conditions, 2 regions, 1 prediction.',
		);
		await expect(page.getByRole('button', { name: 'Run this suite' })).toBeEnabled();
	});

	test('the JSON text view of a truncated suite has no axe violations', async ({ page }) => {
		await page.goto('/');
		await page.getByText('Paste JSON').click();
		await page
			.getByLabel('Suite JSON')
			.fill('{\n\t"meta": {\n\t\t"name": "Cut", "metric": "sum"\n');
		await page.getByRole('button', { name: 'Open pasted suite' }).click();
		await page.getByRole('button', { name: 'Open in the editor' }).click();
		await expect(page.getByLabel('Suite JSON text')).toBeVisible();
		await expect(page.getByRole('button', { name: /^Go to line 4/ })).toBeVisible();
		expect(await axeSummaryInBothThemes(page, 'editor JSON text')).toEqual([]);
	});
});
