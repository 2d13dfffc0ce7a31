// Share links in the built app with the REAL engine and the bundled gpt2-random-tiny: a run of a
// bundled suite is shared, the link opened in a fresh tab reproduces it exactly; corrupted or
// cut-off links give a clear message and render nothing from the link.
import { expect, test, type Page } from '@playwright/test';

const progress = (page: Page) => page.getByRole('region', { name: 'Run progress' });

async function runBundledSuite(page: Page, name: RegExp, items: number): Promise<void> {
	await page.goto('/');
	await page.getByRole('button', { name }).click();
	await page.getByLabel('Bundled model (works offline)').selectOption('gpt2-random-tiny');
	await page.getByRole('button', { name: 'Run suite' }).click();
	await expect(progress(page).getByText(`${items} / ${items} items`)).toBeVisible({
		timeout: 120_000,
	});
	await expect(progress(page).getByRole('status')).toHaveText('Done');
}

test('a shared run of a bundled suite reproduces exactly', async ({ page, context }) => {
	await runBundledSuite(page, /Garden path: NP\/Z/, 16);
	await page.getByRole('button', { name: 'Share link' }).click();
	const url = await page.getByTestId('share-url').inputValue();
	expect(url).toMatch(/#\/share\/2\/[A-Za-z0-9_-]+$/);
	const fragmentChars = url.length - url.indexOf('#') - 1;
	console.log(`share link for garden-path-npz.json: ${fragmentChars} characters (fragment)`);
	// The count shown is of what was copied: the whole link.
	await expect(page.getByText(`(${url.length} characters`)).toBeVisible();

	const opened = await context.newPage();
	await opened.goto(url);
	await expect(opened.getByTestId('share-suite')).toContainText(
		'Garden path: NP/Z ambiguity with and without a comma (16 items, 2 conditions, 1 prediction)',
	);
	await expect(opened.getByTestId('share-model')).toContainText('gpt2-random-tiny (bundled');
	// The sharer's numbers are shown before any re-run, equal to the original results page.
	const original = (
		await page.getByTestId('prediction-accuracy').locator('tbody td.number').allTextContents()
	).map((text) => text.trim());
	const shared = (
		await opened.getByTestId('shared-accuracy').locator('tbody td.number').allTextContents()
	).map((text) => text.trim());
	expect(shared).toEqual(original);
	await opened.getByRole('button', { name: 'Run to reproduce' }).click();
	await expect(opened.getByTestId('share-comparison')).toHaveText(
		/Reproduced:\s+16\/16 item outcomes identical, max region difference 0 bits/,
		{ timeout: 120_000 },
	);
	await expect(opened.getByTestId('share-differing-items')).toHaveCount(0);
});

test('a corrupted or cut-off link gives a clear message', async ({ page }) => {
	await runBundledSuite(page, /Center embedding/, 16);
	await page.getByRole('button', { name: 'Share link' }).click();
	const url = await page.getByTestId('share-url').inputValue();
	const hash = url.indexOf('#');
	const data = url.slice(hash);
	const middle = Math.floor(data.length / 2);
	const flipped = `${data.slice(0, middle)}${data[middle] === 'A' ? 'B' : 'A'}${data.slice(middle + 1)}`;

	const cases: [string, RegExp][] = [
		[flipped, /changed or damaged: its checksum does not match/],
		[data.slice(0, middle), /cut off/],
		['#/share/9/AAAA', /newer version of Benchtop/],
		['#/share/1/<img src=x onerror=alert(1)>', /damaged/],
	];
	for (const [fragment, message] of cases) {
		await page.goto(`/${fragment}`);
		await page.reload();
		await expect(page.getByTestId('share-error')).toHaveText(message);
		await expect(page.locator('img')).toHaveCount(0);
		await expect(page.getByRole('button', { name: 'Run to reproduce' })).toHaveCount(0);
	}
});
