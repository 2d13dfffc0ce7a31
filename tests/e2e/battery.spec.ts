// The Battery page against the built app with the REAL engine: pick bundled suites, run them as
// one battery with gpt2-random-tiny (per-suite progress, "Battery done" takes the focus, the
// matrix link, the runs in History); cancel a battery (gpt2-en-small, so it is still running),
// reload, resume it to the end; add a folder, dropped files and a zip, a broken file listed and
// not picked; axe on the page at 1280 and 390 px before and after a run.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { zipSync } from 'fflate';
import { axeSummary } from './axe';

const MODEL_ID = 'gpt2-random-tiny';
/** The cancel test's model: the tiny model can finish before a cancel click lands. */
const SLOW_MODEL_ID = 'gpt2-en-small';
const SCREENSHOTS = 'tests/e2e/screenshots';

interface IndexEntry {
	file: string;
	name: string;
	items: number;
}
const BUNDLED = (JSON.parse(readFileSync('suites/index.json', 'utf8')) as { suites: IndexEntry[] })
	.suites;

function bundled(file: string): IndexEntry {
	const entry = BUNDLED.find((suite) => suite.file === file);
	if (!entry) throw new Error(`no bundled suite ${file}`);
	return entry;
}

function suiteText(file: string): string {
	return readFileSync(`suites/${file}`, 'utf8');
}

/** The bundled garden path 24 times over (384 items): long enough to cancel mid-battery. */
function longSuite(): { text: string; name: string; total: number } {
	const base = JSON.parse(suiteText('garden-path-npz.json')) as {
		meta: { name: string };
		items: { item_number: number }[];
	};
	const items = Array.from({ length: 24 }, (_, copy) =>
		base.items.map((item, index) => ({ ...item, item_number: copy * 100 + index + 1 })),
	).flat();
	const name = 'Long garden path';
	const long = { ...base, meta: { ...base.meta, name }, items };
	return { text: JSON.stringify(long, null, 1), name, total: items.length };
}

interface StoredRun {
	id: number;
	kind: string;
	suiteName: string;
	status: string;
	itemsDone: number;
	itemCount: number;
	battery?: { id: string; index: number; size: number };
}

/** Rows of an IndexedDB store of the app's database. */
async function storedRows<T>(page: Page, store: string): Promise<T[]> {
	return page.evaluate(
		(name) =>
			new Promise<T[]>((resolve, reject) => {
				const open = indexedDB.open('benchtop');
				open.onerror = () => reject(open.error);
				open.onsuccess = () => {
					const request = open.result.transaction(name).objectStore(name).getAll();
					request.onerror = () => reject(request.error);
					request.onsuccess = () => {
						open.result.close();
						resolve(request.result as T[]);
					};
				};
			}),
		store,
	);
}

async function batteryRuns(page: Page): Promise<StoredRun[]> {
	const runs = await storedRows<StoredRun>(page, 'runs');
	return runs.filter((run) => run.kind === 'suite' && run.battery !== undefined);
}

/** Stored items as [runId, itemNumber, savedAt]. */
async function storedItems(page: Page): Promise<[number, number, number][]> {
	const rows = await storedRows<{ kind: string; runId: number; key: number; savedAt: number }>(
		page,
		'runItems',
	);
	return rows
		.filter((row) => row.kind === 'suite-item')
		.map((row) => [row.runId, row.key, row.savedAt]);
}

const suiteBox = (page: Page, name: string) =>
	page.getByRole('checkbox', {
		name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`),
	});

const progress = (page: Page) => page.getByTestId('battery-progress');

async function openBatteryPage(page: Page): Promise<void> {
	await page.goto('/#/battery');
	await expect(page.getByRole('heading', { name: 'Battery', exact: true })).toBeVisible();
	await expect(suiteBox(page, bundled('garden-path-npz.json').name)).toBeVisible();
}

test('three bundled suites run as one battery; "Battery done" takes the focus', async ({
	page,
}) => {
	const files = [
		'subject-verb-agreement-pp.json',
		'reflexive-agreement-rc.json',
		'npi-licensing-ever.json',
	];
	const suites = files.map(bundled);
	await openBatteryPage(page);
	await expect(page.getByRole('button', { name: 'Run battery' })).toBeDisabled();
	await expect(page.getByText('Pick at least one suite first.')).toBeVisible();
	for (const suite of suites) await suiteBox(page, suite.name).check();
	const items = suites.reduce((sum, suite) => sum + suite.items, 0);
	await expect(page.getByTestId('battery-totals')).toHaveText(
		new RegExp(`^3 suites picked: ${items} items, \\d+ sentences$`),
	);
	await page.getByLabel('Bundled model (works offline)').selectOption(MODEL_ID);
	await page.getByRole('button', { name: 'Run battery' }).click();

	await expect(page).toHaveURL(/#\/battery$/);
	const perSuite = progress(page).getByRole('list', { name: 'Progress per suite' });
	for (const suite of suites) {
		await expect(perSuite.getByRole('progressbar', { name: suite.name })).toBeVisible();
	}
	const done = page.getByRole('heading', { name: 'Battery done' });
	await expect(done).toBeVisible({ timeout: 120_000 });
	await expect(done).toBeFocused();
	for (const suite of suites) {
		await expect(perSuite.getByRole('progressbar', { name: suite.name })).toHaveAttribute(
			'aria-valuetext',
			`${suite.items} of ${suite.items} items`,
		);
	}

	const runs = await batteryRuns(page);
	expect(runs).toHaveLength(3);
	const batteryId = runs[0]?.battery?.id ?? '';
	expect(runs.every((run) => run.battery?.id === batteryId && run.status === 'done')).toBe(true);
	expect(runs.map((run) => run.suiteName).sort()).toEqual(suites.map((s) => s.name).sort());
	await expect(page.getByRole('link', { name: 'Open the matrix' })).toHaveAttribute(
		'href',
		`#/matrix/${batteryId}`,
	);
	const past = page.locator(`[data-battery-id="${batteryId}"]`);
	await expect(past).toContainText('3 of 3 suites done');
	await expect(past).toContainText(`${items} / ${items} items`);
	await expect(past.getByRole('link', { name: /^Matrix/ })).toHaveAttribute(
		'href',
		`#/matrix/${batteryId}`,
	);
	await page.screenshot({ path: `${SCREENSHOTS}/battery-done.png`, fullPage: true });

	await page.getByRole('link', { name: 'Library' }).click();
	for (const suite of suites) {
		const row = page.getByRole('row').filter({ hasText: suite.name });
		await expect(row.getByText(`done, ${suite.items}/${suite.items} items`)).toBeVisible();
	}
});

test('a cancelled battery keeps its items and, after a reload, resumes every suite to the end', async ({
	page,
}) => {
	const long = longSuite();
	await openBatteryPage(page);
	await page.getByTestId('battery-files').setInputFiles({
		name: 'long.json',
		mimeType: 'application/json',
		buffer: Buffer.from(long.text),
	});
	await expect(suiteBox(page, long.name)).toBeChecked();
	const picked = ['center-embedding-verb-order.json', 'garden-path-mvrr.json'].map(bundled);
	for (const suite of picked) await suiteBox(page, suite.name).check();
	const expected = new Map([
		...picked.map((suite): [string, number] => [suite.name, suite.items]),
		[long.name, long.total],
	]);
	await page.getByLabel('Bundled model (works offline)').selectOption(SLOW_MODEL_ID);
	await page.getByRole('button', { name: 'Run battery' }).click();
	await expect
		.poll(async () => (await storedItems(page)).length, { timeout: 120_000, intervals: [50] })
		.toBeGreaterThanOrEqual(1);
	await progress(page).getByRole('button', { name: 'Cancel battery' }).click();
	const cancelled = page.getByRole('heading', { name: 'Battery cancelled' });
	await expect(cancelled).toBeVisible({ timeout: 30_000 });
	await expect(cancelled).toBeFocused();
	await expect(progress(page).getByRole('button', { name: 'Resume battery' })).toBeVisible();

	const kept = await storedItems(page);
	const total = [...expected.values()].reduce((sum, count) => sum + count, 0);
	expect(kept.length).toBeGreaterThanOrEqual(1);
	expect(kept.length).toBeLessThan(total);
	const runs = await batteryRuns(page);
	expect(runs.reduce((sum, run) => sum + run.itemsDone, 0)).toBe(kept.length);
	const batteryId = runs[0]?.battery?.id ?? '';

	await page.reload();
	const past = page.locator(`[data-battery-id="${batteryId}"]`);
	await expect(past).toContainText(`${kept.length} / ${total} items`);
	await past.getByRole('button', { name: /^Resume the gpt2-en-small battery/ }).click();
	const done = page.getByRole('heading', { name: 'Battery done' });
	await expect(done).toBeVisible({ timeout: 170_000 });
	await expect(done).toBeFocused();

	const final = await batteryRuns(page);
	expect(final).toHaveLength(3);
	for (const run of final) {
		expect(run.battery?.id).toBe(batteryId);
		expect(run.status).toBe('done');
		expect(run.itemCount).toBe(expected.get(run.suiteName));
		expect(run.itemsDone).toBe(run.itemCount);
	}
	// Items stored before the cancel were not scored again.
	const after = new Map(
		(await storedItems(page)).map(([runId, item, at]) => [`${runId}/${item}`, at]),
	);
	expect(after.size).toBe(total);
	for (const [runId, item, savedAt] of kept) expect(after.get(`${runId}/${item}`)).toBe(savedAt);
	await expect(past).toContainText('3 of 3 suites done');
	await expect(past.getByRole('button', { name: /^Resume/ })).toHaveCount(0);
});

test('a folder and dropped files are listed; a broken file shows its problem and is not picked', async ({
	page,
}, testInfo) => {
	const folder = testInfo.outputPath('suites');
	mkdirSync(folder, { recursive: true });
	const agreement = JSON.parse(suiteText('subject-verb-agreement-pp.json')) as {
		meta: { name: string };
	};
	agreement.meta.name = 'Folder agreement';
	writeFileSync(join(folder, 'a-agreement.json'), JSON.stringify(agreement));
	const npi = JSON.parse(suiteText('npi-licensing-ever.json')) as { meta: { name: string } };
	npi.meta.name = 'NPI copy <b>bold</b>';
	writeFileSync(join(folder, 'b-npi.json'), JSON.stringify(npi));
	writeFileSync(join(folder, 'c-broken.json'), '{\n  "meta": {"name": "x",\n}');
	writeFileSync(join(folder, 'README.md'), '# not a suite');
	await openBatteryPage(page);
	await page.getByTestId('battery-files-folder').setInputFiles(folder);

	const added = page.getByRole('list', { name: 'Added files' });
	await expect(added.getByRole('checkbox', { name: /^Folder agreement/ })).toBeChecked();
	await expect(added.getByRole('checkbox', { name: /^NPI copy <b>bold<\/b>/ })).toBeChecked();
	await expect(page.locator('main b')).toHaveCount(0);
	const broken = added.getByTestId('broken-suite');
	await expect(broken).toHaveCount(1);
	await expect(broken).toContainText('suites/c-broken.json');
	await expect(broken).toContainText('Cannot be run (line 2, column 23): invalid JSON');
	await expect(broken.getByRole('checkbox')).not.toBeChecked();
	await expect(broken.getByRole('checkbox')).toBeDisabled();
	await expect(
		page.getByText('1 file skipped: not .json, .jsonl, .csv, .tsv or .zip.'),
	).toBeVisible();

	// A real drag of two files onto the drop zone: a copy of a bundled suite (listed once) and a
	// file that is not UTF-8.
	const dataTransfer = await page.evaluateHandle((copy) => {
		const transfer = new DataTransfer();
		transfer.items.add(new File([copy], 'garden.json', { type: 'application/json' }));
		transfer.items.add(new File([new Uint8Array([0x7b, 0x22, 0xe9, 0x22, 0x7d])], 'latin1.json'));
		return transfer;
	}, suiteText('garden-path-npz.json'));
	const zone = page.getByRole('button', { name: /Drop suite files, a folder or a zip here/ });
	for (const type of ['dragenter', 'dragover', 'drop']) {
		await zone.dispatchEvent(type, { dataTransfer });
	}
	// The copy added on purpose picks the bundled suite it repeats.
	await expect(
		page.getByText(
			/garden\.json is the same suite as Garden path: NP\/Z.*: listed once, and picked\./,
		),
	).toBeVisible();
	await expect(page.getByRole('checkbox', { name: /^Garden path: NP\/Z/ })).toBeChecked();
	await expect(broken).toHaveCount(2);
	await expect(broken.nth(1)).toContainText('latin1.json is not UTF-8 text');
	await expect(broken.nth(1).getByRole('checkbox')).not.toBeChecked();

	const items = [
		'subject-verb-agreement-pp.json',
		'npi-licensing-ever.json',
		'garden-path-npz.json',
	]
		.map((file) => bundled(file).items)
		.reduce((sum, count) => sum + count, 0);
	await expect(page.getByTestId('battery-totals')).toHaveText(
		new RegExp(`^3 suites picked: ${items} items`),
	);
	// Select all picks every readable suite, never a broken one; None clears.
	await page.getByRole('button', { name: 'Select all' }).click();
	await expect(page.getByTestId('battery-totals')).toHaveText(
		new RegExp(`^${BUNDLED.length + 2} suites picked`),
	);
	for (const box of await broken.getByRole('checkbox').all()) await expect(box).not.toBeChecked();
	await page.getByRole('button', { name: 'None', exact: true }).click();
	await expect(page.getByTestId('battery-totals')).toHaveText(/^0 suites picked/);
});

test("a zip's suites are listed by their path inside it, and picked", async ({ page }) => {
	await openBatteryPage(page);
	const added = page.getByRole('list', { name: 'Added files' });
	// A zip of suites: each suite inside is listed by its path in the zip.
	const zipped = JSON.parse(suiteText('center-embedding-verb-order.json')) as {
		meta: { name: string };
	};
	zipped.meta.name = 'Zipped center embedding';
	await page.getByTestId('battery-files').setInputFiles({
		name: 'battery.zip',
		mimeType: 'application/zip',
		buffer: Buffer.from(
			zipSync({ 'zipped/center.json': new TextEncoder().encode(JSON.stringify(zipped)) }),
		),
	});
	const zippedBox = added.getByRole('checkbox', { name: /^Zipped center embedding/ });
	await expect(zippedBox).toBeChecked();
	await expect(zippedBox).toHaveAccessibleName(/battery\.zip\/zipped\/center\.json/);
	await expect(page.getByTestId('battery-totals')).toHaveText(
		new RegExp(`^1 suite picked: ${bundled('center-embedding-verb-order.json').items} items`),
	);
});

test.describe('accessibility', () => {
	// The app's CSP forbids inline scripts, which is how axe is injected: bypassed here only.
	test.use({ bypassCSP: true });

	test('the battery page has no axe violations at 1280 and 390 px, before and after a run', async ({
		page,
	}) => {
		const violations: string[] = [];
		await page.setViewportSize({ width: 1280, height: 900 });
		await openBatteryPage(page);
		violations.push(...(await axeSummary(page, '1280 px, empty')));
		await page.setViewportSize({ width: 390, height: 844 });
		violations.push(...(await axeSummary(page, '390 px, empty')));
		// The words of the page are explained in place.
		await page.getByRole('button', { name: 'What is the SG score?' }).click();
		await expect(
			page.getByRole('note').filter({ hasText: 'averaged over the suites' }),
		).toBeVisible();
		violations.push(...(await axeSummary(page, '390 px, SG score tip open')));
		expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
			390,
		);

		// Keyboard only: Tab to a suite's checkbox, Space picks it; the run starts from the keyboard.
		const box = suiteBox(page, bundled('center-embedding-verb-order.json').name);
		await box.focus();
		await page.keyboard.press('Space');
		await expect(box).toBeChecked();
		await page.getByLabel('Bundled model (works offline)').selectOption(MODEL_ID);
		await page.getByRole('button', { name: 'Run battery' }).focus();
		await page.keyboard.press('Enter');
		const done = page.getByRole('heading', { name: 'Battery done' });
		await expect(done).toBeFocused({ timeout: 120_000 });
		violations.push(...(await axeSummary(page, '390 px, after a run')));
		expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
			390,
		);
		await page.screenshot({ path: `${SCREENSHOTS}/battery-390px.png`, fullPage: true });
		await page.setViewportSize({ width: 1280, height: 900 });
		violations.push(...(await axeSummary(page, '1280 px, after a run')));
		await page.emulateMedia({ colorScheme: 'dark' });
		violations.push(...(await axeSummary(page, '1280 px, dark, after a run')));
		expect(violations).toEqual([]);
	});
});
