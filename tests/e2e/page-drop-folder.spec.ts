// A folder dropped anywhere on the page (not on a drop zone) is read like the drop zones read it:
// every file with its path inside the folder (the entries API), then routed as a page drop is.
// A real drag from outside the page, through the DevTools protocol (Chromium builds the
// directory entries itself).
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';

/** Drags the folder at `path` from outside the page and drops it on the page header. */
async function dropFolderOnHeader(page: Page, path: string): Promise<void> {
	const box = await page.locator('header.app-header').boundingBox();
	if (!box) throw new Error('No page header.');
	const cdp = await page.context().newCDPSession(page);
	const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
	const data = { items: [], files: [resolve(path)], dragOperationsMask: 1 };
	for (const type of ['dragEnter', 'dragOver', 'drop'] as const) {
		await cdp.send('Input.dispatchDragEvent', { type, ...at, data });
	}
	await cdp.detach();
}

test('a registry folder dropped on the Evals page header loads with its paths', async ({
	page,
}) => {
	await page.goto('/#/evals');
	await expect(page.getByRole('list', { name: 'Bundled example evals' })).toBeVisible();
	await dropFolderOnHeader(page, 'tests/fixtures/evals-ui/registry');
	await expect(page).toHaveURL(/#\/evals$/);
	await expect(page.locator('.source-name')).toContainText('registry/evals/greetings.yaml');
	await page.getByLabel('Eval', { exact: true }).selectOption('greetings');
	await expect(page.getByText(/Picked greetings\.dev\.v0/)).toContainText('3 samples');
});

test('a definitions folder dropped on the Memory page header loads every test in it', async ({
	page,
}) => {
	await page.goto('/#/memory');
	await expect(page.getByRole('list', { name: 'Bundled example tests' })).toBeVisible();
	await dropFolderOnHeader(page, 'tests/fixtures/ltm/tiny-definitions');
	const loaded = page.getByRole('status').filter({ hasText: 'Loaded Tiny LTM fixture' });
	await expect(loaded).toContainText('3 tests from tiny-definitions/');
});

test('a folder of suites dropped on the Run page opens its suite', async ({ page }, testInfo) => {
	const folder = testInfo.outputPath('my-suites');
	const { mkdirSync, copyFileSync, writeFileSync } = await import('node:fs');
	mkdirSync(folder, { recursive: true });
	writeFileSync(`${folder}/README.txt`, 'Suites for the seminar.\n');
	copyFileSync('suites/subject-verb-agreement-pp.json', `${folder}/agreement.json`);
	await page.goto('/');
	await dropFolderOnHeader(page, folder);
	await expect(
		page.getByRole('heading', { name: 'Subject-verb agreement across a prepositional phrase' }),
	).toBeVisible();
});

test('a folder dropped on the Battery page adds its suites there, and picks survive a visit elsewhere', async ({
	page,
}, testInfo) => {
	const folder = testInfo.outputPath('battery-suites');
	const { mkdirSync, readFileSync, writeFileSync } = await import('node:fs');
	mkdirSync(folder, { recursive: true });
	// Suites of their own (not copies of bundled ones, which are listed once, as bundled).
	for (const [file, name, out] of [
		['garden-path-npz.json', 'Garden path, my copy', 'a.json'],
		['npi-licensing-ever.json', 'NPI, my copy', 'b.json'],
	] as const) {
		const suite = JSON.parse(readFileSync(`suites/${file}`, 'utf8')) as { meta: { name: string } };
		suite.meta.name = name;
		writeFileSync(`${folder}/${out}`, JSON.stringify(suite));
	}
	await page.goto('/#/battery');
	await expect(page.getByRole('heading', { name: 'Battery', exact: true })).toBeVisible();
	await dropFolderOnHeader(page, folder);
	await expect(page).toHaveURL(/#\/battery$/);
	const added = page.getByRole('list', { name: 'Added files' });
	for (const name of [/^Garden path, my copy/, /^NPI, my copy/]) {
		await expect(added.getByRole('checkbox', { name })).toBeChecked();
	}
	await expect(page.getByTestId('battery-totals')).toHaveText(/^2 suites picked/);

	await page.getByRole('link', { name: 'Library' }).click();
	await page.getByRole('link', { name: 'Battery', exact: true }).click();
	await expect(added.getByRole('checkbox', { name: /^NPI, my copy/ })).toBeChecked();
	await expect(page.getByTestId('battery-totals')).toHaveText(/^2 suites picked/);
});
