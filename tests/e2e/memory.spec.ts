// The Memory page end to end in Chromium: a bundled example run on a replay agent (meaningful
// scores: per test and overall, result files exported), on the bundled gpt2-random-tiny with a
// reload mid-run and a resume, a broken ltm-suite.json with its error located (a regex that
// needs backtracking too: refused at load, RE2 runs in the tab), no axe
// violations, keyboard access to the run, and no sideways scrolling on a 360 px phone; an agent
// behind our own `serve` (gpt2-random-tiny, started by the test on a free port).
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { startServeProcess, type ServeProcess } from './serve-process';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { axeSummary } from './axe';

const REPLAY = 'tests/fixtures/memory-ui/classroom-agent.replay.jsonl';

// The app's CSP forbids inline scripts, which is how Playwright injects axe: bypass it here only.
test.use({ bypassCSP: true });

async function openMemory(page: Page): Promise<void> {
	await page.goto('/#/memory');
	await expect(page.getByRole('heading', { name: 'Memory', level: 2 })).toBeVisible();
	await expect(page.getByRole('list', { name: 'Bundled example tests' })).toBeVisible();
}

async function pickExample(page: Page): Promise<void> {
	await page.getByRole('button', { name: /^Classroom basics/ }).click();
	await expect(page.getByText(/Loaded Classroom basics: 5 tests/)).toBeVisible();
}

async function sidewaysScroll(page: Page): Promise<number> {
	return page.evaluate(
		() => document.documentElement.scrollWidth - document.documentElement.clientWidth,
	);
}

test('runs the bundled example on a replay agent: per-test and overall scores, exports', async ({
	page,
}) => {
	await openMemory(page);
	await pickExample(page);
	const agent = page.getByRole('group', { name: 'Agent' });
	await agent.getByLabel('Replay file').check();
	await page.getByTestId('policy-replay').setInputFiles(REPLAY);
	await expect(agent).toContainText('classroom-agent.replay.jsonl');
	// Keyboard: the Run button is reached and pressed from the keyboard.
	const run = page.getByRole('button', { name: 'Run tests' });
	await run.focus();
	await page.keyboard.press('Enter');
	await expect(page.getByTestId('memory-progress')).toContainText('5 of 5 tests', {
		timeout: 60_000,
	});
	await expect(page.getByTestId('memory-progress')).toContainText('done');

	// The replay answers the three static questions right.
	const datasets = page.getByTestId('memory-datasets');
	for (const name of ['Favourite Fruit', 'Pet Names', 'Shopping']) {
		await expect(datasets.getByRole('row', { name: new RegExp(`^${name}`) })).toContainText('1.00');
	}
	await expect(page.getByTestId('memory-overall')).toContainText('Accuracy');
	await expect(page.getByTestId('memory-overall')).toContainText('LTM score');

	// One test opened: the question marked, expected against actual, the gap against the span.
	const fruit = page.getByTestId('memory-test').filter({ hasText: 'Favourite Fruit - 0' });
	await fruit.locator('summary').click();
	await expect(fruit).toContainText('score 1.00');
	await expect(fruit.getByText('question')).toBeVisible();
	await expect(fruit.getByRole('row', { name: /plum The plum\./ })).toBeVisible();
	await expect(fruit).toContainText(/Gap achieved: \d+ tokens of a 400-token span/);

	// Filler is collapsed with its token count.
	await expect(page.getByTestId('memory-conversation').locator('summary').first()).toContainText(
		/Filler: \d+ messages?, \d+ tokens/,
	);

	const download = page.waitForEvent('download');
	await page.getByRole('button', { name: 'Download result files (zip)' }).click();
	const zipPath = await (await download).path();
	const files = unzipSync(new Uint8Array(readFileSync(zipPath)));
	expect(Object.keys(files)).toEqual(
		expect.arrayContaining(['Favourite Fruit/0_0.json', 'summary.json']),
	);
	const fruitResult = JSON.parse(new TextDecoder().decode(files['Favourite Fruit/0_0.json'])) as {
		score: number;
		max_score: number;
	};
	expect(fruitResult).toMatchObject({ score: 1, max_score: 1 });

	expect(await axeSummary(page, 'replay run results')).toEqual([]);
	await page.setViewportSize({ width: 360, height: 800 });
	expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
	await page.setViewportSize({ width: 1280, height: 800 });

	// A second agent that only says OK, compared with the first: radar chart and table.
	await page
		.getByTestId('policy-replay')
		.setInputFiles('tests/fixtures/ltm/always-ok.replay.jsonl');
	await expect(agent).toContainText('always-ok.replay.jsonl');
	await run.click();
	await expect(page.getByTestId('memory-progress')).toContainText('5 of 5 tests · ', {
		timeout: 60_000,
	});
	await expect(page.getByRole('heading', { name: /replay:always-ok/ })).toBeVisible();
	await page.getByRole('button', { name: 'Compare with shown run 1' }).click();
	const compare = page.getByTestId('memory-compare');
	await expect(
		compare.getByRole('figure', { name: /Radar chart/ }).locator('canvas'),
	).toBeVisible();
	await expect(compare.getByRole('row', { name: /^Favourite Fruit/ })).toHaveText(
		/Favourite Fruit\s*0\.00\s*1\.00/,
	);
	expect(await axeSummary(page, 'two runs compared')).toEqual([]);
	await page.setViewportSize({ width: 390, height: 800 });
	// The chart is resized on the next frames (a ResizeObserver): wait for it, then measure.
	await expect.poll(() => sidewaysScroll(page)).toBeLessThanOrEqual(0);
});

test('shares a run by link: another browser sees the scores, re-runs it and is told they reproduced', async ({
	page,
	browser,
}) => {
	await openMemory(page);
	await pickExample(page);
	const agent = page.getByRole('group', { name: 'Agent' });
	await agent.getByLabel('Replay file').check();
	await page.getByTestId('policy-replay').setInputFiles(REPLAY);
	await page.getByRole('button', { name: 'Run tests' }).click();
	await expect(page.getByTestId('memory-progress')).toContainText('done', { timeout: 60_000 });
	await page.getByRole('button', { name: 'Share link' }).click();
	const link = await page.getByTestId('memory-share-link').inputValue();
	expect(link).toMatch(/#\/memory\/share\/2\/[A-Za-z0-9_-]+$/u);

	// A fresh context: no stored runs, no replay file picked; the link carries all of it.
	const context = await browser.newContext({ bypassCSP: true });
	const other = await context.newPage();
	await other.goto(link);
	const shared = other.getByRole('region', { name: /^Shared run: / });
	await expect(shared).toContainText('5 tests');
	await expect(shared).toContainText('replay:classroom-agent');
	await expect(shared.getByRole('row', { name: /^Favourite Fruit - 0/ })).toContainText('1.00');
	await shared.getByRole('button', { name: 'Re-run the shared run' }).click();
	await expect(other.getByTestId('memory-reproduction')).toContainText(
		'Reproduced: all 5 scores match',
		{ timeout: 60_000 },
	);
	expect(await axeSummary(other, 'shared run reproduced')).toEqual([]);

	// A cut link says what to do.
	await other.goto(link.slice(0, -7));
	await other.reload();
	await expect(other.getByText(/copy the whole link|does not unpack/)).toBeVisible();
	await context.close();
});

test('locates an error in a dropped ltm-suite.json', async ({ page }) => {
	await openMemory(page);
	const suite = JSON.parse(
		readFileSync('suites/memory/classroom-basics.ltm-suite.json', 'utf8'),
	) as { datasets: { examples: { script: unknown }[] }[] };
	suite.datasets[1]!.examples[0]!.script = 42;
	await page.getByTestId('memory-files').setInputFiles({
		name: 'broken.ltm-suite.json',
		mimeType: 'application/json',
		buffer: Buffer.from(JSON.stringify(suite)),
	});
	const alert = page.getByRole('alert').filter({ hasText: 'Problems in the definitions' });
	await expect(alert).toContainText('broken.ltm-suite.json#/datasets/1/examples/0');
	await expect(page.getByText('These definitions have errors')).toBeVisible();
});

test('refuses a regex that needs backtracking when the ltm-suite.json is dropped, located', async ({
	page,
}) => {
	await openMemory(page);
	const suite = JSON.parse(
		readFileSync('suites/memory/classroom-basics.ltm-suite.json', 'utf8'),
	) as { datasets: { name: string; evaluator: unknown }[] };
	suite.datasets[0]!.evaluator = { rule: 'regex', pattern: 'locker (?=\\d)' };
	await page.getByTestId('memory-files').setInputFiles({
		name: 'lookahead.ltm-suite.json',
		mimeType: 'application/json',
		buffer: Buffer.from(JSON.stringify(suite)),
	});
	const alert = page.getByRole('alert').filter({ hasText: 'Problems in the definitions' });
	await expect(alert).toContainText('lookahead.ltm-suite.json#/datasets/0/evaluator/pattern');
	await expect(alert).toContainText(
		`dataset '${suite.datasets[0]!.name}': a lookahead '(?=' at character 8 needs backtracking`,
	);
	await expect(page.getByText('These definitions have errors')).toBeVisible();
});

test('drops a zip of upstream definitions and runs them on a replay agent', async ({ page }) => {
	await openMemory(page);
	const root = 'tests/fixtures/ltm/tiny-definitions';
	const zip = zipSync({
		'tiny/config.yml': strToU8(readFileSync(`${root}/config.yml`, 'utf8')),
		'tiny/Colours/0.def.json': strToU8(readFileSync(`${root}/Colours/0.def.json`, 'utf8')),
		'tiny/Names/0.def.json': strToU8(readFileSync(`${root}/Names/0.def.json`, 'utf8')),
		'tiny/Prospective_Memory/0.def.json': strToU8(
			readFileSync(`${root}/Prospective_Memory/0.def.json`, 'utf8'),
		),
	});
	await page.getByTestId('memory-files').setInputFiles({
		name: 'tiny.zip',
		mimeType: 'application/zip',
		buffer: Buffer.from(zip),
	});
	await expect(page.getByRole('status').filter({ hasText: 'Tiny LTM fixture' })).toContainText(
		/3 tests\s+from tiny\.zip/,
	);
	const agent = page.getByRole('group', { name: 'Agent' });
	await agent.getByLabel('Replay file').check();
	await page
		.getByTestId('policy-replay')
		.setInputFiles('tests/fixtures/ltm/always-ok.replay.jsonl');
	await page.getByRole('button', { name: 'Run tests' }).click();
	await expect(page.getByTestId('memory-progress')).toContainText('3 of 3 tests', {
		timeout: 60_000,
	});
	// An agent that only says OK remembers nothing.
	await expect(
		page.getByTestId('memory-datasets').getByRole('row', { name: /^Colours/ }),
	).toContainText('0.00');
});

test('a run on the bundled tiny model interrupted by a reload resumes and finishes', async ({
	page,
}) => {
	await openMemory(page);
	await pickExample(page);
	// The page starts on gpt2-en-small; this run uses the tiny one, picked explicitly.
	await page
		.getByRole('group', { name: 'Agent' })
		.getByLabel('Model', { exact: true })
		.selectOption('gpt2-random-tiny');
	// A longer span means more turns, so the reload lands mid-run.
	await page.getByLabel('Memory span (tokens)').fill('1500');
	await page.getByRole('button', { name: 'Run tests' }).click();
	const conversation = page.getByTestId('memory-conversation');
	await expect(conversation.locator('.message.agent:not(.live)').nth(2)).toBeVisible({
		timeout: 120_000,
	});
	await page.reload();
	await openMemory(page);
	const notice = page.getByRole('status').filter({ hasText: 'stopped' });
	await expect(notice).toContainText('Classroom basics');
	// Nothing scores it after the reload: the past runs say interrupted, never running.
	const pastRuns = page.getByRole('table').filter({ hasText: 'Status' }).last();
	await expect(pastRuns).toContainText(/interrupted, \d\/5 tests/);
	await expect(pastRuns).not.toContainText(/running,/);
	await notice.getByRole('button', { name: /Resume/ }).click();
	await expect(page.getByTestId('memory-progress')).toContainText('5 of 5 tests', {
		timeout: 180_000,
	});
	await expect(page.getByTestId('memory-overall')).toBeVisible();
	await expect(page.getByRole('table').filter({ hasText: 'Status' }).last()).toContainText(
		'done, 5/5 tests',
	);
	// The resumed conversation kept what came before the reload (the introduction first).
	await expect(conversation.locator('.message').first()).toBeVisible();
	expect(await axeSummary(page, 'resumed run done')).toEqual([]);
});

test.describe('through serve', () => {
	let server: ServeProcess | undefined;
	let baseUrl = '';

	test.beforeAll(async () => {
		server = await startServeProcess('gpt2-random-tiny');
		baseUrl = server.baseUrl;
	});

	test.afterAll(() => {
		server?.stop();
	});

	test('runs the bundled example with the agent behind serve', async ({ page }) => {
		await openMemory(page);
		await pickExample(page);
		const agent = page.getByRole('group', { name: 'Agent' });
		await agent.getByLabel('Endpoint').check();
		const form = page.getByTestId('endpoint-form');
		await form.getByLabel(/Base URL/).fill(baseUrl);
		await form.getByRole('button', { name: 'Test connection' }).click();
		await expect(form.getByLabel('Model id')).toHaveValue('gpt2-random-tiny');
		// The served model attends to 128 positions: a short history and short replies.
		await page.getByLabel('Agent context (tokens)').fill('72');
		await page.getByLabel('Max new tokens').fill('12');
		await page.getByRole('button', { name: 'Run tests' }).click();
		await expect(page.getByTestId('memory-progress')).toContainText('5 of 5 tests', {
			timeout: 180_000,
		});
		await expect(page.getByTestId('memory-overall')).toBeVisible();
		await expect(page.getByRole('heading', { name: /openai\/gpt2-random-tiny/ })).toBeVisible();
	});
});
