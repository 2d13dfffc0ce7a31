// A battery seen from the rest of the app, with the REAL engine: the app-wide progress shows the
// battery's overall bar and one bar per suite (axe-clean) on other pages; a reload mid-battery
// offers the battery as ONE interrupted entry (axe-clean), and Resume continues every suite on
// the Battery page.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { axeSummary } from './axe';

/** Slow enough (with a long suite) that the battery is still running when the test acts. */
const MODEL_ID = 'gpt2-en-small';

interface IndexEntry {
	file: string;
	name: string;
	items: number;
}
const BUNDLED = (JSON.parse(readFileSync('suites/index.json', 'utf8')) as { suites: IndexEntry[] })
	.suites;
const PICKED = ['subject-verb-agreement-pp.json', 'npi-licensing-ever.json'].map((file) => {
	const entry = BUNDLED.find((suite) => suite.file === file);
	if (!entry) throw new Error(`no bundled suite ${file}`);
	return entry;
});

/** The bundled garden path 24 times over: long enough to act while the battery runs. */
function longSuite(): { text: string; name: string; total: number } {
	const base = JSON.parse(readFileSync('suites/garden-path-npz.json', 'utf8')) as {
		meta: { name: string };
		items: { item_number: number }[];
	};
	const items = Array.from({ length: 24 }, (_, copy) =>
		base.items.map((item, index) => ({ ...item, item_number: copy * 100 + index + 1 })),
	).flat();
	const name = 'Long garden path';
	return {
		text: JSON.stringify({ ...base, meta: { ...base.meta, name }, items }),
		name,
		total: items.length,
	};
}

/** Stored suite items of the app's database. */
async function storedItemCount(page: Page): Promise<number> {
	return page.evaluate(
		() =>
			new Promise<number>((resolve, reject) => {
				const open = indexedDB.open('benchtop');
				open.onerror = () => reject(open.error);
				open.onsuccess = () => {
					const request = open.result.transaction('runItems').objectStore('runItems').count();
					request.onerror = () => reject(request.error);
					request.onsuccess = () => {
						open.result.close();
						resolve(request.result);
					};
				};
			}),
	);
}

// The app's CSP forbids inline scripts, which is how axe is injected: bypassed here only.
test.use({ bypassCSP: true });

test('a battery shows per-suite progress app-wide and resumes as one entry after a reload', async ({
	page,
}) => {
	test.setTimeout(240_000);
	const long = longSuite();
	await page.goto('/#/battery');
	await page.getByTestId('battery-files').setInputFiles({
		name: 'long.json',
		mimeType: 'application/json',
		buffer: Buffer.from(long.text),
	});
	for (const suite of PICKED) {
		await page.getByRole('checkbox', { name: new RegExp(`^${suite.name}`) }).check();
	}
	await page.getByLabel('Bundled model (works offline)').selectOption(MODEL_ID);
	await page.getByRole('button', { name: 'Run battery' }).click();
	await expect
		.poll(() => storedItemCount(page), { timeout: 120_000, intervals: [50] })
		.toBeGreaterThanOrEqual(1);

	// Elsewhere in the app, the progress panel is the battery's: a bar per suite.
	await page.getByRole('link', { name: 'Library' }).click();
	const panel = page.getByRole('region', { name: 'Battery progress' });
	await expect(panel).toContainText(`Battery of 3 suites with ${MODEL_ID}`);
	const names = [long.name, ...PICKED.map((suite) => suite.name)];
	const totals = [long.total, ...PICKED.map((suite) => suite.items)];
	for (const [index, name] of names.entries()) {
		await expect(panel.getByRole('progressbar', { name })).toHaveAttribute(
			'aria-valuetext',
			new RegExp(`^\\d+ of ${totals[index]} items$`),
		);
	}
	const violations = await axeSummary(page, 'battery progress', { include: panel });
	await expect(panel.getByRole('button', { name: 'Cancel battery' })).toBeEnabled();
	await panel.getByRole('button', { name: 'Show battery' }).focus();
	await page.keyboard.press('Enter');
	await expect(page).toHaveURL(/#\/battery$/);
	// The Battery page shows the battery in full: the app-wide panel steps aside.
	await expect(panel).toHaveCount(0);

	await page.reload();
	const kept = await storedItemCount(page);
	const notice = page.getByRole('region', { name: 'Interrupted runs' });
	const total = totals.reduce((a, b) => a + b, 0);
	await expect(notice.getByRole('listitem')).toHaveCount(1);
	await expect(notice.getByRole('listitem')).toHaveText(
		new RegExp(`Battery of 3 suites with ${MODEL_ID}: ${kept}\\s+of ${total} items done`),
	);
	violations.push(...(await axeSummary(page, 'interrupted battery', { include: notice })));
	expect(violations).toEqual([]);

	await page.goto('/#/history');
	await notice.getByRole('button', { name: 'Resume battery' }).click();
	await expect(page).toHaveURL(/#\/battery$/);
	await expect
		.poll(() => storedItemCount(page), { timeout: 120_000, intervals: [50] })
		.toBeGreaterThan(kept);
	await expect(notice).toHaveCount(0);
	await page
		.getByTestId('battery-progress')
		.getByRole('button', { name: 'Cancel battery' })
		.click();
	await expect(page.getByRole('heading', { name: 'Battery cancelled' })).toBeVisible({
		timeout: 30_000,
	});
});
