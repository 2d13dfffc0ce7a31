// axe-core 4.x on every view of the built app (run, results, item drill-down, history, compare,
// editor, share, glossary), light and dark theme: 0 violations. Also the keyboard details axe
// cannot see: a picked suite card keeps the focus, token labels contain the visible numbers.
import { expect, test, type Page } from '@playwright/test';
import { axeSummary } from './axe';

async function expectNoViolations(page: Page, view: string): Promise<void> {
	expect.soft(await axeSummary(page, view)).toEqual([]);
}

// The app's CSP forbids inline scripts, which is how Playwright injects axe: bypass it here only.
test.use({ bypassCSP: true });

const progress = (page: Page) => page.getByRole('region', { name: 'Run progress' });

for (const theme of ['light', 'dark'] as const) {
	test(`every view has no axe violations (${theme} theme)`, async ({ page }) => {
		await page.emulateMedia({ colorScheme: theme });
		await page.goto('/');
		await expect(page.getByRole('heading', { name: 'Bundled suites' })).toBeVisible();
		await expectNoViolations(page, 'run (empty)');

		const card = page.getByRole('button', { name: /Garden path: NP\/Z/ });
		await card.focus();
		await page.keyboard.press('Enter');
		await expect(page.getByRole('heading', { name: /Garden path: NP\/Z/ })).toBeVisible();
		// The picked card keeps the keyboard focus (it is not disabled while the suite is read).
		await expect(card).toBeFocused();
		await expect(card).toHaveAttribute('aria-pressed', 'true');
		await page.getByLabel('Bundled model (works offline)').selectOption('gpt2-random-tiny');
		await expectNoViolations(page, 'run (suite picked)');

		await page.getByRole('button', { name: 'Run suite' }).click();
		await expect(progress(page).getByText('16 / 16 items')).toBeVisible({ timeout: 120_000 });
		await expect(page.getByRole('heading', { name: 'Accuracy', exact: true })).toBeVisible();
		await expectNoViolations(page, 'results');

		await page.getByRole('link', { name: 'Item 1: token surprisals' }).click();
		await expect(page.getByRole('heading', { name: 'Item 1: surprisal per token' })).toBeVisible();
		await expectNoViolations(page, 'item drill-down');
		// Token names say what is shown (the text and the value to one decimal), not 15 digits.
		const labels = await page
			.locator('[data-token]')
			.evaluateAll((tokens) => tokens.map((token) => token.getAttribute('aria-label') ?? ''));
		expect(labels.length).toBeGreaterThan(10);
		for (const label of labels) expect(label).toMatch(/^\S+ (\d+\.\d|∞) bits$/);

		await page.getByRole('button', { name: 'Share link' }).click();
		const url = await page.getByTestId('share-url').inputValue();

		await page.getByRole('link', { name: 'Library' }).click();
		await expect(page.getByRole('heading', { name: 'Browser storage' })).toBeVisible();
		await expectNoViolations(page, 'history');

		await page.getByRole('link', { name: 'Compare' }).click();
		await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
		await expectNoViolations(page, 'compare');

		await page.getByRole('link', { name: 'Editor' }).click();
		await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
		await expectNoViolations(page, 'editor');

		await page.getByRole('link', { name: 'Glossary' }).click();
		await expect(page.getByRole('heading', { name: 'Words explained' })).toBeVisible();
		await expectNoViolations(page, 'glossary');

		// A `?` tip opens in place, says the word in one sentence, and links to the glossary.
		await page.getByRole('link', { name: 'Run', exact: true }).click();
		const tip = page.getByRole('button', { name: 'What is surprisal?' }).first();
		await tip.click();
		await expect(tip).toHaveAttribute('aria-expanded', 'true');
		await expect(page.getByText('How unexpected a word is for the model').first()).toBeVisible();
		await expectNoViolations(page, 'run (tip open)');

		await page.goto(url);
		await expect(page.getByTestId('share-suite')).toBeVisible();
		await expectNoViolations(page, 'share');
	});
}
