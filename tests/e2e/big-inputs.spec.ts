// Big inputs never freeze the tab (issue 19): a 20 MB replay file and a big ltm-suite.json on the
// Memory page and a registry of 80,000 samples on the Evals page are parsed in a worker, with
// progress; no main-thread task runs over 500 ms meanwhile (PerformanceObserver 'longtask'), and
// the result is the one the main thread gives (line, test and sample counts). Inputs are generated
// here and picked by path (a buffer would be rebuilt as a File by a long task of Playwright's).
import { writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';

const REPLAY_LINES = 100_000;
const REGISTRY_SAMPLES = 80_000;
const LTM_TESTS = 5000;
/**
 * The longest main-thread task allowed while a big input is read. Parsing on the main thread took
 * 5.3 s (20 MB replay), 0.5-1.3 s (80,000-sample registry) and 2.9 s (5,000 LTM tests); in the
 * worker the longest task is ~100 ms, up to ~220 ms on a loaded 2-core machine: 500 ms leaves
 * room for a loaded machine. The figures are logged; timings belong to the bench, not here.
 */
const MAX_TASK_MS = 500;

/**
 * While 5 samples of the 80,000-sample eval run, the page may pause once or twice, never per
 * sample: creating the run resolves the eval and stores it once (a structured clone of ~10 MB,
 * 0.6-1.7 s on this 2-core machine, measured at 7b98b5e), while each sample's progress write,
 * which once was a copy of the whole eval (1.0-1.7 s each, measured), is now a small row. The
 * status writes and the page's list of runs read no input back (each read was a pause of
 * 0.3-0.7 s; CI once saw three pauses over 500 ms): now one pause of 0.9-1.3 s, and the other
 * tasks under 100 ms. What is checked is how many tasks pass RUN_PAUSE_MS, not how long the
 * longest one is.
 */
const RUN_PAUSE_MS = 500;
const RUN_MAX_PAUSES = 2;

/** A replay file of `lines` sample lines, about 200 bytes each. */
function bigReplay(lines: number): Buffer {
	const filler = 'x'.repeat(150);
	const rows: string[] = [];
	for (let index = 0; index < lines; index += 1) {
		rows.push(
			JSON.stringify({ sample_id: `s${index}`, role: 'agent', completion: `${index} ${filler}` }),
		);
	}
	return Buffer.from(`${rows.join('\n')}\n`);
}

/** A registry: one Match eval over `count` samples. */
function bigRegistry(count: number): { yaml: Buffer; samples: Buffer } {
	const yaml = [
		'big.test.v1:',
		'  class: evals.elsuite.basic.match:Match',
		'  args:',
		'    samples_jsonl: samples.jsonl',
		'',
	].join('\n');
	const rows: string[] = [];
	for (let index = 0; index < count; index += 1) {
		rows.push(
			JSON.stringify({
				input: [{ role: 'user', content: `What is ${index} plus one? Answer with digits.` }],
				ideal: String(index + 1),
			}),
		);
	}
	return { yaml: Buffer.from(yaml), samples: Buffer.from(`${rows.join('\n')}\n`) };
}

/** Records main-thread long tasks from the first script on. */
async function watchLongTasks(page: Page): Promise<void> {
	await page.addInitScript(() => {
		const tasks: number[] = [];
		(window as unknown as { __longTasks: number[] }).__longTasks = tasks;
		new PerformanceObserver((list) => {
			for (const entry of list.getEntries()) tasks.push(entry.duration);
		}).observe({ type: 'longtask', buffered: true });
	});
}

/** Forgets the long tasks so far (page load), so only the ones after count. */
async function resetLongTasks(page: Page): Promise<void> {
	await page.evaluate(() => {
		(window as unknown as { __longTasks: number[] }).__longTasks.length = 0;
	});
}

/** The long tasks (over 50 ms) seen since the last reset, in milliseconds. */
async function longTasks(page: Page): Promise<number[]> {
	return page.evaluate(() => [...(window as unknown as { __longTasks: number[] }).__longTasks]);
}

async function longestTask(page: Page): Promise<number> {
	return page.evaluate(() =>
		Math.max(0, ...(window as unknown as { __longTasks: number[] }).__longTasks),
	);
}

test('a 20 MB replay file on the Memory page is read in a worker: no long task, its lines counted', async ({
	page,
}, testInfo) => {
	const replay = bigReplay(REPLAY_LINES);
	expect(replay.length).toBeGreaterThan(20_000_000);
	const replayPath = testInfo.outputPath('big.replay.jsonl');
	writeFileSync(replayPath, replay);
	await watchLongTasks(page);
	await page.goto('/#/memory');
	await expect(page.getByRole('list', { name: 'Bundled example tests' })).toBeVisible();
	await page.getByRole('button', { name: /^Classroom basics/ }).click();
	const agent = page.getByRole('group', { name: 'Agent' });
	await agent.getByLabel('Replay file').check();
	await page.waitForTimeout(500);
	await resetLongTasks(page);
	await page.getByTestId('policy-replay').setInputFiles(replayPath);
	await expect(agent.getByRole('progressbar')).toBeVisible();
	await expect(agent).toContainText(`${REPLAY_LINES.toLocaleString('en')} answer lines`, {
		timeout: 60_000,
	});
	await expect(page.getByRole('button', { name: 'Run tests' })).toBeEnabled();
	await page.waitForTimeout(500);
	const longest = await longestTask(page);
	console.log(`memory page, 20 MB replay: longest main-thread task ${Math.round(longest)} ms`);
	expect(longest).toBeLessThan(MAX_TASK_MS);
});

test('a registry of 80,000 samples on the Evals page is read in a worker: no long task, same eval', async ({
	page,
}, testInfo) => {
	const { yaml, samples } = bigRegistry(REGISTRY_SAMPLES);
	const yamlPath = testInfo.outputPath('big.yaml');
	const samplesPath = testInfo.outputPath('samples.jsonl');
	writeFileSync(yamlPath, yaml);
	writeFileSync(samplesPath, samples);
	await watchLongTasks(page);
	await page.goto('/#/evals');
	await expect(page.getByRole('list', { name: 'Bundled example evals' })).toBeVisible();
	await page.waitForTimeout(500);
	await resetLongTasks(page);
	await page.getByTestId('evals-files').setInputFiles([yamlPath, samplesPath]);
	await expect(page.getByRole('progressbar', { name: /Reading/ })).toBeVisible();
	await expect(page.getByText(/Picked big\.test\.v1/)).toContainText(
		`${REGISTRY_SAMPLES} samples`,
		{ timeout: 60_000 },
	);
	await page.waitForTimeout(500);
	const longest = await longestTask(page);
	console.log(
		`evals page, ${REGISTRY_SAMPLES} samples: longest main-thread task ${Math.round(longest)} ms`,
	);
	expect(longest).toBeLessThan(MAX_TASK_MS);

	// Running 5 samples of it: the run's progress writes stay small (the eval with its 80,000
	// samples is stored once, beside the run row), so the page does not pause per sample.
	const replayPath = testInfo.outputPath('answers.jsonl');
	writeFileSync(replayPath, `${JSON.stringify({ when: '', completion: '1' })}\n`);
	const policy = page.getByRole('group', { name: 'Model under test' });
	await policy.getByLabel('Replay file').check();
	await page.getByTestId('policy-replay').setInputFiles(replayPath);
	await page.getByLabel('Max samples').fill('5');
	await page.waitForTimeout(500);
	await resetLongTasks(page);
	await page.getByRole('button', { name: 'Run eval' }).click();
	await expect(page.getByTestId('evals-progress')).toContainText('5 of 5 samples', {
		timeout: 60_000,
	});
	await page.waitForTimeout(500);
	const runTasks = await longTasks(page);
	console.log(
		`evals page, 5 of ${REGISTRY_SAMPLES} samples run: main-thread tasks over 50 ms: ${runTasks.map(Math.round).join(', ')} ms`,
	);
	expect(runTasks.filter((ms) => ms > RUN_PAUSE_MS).length).toBeLessThanOrEqual(RUN_MAX_PAUSES);
});

test('a big ltm-suite.json on the Memory page is loaded in a worker: no long task, its tests counted', async ({
	page,
}, testInfo) => {
	const examples = Array.from({ length: LTM_TESTS }, (_, index) => ({
		id: String(index),
		script: [
			`These days my favourite fruit is fruit number ${index}, a kind of mango.`,
			`I changed my mind: my favourite fruit is now fruit number ${index + 1}, a kind of plum.`,
			'Which fruit do I like best at the moment?',
		],
		is_question: [false, false, true],
		expected_responses: [`fruit number ${index + 1}`],
	}));
	const suite = {
		format: 'ltm-suite/1',
		config: { run_name: 'Big suite', memory_span: 400 },
		datasets: [
			{
				name: 'Favourite Fruit',
				description: 'Many fruits.',
				evaluator: { rule: 'contains', case: 'insensitive' },
				examples,
			},
		],
	};
	const suitePath = testInfo.outputPath('big.ltm-suite.json');
	writeFileSync(suitePath, JSON.stringify(suite, null, 1));
	await watchLongTasks(page);
	await page.goto('/#/memory');
	await expect(page.getByRole('list', { name: 'Bundled example tests' })).toBeVisible();
	await page.waitForTimeout(500);
	await resetLongTasks(page);
	await page.getByTestId('memory-files').setInputFiles(suitePath);
	await expect(page.getByRole('progressbar', { name: /Reading/ })).toBeVisible();
	await expect(page.getByText(/Loaded Big suite/)).toContainText(`${LTM_TESTS} tests`, {
		timeout: 60_000,
	});
	await page.waitForTimeout(500);
	const longest = await longestTask(page);
	console.log(
		`memory page, ${LTM_TESTS} LTM tests: longest main-thread task ${Math.round(longest)} ms`,
	);
	expect(longest).toBeLessThan(MAX_TASK_MS);
});
