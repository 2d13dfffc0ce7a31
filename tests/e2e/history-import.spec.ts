// History and run bundles (issue 28 items 2 and 8): a stored record with a time a date cannot hold
// no longer empties History (the other runs show; the bad one is listed apart and deletes), and a
// large bundle imports with progress (items stored of all), the list never saying "No runs yet"
// meanwhile, and a Cancel that leaves nothing stored.
import { expect, test, type Page } from '@playwright/test';
import { sha256Hex } from '../../src/core/hash/sha256';
import { SUITE_RUN_KIND } from '../../src/core/syntaxgym/suite-run-kind';

const SUITE_TEXT = '{"meta":{"name":"generated"}}\n';

/** A sealed suite run bundle of `count` items (one short sentence each). */
function bundleText(count: number, createdAt = 1_700_000_000_000): string {
	return SUITE_RUN_KIND.bundle.write({
		run: {
			suiteName: 'generated',
			suiteSha256: sha256Hex(SUITE_TEXT),
			model: { source: 'bundled', id: 'gpt2-random-tiny', dtype: 'fp32', backend: 'wasm' },
			convention: 'bos',
			itemCount: count,
			appVersion: 'test',
			createdAt,
			updatedAt: createdAt,
			status: 'done',
			scoringMs: 0,
			tokenCount: count * 2,
		},
		suiteText: SUITE_TEXT,
		items: Array.from({ length: count }, (_, index) => ({
			itemNumber: index + 1,
			sentences: [
				{
					conditionName: 'good',
					text: 'a b',
					tokens: [
						{ token: 'a', surprisalBits: 1.5, start: 0, end: 1 },
						{ token: 'Ġb', surprisalBits: index % 17, start: 1, end: 3 },
					],
				},
			],
		})),
	});
}

async function importFile(page: Page, name: string, text: string): Promise<void> {
	await page
		.getByTestId('history-import')
		.setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
}

test('a stored record with a bad date: History shows the other runs and deletes the bad one', async ({
	page,
}) => {
	await page.goto('/#/history');
	await importFile(page, 'one.json', bundleText(3));
	await expect(page).toHaveURL(/#\/results\/\d+$/);
	await page.goto('/#/history');
	await importFile(page, 'two.json', bundleText(4, 1_700_000_100_000));
	await expect(page).toHaveURL(/#\/results\/\d+$/);

	// As an older version (or an edit in the browser's storage) could leave it: 8.65e15 ms.
	await page.evaluate(
		() =>
			new Promise<void>((resolve, reject) => {
				const open = indexedDB.open('benchtop');
				open.onerror = () => reject(new Error('open failed'));
				open.onsuccess = () => {
					const tx = open.result.transaction('runs', 'readwrite');
					const runs = tx.objectStore('runs');
					const first = runs.get(1);
					first.onsuccess = () => {
						const { id: _id, ...row } = first.result as Record<string, unknown>;
						runs.add({ ...row, createdAt: 8.65e15 });
					};
					tx.oncomplete = () => {
						open.result.close();
						resolve();
					};
					tx.onerror = () => reject(new Error('write failed'));
				};
			}),
	);
	await page.goto('/#/history');
	await page.reload();
	await expect(page.locator('table.history tbody tr')).toHaveCount(2);
	const unreadable = page.getByTestId('unreadable-runs');
	await expect(unreadable).toContainText('Run 3: unreadable record');
	await expect(unreadable).toContainText('/createdAt');
	page.once('dialog', (dialog) => void dialog.accept());
	await page.getByRole('button', { name: 'Delete unreadable record 3' }).click();
	await expect(
		page.getByRole('status').filter({ hasText: 'Unreadable record 3 deleted.' }),
	).toBeVisible();
	await expect(unreadable).toHaveCount(0);
	await page.reload();
	await expect(page.locator('table.history tbody tr')).toHaveCount(2);
	await expect(page.getByTestId('unreadable-runs')).toHaveCount(0);
});

test('a 40,000-item bundle imports with progress and opens; a cancelled one leaves nothing', async ({
	page,
}) => {
	test.setTimeout(300_000);
	const text = bundleText(40_000);
	await page.goto('/#/history');
	await expect(page.getByText('No runs yet.')).toBeVisible();
	await importFile(page, 'big.json', text);
	// Over 1 MiB the bundle is read and checked in the parse worker first ("reading…"), then
	// stored with counts; under load the reading alone can pass 30 s, so cancel in either phase.
	const progress = page.getByTestId('import-progress');
	await expect(progress).toContainText(
		/Importing big\.json: (reading…|[\d,]+ of 40,000 items stored)/,
	);
	await expect(page.getByText('No runs yet.')).toHaveCount(0);
	await page.getByRole('button', { name: 'Cancel import' }).click();
	await expect(
		page
			.getByRole('status')
			.filter({ hasText: 'Import of big.json cancelled; nothing of it was stored.' }),
	).toBeVisible();
	await expect(page.getByText('No runs yet.')).toBeVisible();
	const stored = await page.evaluate(
		() =>
			new Promise<number>((resolve) => {
				const open = indexedDB.open('benchtop');
				open.onsuccess = () => {
					const count = open.result.transaction('runItems').objectStore('runItems').count();
					count.onsuccess = () => {
						resolve(count.result);
						open.result.close();
					};
				};
			}),
	);
	expect(stored).toBe(0);

	await importFile(page, 'big.json', text);
	await expect(page).toHaveURL(/#\/results\/\d+$/, { timeout: 120_000 });
	await page.goto('/#/history');
	await expect(page.locator('table.history tbody tr')).toHaveCount(1);
	await expect(page.locator('table.history tbody tr')).toContainText('40000/40000 items');
});
