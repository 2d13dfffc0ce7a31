// axe-core on every page state a user reaches, at 1280 and 390 px wide: Run (empty, suite picked),
// results, item drill-down, a suite link, History, Compare, Editor, Glossary, Explore, Battery
// (empty, suites picked, done), the matrix of a battery and its empty state, a battery link, Evals
// and Memory with their examples. Each state's number of violated rules is printed (one line,
// `axe sweep: {...}`) and must be 0. Evals and Memory results and comparisons are swept in
// newcomer.spec.ts, a running battery in run-progress-battery.spec.ts.
import { expect, test, type Page } from '@playwright/test';
import { axeSummary } from './axe';

test.use({ bypassCSP: true });

const MODEL_ID = 'gpt2-random-tiny';
const WIDTHS = [
	{ width: 1280, height: 800 },
	{ width: 390, height: 844 },
] as const;

class Sweep {
	readonly counts: Record<string, number> = {};
	readonly problems: string[] = [];

	constructor(private readonly page: Page) {}

	/** axe at each width on the page as it is; the width goes back to 1280 after. */
	async check(state: string): Promise<void> {
		for (const size of WIDTHS) {
			await this.page.setViewportSize(size);
			const lines = await axeSummary(this.page, `${state} @${size.width}`);
			this.counts[`${state} @${size.width}`] = lines.length;
			this.problems.push(...lines);
		}
		await this.page.setViewportSize(WIDTHS[0]);
	}
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

async function suitePages(page: Page, sweep: Sweep): Promise<string> {
	await page.goto('/');
	await expect(page.getByRole('heading', { name: 'Bundled suites' })).toBeVisible();
	await sweep.check('run (empty)');
	await page.getByRole('button', { name: /Garden path: NP\/Z/ }).click();
	await expect(page.getByRole('heading', { name: /Garden path: NP\/Z/ })).toBeVisible();
	await page.getByLabel('Bundled model (works offline)').selectOption(MODEL_ID);
	await sweep.check('run (suite picked)');
	await page.getByRole('button', { name: 'Run suite' }).click();
	await expect(page.getByRole('heading', { name: 'Accuracy', exact: true })).toBeVisible({
		timeout: 120_000,
	});
	await expect(page.getByTestId('results-status')).toContainText('Done', { timeout: 120_000 });
	await sweep.check('results');
	await page.getByRole('button', { name: 'Share link' }).click();
	const url = await page.getByTestId('share-url').inputValue();
	await page.getByRole('link', { name: 'Item 1: token surprisals' }).click();
	await expect(page.getByRole('heading', { name: 'Item 1: surprisal per token' })).toBeVisible();
	await sweep.check('item drill-down');
	for (const [link, state] of [
		['History', 'history'],
		['Compare', 'compare'],
		['Editor', 'editor'],
		['Glossary', 'glossary'],
		['Explore', 'explore'],
	] as const) {
		await page.getByRole('link', { name: link, exact: true }).click();
		await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
		await sweep.check(state);
	}
	return url;
}

async function batteryPages(page: Page, sweep: Sweep): Promise<void> {
	await page.goto('/#/battery');
	await expect(page.getByRole('heading', { name: 'Battery', exact: true })).toBeVisible();
	const box = (name: RegExp) => page.getByRole('checkbox', { name });
	await expect(box(/^Subject-verb agreement across a prepositional phrase/)).toBeVisible();
	await sweep.check('battery (empty)');
	await box(/^Subject-verb agreement across a prepositional phrase/).check();
	await box(new RegExp(`^${escape("NPI licensing: 'ever' under negation")}`)).check();
	await page.getByLabel('Bundled model (works offline)').selectOption(MODEL_ID);
	await sweep.check('battery (suites picked)');
	await page.getByRole('button', { name: 'Run battery' }).click();
	await expect(page.getByRole('heading', { name: 'Battery done' })).toBeVisible({
		timeout: 120_000,
	});
	await sweep.check('battery (done)');
	await page.getByRole('link', { name: 'Open the matrix' }).click();
	await expect(
		page.getByRole('table', { name: 'Item accuracy per suite and model' }),
	).toBeVisible();
	await sweep.check('matrix (battery)');
	await page.getByRole('button', { name: 'Share link' }).click();
	const link = await page.getByTestId('battery-share-url').inputValue();
	await page.goto(link);
	await expect(page.getByRole('heading', { name: 'Shared battery' })).toBeVisible();
	await sweep.check('battery link');
	await page.goto('/#/matrix?runs=999999');
	await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
	await sweep.check('matrix (no runs)');
}

test('every page state has no axe violations at 1280 and 390 px', async ({ page }) => {
	test.setTimeout(600_000);
	const sweep = new Sweep(page);
	const suiteLink = await suitePages(page, sweep);
	await batteryPages(page, sweep);

	await page.goto(suiteLink);
	await expect(page.getByTestId('share-suite')).toBeVisible();
	await sweep.check('suite link');
	await page.goto('/#/evals');
	await expect(page.getByRole('list', { name: 'Bundled example evals' })).toBeVisible();
	await sweep.check('evals (examples)');
	await page.goto('/#/memory');
	await expect(page.getByRole('heading', { name: 'Memory', level: 2 })).toBeVisible();
	await sweep.check('memory (examples)');

	console.log(`axe sweep: ${JSON.stringify(sweep.counts)}`);
	expect(Object.keys(sweep.counts)).toHaveLength(36);
	expect(sweep.problems).toEqual([]);
});
