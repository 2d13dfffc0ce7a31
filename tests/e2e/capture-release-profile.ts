// Captures tests/fixtures/release-profile/: a browser profile filled by a released build, used as
// a user would (a finished and an interrupted suite run, two Evals runs with cached answers, an
// interrupted Memory run), its IndexedDB `benchtop` dumped to JSON with the counts it holds.
//
// Re-run (not a spec: Playwright's testDir does not pick it up), for the release at commit C:
//   git worktree add /tmp/release C && ln -s "$PWD/node_modules" /tmp/release/node_modules
//   (cd /tmp/release && npx vite build --outDir dist-release &&
//    npx vite preview --host 127.0.0.1 --port 4196 --strictPort --outDir dist-release) &
//   RELEASE_COMMIT=C RELEASE_URL=http://127.0.0.1:4196 npx tsx tests/e2e/capture-release-profile.ts
//   git worktree remove --force /tmp/release
import { readFileSync } from 'node:fs';
import { expect as playwrightExpect, type Page } from '@playwright/test';
import {
	capturePage,
	dropFile,
	launchCaptureBrowser,
	storeSize,
	writeProfile,
} from './profile-capture';

/** Outside the test runner, expect waits 5 s by default: too short for a busy machine. */
const expect = playwrightExpect.configure({ timeout: 30_000 });
const BASE_URL = process.env.RELEASE_URL ?? 'http://127.0.0.1:4196';
const OUT_DIR = 'tests/fixtures/release-profile';
/** The finished suite run: a small bundled suite on the quick random model. */
const FINISHED_SUITE = /^Garden path: NP\/Z ambiguity/;
/** The interrupted run: the bundled NP/Z suite repeated, long enough for a reload to land. */
const LONG_SUITE_COPIES = 3;
/** Items the interrupted run stores before the reload. */
const ITEMS_BEFORE_RELOAD = 3;

const progress = (page: Page) => page.getByRole('region', { name: 'Run progress' });

async function finishedSuiteRun(page: Page): Promise<void> {
	await page.goto('/');
	await page.getByRole('button', { name: FINISHED_SUITE }).click();
	await page.getByLabel('Bundled model (works offline)').selectOption('gpt2-random-tiny');
	await page.getByRole('button', { name: 'Run suite' }).click();
	await expect(progress(page).getByText('16 / 16 items')).toBeVisible({ timeout: 120_000 });
	await expect(progress(page).getByRole('status')).toHaveText('Done');
}

async function interruptedSuiteRun(page: Page): Promise<void> {
	const base = JSON.parse(readFileSync('suites/garden-path-npz.json', 'utf8')) as {
		meta: { name: string };
		items: { item_number: number }[];
	};
	const items = Array.from({ length: LONG_SUITE_COPIES }, (_, copy) =>
		base.items.map((item, index) => ({ ...item, item_number: copy * 100 + index + 1 })),
	).flat();
	const suite = { ...base, meta: { ...base.meta, name: 'Long garden path' }, items };
	await page.goto('/');
	await dropFile(page, 'long-garden-path.json', JSON.stringify(suite));
	await expect(page.getByRole('heading', { name: 'Long garden path' })).toBeVisible();
	const before = await storeSize(page, 'itemResults');
	await page.getByLabel('Bundled model (works offline)').selectOption('gpt2-en-small');
	await page.getByRole('button', { name: 'Run suite' }).click();
	await expect
		.poll(async () => (await storeSize(page, 'itemResults')) - before, {
			timeout: 120_000,
			intervals: [20],
		})
		.toBeGreaterThanOrEqual(ITEMS_BEFORE_RELOAD);
	await page.reload();
	await expect(page.getByRole('heading', { name: 'Interrupted runs' })).toBeVisible();
	const kept = (await storeSize(page, 'itemResults')) - before;
	if (kept >= items.length) throw new Error('the long suite finished before the reload landed');
}

async function evalsRun(page: Page, card: RegExp, samples: number): Promise<void> {
	await page.getByRole('button', { name: card }).first().click();
	const params = page.locator('table.params').first();
	await params.getByLabel('Max new tokens').fill('6');
	await page.getByRole('button', { name: 'Run eval' }).click();
	await expect(page.getByTestId('evals-progress')).toContainText(
		`${samples} of ${samples} samples`,
		{ timeout: 120_000 },
	);
	await expect(page.getByTestId('evals-metrics')).toBeVisible();
}

async function evalsRuns(page: Page): Promise<void> {
	await page.goto('/#/evals');
	await expect(page.getByRole('list', { name: 'Bundled example evals' })).toBeVisible();
	await evalsRun(page, /^capitals\b/, 12);
	await evalsRun(page, /^animal-sounds\b/, 10);
}

async function interruptedMemoryRun(page: Page): Promise<void> {
	await page.goto('/#/memory');
	await expect(page.getByRole('list', { name: 'Bundled example tests' })).toBeVisible();
	await page.getByRole('button', { name: /^Classroom basics/ }).click();
	await expect(page.getByText(/Loaded Classroom basics: 5 tests/)).toBeVisible();
	await page.getByRole('button', { name: 'Run tests' }).click();
	await expect(
		page.getByTestId('memory-conversation').locator('.message.agent:not(.live)').nth(3),
	).toBeVisible({ timeout: 120_000 });
	await page.reload();
	await expect(page.getByRole('status').filter({ hasText: 'stopped' })).toContainText(
		'Classroom basics',
	);
}

async function main(): Promise<void> {
	const commit = process.env.RELEASE_COMMIT;
	if (!commit) throw new Error('set RELEASE_COMMIT to the release commit being captured');
	const browser = await launchCaptureBrowser();
	try {
		const page = await capturePage(browser, BASE_URL);
		await finishedSuiteRun(page);
		await interruptedSuiteRun(page);
		await evalsRuns(page);
		await interruptedMemoryRun(page);
		await writeProfile(page, commit, OUT_DIR);
	} finally {
		await browser.close();
	}
}

await main();
