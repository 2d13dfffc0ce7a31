// Captures tests/fixtures/every-kind-profile/: a browser profile filled by a released build with
// a run of every kind it knows, used as a user would (suite runs finished and interrupted, a
// battery, an Evals run with cached answers, an interrupted Memory run, Stimuli runs finished and
// interrupted), its IndexedDB `benchtop` dumped to JSON with the counts it holds.
//
// Re-run (not a spec: Playwright's testDir does not pick it up), for the release at commit C:
//   git worktree add /tmp/release C && ln -s "$PWD/node_modules" /tmp/release/node_modules
//   (cd /tmp/release && npx vite build --outDir dist-release &&
//    npx vite preview --host 127.0.0.1 --port 4196 --strictPort --outDir dist-release) &
//   RELEASE_COMMIT=C RELEASE_URL=http://127.0.0.1:4196 npx tsx tests/e2e/capture-every-kind-profile.ts
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
const OUT_DIR = 'tests/fixtures/every-kind-profile';
const QUICK_MODEL = 'gpt2-random-tiny';
/** The battery's suites (bundled). */
const BATTERY_FILES = ['subject-verb-agreement-pp.json', 'npi-licensing-ever.json'];
/** Suite items, and Stimuli chunks, stored before a reload interrupts a run. */
const STORED_BEFORE_RELOAD = 3;

const suiteName = (file: string) =>
	(JSON.parse(readFileSync(`suites/${file}`, 'utf8')) as { meta: { name: string } }).meta.name;
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const progress = (page: Page) => page.getByRole('region', { name: 'Run progress' });

async function finishedSuiteRun(page: Page): Promise<void> {
	await page.goto('/');
	await page.getByRole('button', { name: /^Garden path: NP\/Z ambiguity/ }).click();
	await page.getByLabel('Bundled model (works offline)').selectOption(QUICK_MODEL);
	await page.getByRole('button', { name: 'Run suite' }).click();
	await expect(progress(page).getByText('16 / 16 items')).toBeVisible({ timeout: 120_000 });
	await expect(progress(page).getByRole('status')).toHaveText('Done');
}

/** Waits until `store` holds `count` more rows than `before`, then reloads the page. */
async function reloadAfterRows(page: Page, store: string, before: number): Promise<number> {
	await expect
		.poll(async () => (await storeSize(page, store)) - before, {
			timeout: 120_000,
			intervals: [20],
		})
		.toBeGreaterThanOrEqual(STORED_BEFORE_RELOAD);
	await page.reload();
	return (await storeSize(page, store)) - before;
}

async function interruptedSuiteRun(page: Page): Promise<void> {
	const base = JSON.parse(readFileSync('suites/garden-path-npz.json', 'utf8')) as {
		meta: { name: string };
		items: { item_number: number }[];
	};
	const items = [0, 1, 2]
		.map((copy) =>
			base.items.map((item, index) => ({ ...item, item_number: copy * 100 + index + 1 })),
		)
		.flat();
	const suite = { ...base, meta: { ...base.meta, name: 'Long garden path' }, items };
	await page.goto('/');
	await dropFile(page, 'long-garden-path.json', JSON.stringify(suite));
	await expect(page.getByRole('heading', { name: 'Long garden path' })).toBeVisible();
	await page.getByLabel('Bundled model (works offline)').selectOption('gpt2-en-small');
	const before = await storeSize(page, 'runItems');
	await page.getByRole('button', { name: 'Run suite' }).click();
	const kept = await reloadAfterRows(page, 'runItems', before);
	await expect(page.getByRole('heading', { name: 'Interrupted runs' })).toBeVisible();
	if (kept >= items.length) throw new Error('the long suite finished before the reload landed');
}

async function batteryRun(page: Page): Promise<void> {
	await page.goto('/#/battery');
	await expect(page.getByRole('heading', { name: 'Battery', exact: true })).toBeVisible();
	for (const file of BATTERY_FILES) {
		await page.getByRole('checkbox', { name: new RegExp(`^${escaped(suiteName(file))}`) }).check();
	}
	await page.getByLabel('Bundled model (works offline)').selectOption(QUICK_MODEL);
	await page.getByRole('button', { name: 'Run battery' }).click();
	await expect(page.getByRole('heading', { name: 'Battery done' })).toBeVisible({
		timeout: 180_000,
	});
}

async function evalsRun(page: Page): Promise<void> {
	await page.goto('/#/evals');
	await expect(page.getByRole('list', { name: 'Bundled example evals' })).toBeVisible();
	await page
		.getByRole('button', { name: /^capitals\b/ })
		.first()
		.click();
	await page.locator('table.params').first().getByLabel('Max new tokens').fill('6');
	await page.getByRole('button', { name: 'Run eval' }).click();
	await expect(page.getByTestId('evals-progress')).toContainText('12 of 12 samples', {
		timeout: 180_000,
	});
	await expect(page.getByTestId('evals-metrics')).toBeVisible();
}

async function interruptedMemoryRun(page: Page): Promise<void> {
	await page.goto('/#/memory');
	await expect(page.getByRole('list', { name: 'Bundled example tests' })).toBeVisible();
	await page.getByRole('button', { name: /^Classroom basics/ }).click();
	await expect(page.getByText(/Loaded Classroom basics: 5 tests/)).toBeVisible();
	await page
		.getByRole('group', { name: 'Agent' })
		.getByLabel('Model', { exact: true })
		.selectOption(QUICK_MODEL);
	await page.getByRole('button', { name: 'Run tests' }).click();
	await expect(
		page.getByTestId('memory-conversation').locator('.message.agent:not(.live)').nth(3),
	).toBeVisible({ timeout: 120_000 });
	await page.reload();
	await expect(page.getByRole('status').filter({ hasText: 'stopped' })).toContainText(
		'Classroom basics',
	);
}

async function finishedStimuliRun(page: Page): Promise<void> {
	await page.goto('/#/stimuli');
	await page.getByRole('button', { name: 'garden-path-reading.csv' }).click();
	await page.getByRole('button', { name: 'Score words' }).click();
	await expect(page.getByTestId('stimuli-progress')).toContainText('106 of 106 words', {
		timeout: 120_000,
	});
}

async function interruptedStimuliRun(page: Page): Promise<void> {
	const lines = ['id,sentence'];
	for (let i = 1; i <= 400; i += 1) {
		lines.push(`${i},Sentence number ${i} is read by the model once and only once.`);
	}
	await page.goto('/#/stimuli');
	await page.getByTestId('stimuli-file').setInputFiles({
		name: 'many.csv',
		mimeType: 'text/csv',
		buffer: Buffer.from(`${lines.join('\n')}\n`),
	});
	await expect(page.getByTestId('stimuli-word-count')).toContainText('4800 words to score');
	const before = await storeSize(page, 'runItems');
	await page.getByRole('button', { name: 'Score words' }).click();
	await expect(page.getByTestId('stimuli-progress')).toContainText(/[1-9]\d* of 4800 words/, {
		timeout: 120_000,
	});
	await page.reload();
	const kept = (await storeSize(page, 'runItems')) - before;
	if (kept === 0) throw new Error('the Stimuli run stored nothing before the reload');
	await expect(page.getByRole('button', { name: /^Resume/ }).first()).toBeVisible();
}

async function main(): Promise<void> {
	const commit = process.env.RELEASE_COMMIT;
	if (!commit) throw new Error('set RELEASE_COMMIT to the release commit being captured');
	const browser = await launchCaptureBrowser();
	try {
		const page = await capturePage(browser, BASE_URL);
		await finishedSuiteRun(page);
		await interruptedSuiteRun(page);
		await batteryRun(page);
		await evalsRun(page);
		await interruptedMemoryRun(page);
		await finishedStimuliRun(page);
		await interruptedStimuliRun(page);
		await writeProfile(page, commit, OUT_DIR);
	} finally {
		await browser.close();
	}
}

await main();
