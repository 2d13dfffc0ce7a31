import { expect, test } from '@playwright/test';

test('the app shell loads and is cross-origin isolated', async ({ page }) => {
	await page.goto('/');
	await expect(page.getByRole('heading', { name: 'Benchtop' })).toBeVisible();
	expect(await page.evaluate(() => self.crossOriginIsolated)).toBe(true);
});
