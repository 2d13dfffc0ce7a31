// axe-core on every page state a user reaches, at 1280 and 390 px wide, in the light and the dark
// theme: Run (empty, suite picked), results, item drill-down, a suite link, History, Compare,
// Editor, Glossary, Explore, Battery (empty, suites picked, done), the matrix of a battery, of two
// batteries (two model columns and their McNemar table) and its empty state, a battery link, Evals
// and Memory with their examples and with a run (played back from replay files, no model), and
// History filled: suite runs and response-cache entries. Each state's number of violated rules is
// printed (one line, `axe sweep: {...}`) and must be 0. Evals and Memory comparisons are swept in
// newcomer.spec.ts, a running battery in run-progress-battery.spec.ts.
import { expect, test, type Page } from '@playwright/test';
import { axeSummaryInBothThemes } from './axe';

test.use({ bypassCSP: true });

const MODEL_ID = 'gpt2-random-tiny';
const MEMORY_REPLAY = 'tests/fixtures/memory-ui/classroom-agent.replay.jsonl';
const WIDTHS = [
	{ width: 1280, height: 800 },
	{ width: 390, height: 844 },
] as const;

class Sweep {
	readonly counts: Record<string, number> = {};
	readonly problems: string[] = [];

	constructor(private readonly page: Page) {}

	/**
	 * axe at each width, light and dark, on the page as it is; the width goes back to 1280 and
	 * the theme to light after.
	 */
	async check(state: string): Promise<void> {
		for (const size of WIDTHS) {
			await this.page.setViewportSize(size);
			const lines = await axeSummaryInBothThemes(this.page, `${state} @${size.width}`);
			this.counts[`${state} @${size.width}`] = lines.length;
			this.problems.push(...lines);
		}
		await this.page.setViewportSize(WIDTHS[0]);
		await this.page.emulateMedia({ colorScheme: 'light' });
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
		['Library', 'history'],
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
	// The same battery under another convention: a second model column and the McNemar table.
	const firstMatrix = new URL(page.url()).hash;
	await page.goto('/#/battery');
	await box(/^Subject-verb agreement across a prepositional phrase/).check();
	await box(new RegExp(`^${escape("NPI licensing: 'ever' under negation")}`)).check();
	await page.getByLabel('Bundled model (works offline)').selectOption(MODEL_ID);
	await page.getByLabel('Surprisal convention').selectOption('reference');
	await page.getByRole('button', { name: 'Run battery' }).click();
	const secondMatrix = page.locator(
		`[data-testid="battery-matrix-link"]:not([href="${firstMatrix}"])`,
	);
	await expect(secondMatrix).toBeVisible({ timeout: 120_000 });
	await expect(page.getByRole('heading', { name: 'Battery done' })).toBeVisible();
	await secondMatrix.click();
	const matrix = page.getByRole('table', { name: 'Item accuracy per suite and model' });
	await expect(matrix.locator('thead th')).toHaveCount(3);
	await expect(page.getByRole('table', { name: /McNemar tests of/ })).toBeVisible();
	await sweep.check('matrix (two models)');
	await page.goto(link);
	await expect(page.getByRole('heading', { name: 'Shared battery' })).toBeVisible();
	await sweep.check('battery link');
	await page.goto('/#/matrix?runs=999999');
	await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
	await sweep.check('matrix (no runs)');
}

/** An Evals run (bundled `capitals`, answers from a replay file) and a Memory run, both shown. */
async function filledTaskPages(page: Page, sweep: Sweep): Promise<void> {
	await page.goto('/#/evals');
	await expect(page.getByRole('list', { name: 'Bundled example evals' })).toBeVisible();
	await page
		.getByRole('button', { name: /^capitals\b/ })
		.first()
		.click();
	await expect(page.getByText(/Picked capitals\.test\.v1/)).toBeVisible();
	await page.getByRole('group', { name: 'Model under test' }).getByLabel('Replay file').check();
	await page.getByTestId('policy-replay').setInputFiles({
		name: 'answers.replay.jsonl',
		mimeType: 'application/jsonl',
		buffer: Buffer.from(`${JSON.stringify({ when: '', completion: ' Paris' })}\n`),
	});
	await page.getByRole('button', { name: 'Run eval' }).click();
	await expect(page.getByTestId('evals-metrics')).toBeVisible({ timeout: 60_000 });
	await sweep.check('evals (run)');

	await page.goto('/#/memory');
	await page.getByRole('button', { name: /^Classroom basics/ }).click();
	await expect(page.getByText(/Loaded Classroom basics: 5 tests/)).toBeVisible();
	await page.getByRole('group', { name: 'Agent' }).getByLabel('Replay file').check();
	await page.getByTestId('policy-replay').setInputFiles(MEMORY_REPLAY);
	await page.getByRole('button', { name: 'Run tests' }).click();
	await expect(page.getByTestId('memory-progress')).toContainText('done', { timeout: 60_000 });
	await sweep.check('memory (run)');

	// History with suite and battery runs, and the Evals run's completions in the response cache.
	await page.goto('/#/history');
	await expect(page.getByTestId('response-cache-size')).not.toContainText(/^0 cached/);
	await expect(page.getByTestId('response-cache').getByRole('table')).toBeVisible();
	await sweep.check('history (runs, response cache)');
}

test('every page state has no axe violations at 1280 and 390 px, light and dark', async ({
	page,
}) => {
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
	await filledTaskPages(page, sweep);

	console.log(`axe sweep: ${JSON.stringify(sweep.counts)}`);
	expect(Object.keys(sweep.counts)).toHaveLength(2 * 22);
	expect(sweep.problems).toEqual([]);
});
