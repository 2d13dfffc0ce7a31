// Small things a first hour stumbles on (issue 30, item 9), in the browser: at 1280 × 900 the
// sticky Run bar leaves the suite drop zone uncovered once a suite is open.
import { expect, test } from '@playwright/test';

test('1280 × 900: the sticky Run bar does not cover the drop zone once a suite is open', async ({
	page,
}) => {
	await page.setViewportSize({ width: 1280, height: 900 });
	await page.goto('/');
	await page.getByRole('button', { name: /Garden path: NP\/Z/ }).click();
	await expect(page.getByRole('heading', { name: /Garden path: NP\/Z/ })).toBeVisible();
	const bar = page.getByTestId('run-bar');
	await expect(bar).toHaveCSS('position', 'sticky');
	await expect(page.getByRole('button', { name: 'Run suite' })).toBeInViewport();
	const dropZone = await page.getByRole('button', { name: /^Drop a suite/ }).boundingBox();
	const barBox = await bar.boundingBox();
	if (!dropZone || !barBox) throw new Error('no drop zone or Run bar on the page');
	console.log(
		`drop zone ${Math.round(dropZone.y)}–${Math.round(dropZone.y + dropZone.height)} px, Run bar from ${Math.round(barBox.y)} px`,
	);
	expect(dropZone.y + dropZone.height).toBeLessThanOrEqual(barBox.y);
});
