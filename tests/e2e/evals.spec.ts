// The Evals page end to end, in Chromium with the bundled gpt2-random-tiny in the worker: run a
// bundled example eval and read its metrics and a transcript, export the oaieval log and read it
// back, drop a registry (a zip of our own fixture files, and a broken YAML whose problem is
// located), a model-graded eval graded by a replay file, reload mid-run and resume, no axe
// violations, and no sideways scrolling on a phone.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { startServeProcess, type ServeProcess } from './serve-process';
import { strToU8, zipSync } from 'fflate';
import { readOaievalLog } from '../../src/core/evals';
import { axeSummary } from './axe';

const FIXTURES = 'tests/fixtures/evals-ui';

// The app's CSP forbids inline scripts, which is how Playwright injects axe: bypass it here only.
test.use({ bypassCSP: true });

async function openEvals(page: Page): Promise<void> {
	await page.goto('/#/evals');
	await expect(page.getByRole('heading', { name: 'Evals', level: 2 })).toBeVisible();
	await expect(page.getByRole('list', { name: 'Bundled example evals' })).toBeVisible();
	// The page starts on gpt2-en-small; these runs use the tiny one, picked explicitly.
	const model = page
		.getByRole('group', { name: 'Model under test' })
		.getByLabel('Model', { exact: true });
	await expect(model).toHaveValue('gpt2-en-small');
	await model.selectOption('gpt2-random-tiny');
}

/** Sets max new tokens of the model under test (a tiny random model needs no 256-token answers). */
async function setPolicyMaxTokens(page: Page, value: number): Promise<void> {
	const table = page.locator('table.params').first();
	await table.getByLabel('Max new tokens').fill(String(value));
	await expect(table.getByText('not upstream')).toBeVisible();
}

const metrics = (page: Page) => page.getByTestId('evals-metrics');

test('runs a bundled Match eval on the local tiny model: metrics, transcript, log export', async ({
	page,
}) => {
	await openEvals(page);
	await page
		.getByRole('button', { name: /^capitals\b/ })
		.first()
		.click();
	await expect(page.getByText(/Picked capitals\.test\.v1/)).toBeVisible();
	// Upstream's Match sends temperature 0 and no max_tokens: the app default, 256, is sent.
	const params = page.locator('table.params').first();
	await expect(params.getByRole('row', { name: /Temperature/ })).toContainText('0');
	await expect(params.getByLabel('Max new tokens')).toHaveAttribute(
		'placeholder',
		'256 (app default)',
	);
	await setPolicyMaxTokens(page, 6);
	await page.getByRole('button', { name: 'Run eval' }).click();
	await expect(metrics(page)).toBeVisible({ timeout: 120_000 });
	// The run header states the cap and where it came from; no app default, so no parity mark.
	await expect(page.getByTestId('evals-max-tokens').first()).toHaveText(
		'max_tokens 6 (your setting; the template sends none)',
	);
	await expect(page.getByTestId('evals-parity-mark')).toHaveCount(0);
	await expect(metrics(page)).toContainText('accuracy');
	await expect(metrics(page)).toContainText('boostrap_std');
	await expect(page.getByTestId('evals-progress')).toContainText('12 of 12 samples');

	// A transcript: the chat as sent (bubbles), the completion with whitespace made visible.
	await page
		.getByRole('button', { name: /Transcript of capitals\.test\.\d+/ })
		.first()
		.click();
	const transcript = page.locator('.transcript').first();
	await expect(transcript.locator('.bubble').first()).toBeVisible();
	await expect(transcript).toContainText('Prompt as sent');
	await expect(transcript.locator('pre.output')).toContainText('⎵');

	expect(await axeSummary(page, 'Match eval results')).toEqual([]);

	// The exported log reads back with one match event per sample and the shown accuracy.
	const shownAccuracy = await metrics(page)
		.getByRole('row', { name: /^accuracy/ })
		.locator('td')
		.first()
		.innerText();
	const downloadPromise = page.waitForEvent('download');
	await page.getByRole('button', { name: 'Export oaieval log (JSONL)' }).click();
	const download = await downloadPromise;
	const text = readFileSync(await download.path(), 'utf8');
	const log = readOaievalLog(text, download.suggestedFilename());
	expect(log.spec.eval_name).toBe('capitals.test.v1');
	expect(log.events.filter((event) => event.type === 'match')).toHaveLength(12);
	expect(log.events.filter((event) => event.type === 'sampling')).toHaveLength(12);
	expect(log.finalReport?.accuracy?.toFixed(4)).toBe(Number(shownAccuracy).toFixed(4));

	// The Inspect log beside it: one sample per sample, the same accuracy as a metric.
	const inspectPromise = page.waitForEvent('download');
	await page.getByRole('button', { name: 'Export Inspect log (JSON)' }).click();
	const inspectDownload = await inspectPromise;
	expect(inspectDownload.suggestedFilename()).toMatch(/\.inspect\.json$/u);
	const inspect = JSON.parse(readFileSync(await inspectDownload.path(), 'utf8')) as {
		status: string;
		samples: unknown[];
		results: { scores: { metrics: { accuracy: { value: number } } }[] };
	};
	expect(inspect.status).toBe('success');
	expect(inspect.samples).toHaveLength(12);
	expect(inspect.results.scores[0]?.metrics.accuracy.value.toFixed(4)).toBe(
		Number(shownAccuracy).toFixed(4),
	);

	// The exported CSV has a header and one line per sample (none of these answers break lines).
	const csvPromise = page.waitForEvent('download');
	await page.getByRole('button', { name: 'Export samples (CSV)' }).click();
	const csv = readFileSync(await (await csvPromise).path(), 'utf8');
	expect(csv.split('\r\n')[0]).toMatch(/^sample_id,prompt,completion/);

	// Phone width: the page does not scroll sideways (wide tables scroll in their own box).
	await page.setViewportSize({ width: 360, height: 800 });
	const overflow = await page.evaluate(
		() => document.documentElement.scrollWidth - document.documentElement.clientWidth,
	);
	expect(overflow).toBeLessThanOrEqual(0);

	// A share link opened elsewhere re-runs the eval and says whether the verdicts reproduce.
	await page.setViewportSize({ width: 1280, height: 800 });
	await page.getByRole('button', { name: 'Share link' }).click();
	const link = await page.getByTestId('evals-share-link').inputValue();
	expect(link).toContain('#/evals/share/');
	const other = await page.context().newPage();
	await other.goto(link);
	await expect(other.getByText(/Opened a shared run of capitals/)).toBeVisible();
	// The sharer's run shows first: its model, its accuracy and each sample with its verdict.
	const shared = other.getByTestId('evals-shared-run');
	await expect(shared.getByTestId('evals-shared-model')).toHaveText('gpt2-random-tiny');
	await expect(shared.getByTestId('evals-shared-score')).toContainText(
		`accuracy ${(Number(shownAccuracy) * 100).toFixed(1)}%`,
	);
	await expect(shared.getByTestId('evals-shared-samples').locator('tbody tr')).toHaveCount(12);
	await other.getByRole('button', { name: 'Run eval' }).click();
	await expect(
		other.getByText('Reproduced: 12/12 verdicts identical to the shared run.'),
	).toBeVisible({ timeout: 120_000 });
});

test('drops a registry as a zip, and locates a broken YAML problem', async ({ page }) => {
	await openEvals(page);
	const zip = zipSync({
		'registry/evals/greetings.yaml': readFileSync(`${FIXTURES}/registry/evals/greetings.yaml`),
		'registry/data/greetings/samples.jsonl': readFileSync(
			`${FIXTURES}/registry/data/greetings/samples.jsonl`,
		),
		'registry/README.txt': strToU8('not part of the registry'),
	});
	await page.getByTestId('evals-files').setInputFiles({
		name: 'registry.zip',
		mimeType: 'application/zip',
		buffer: Buffer.from(zip),
	});
	await page.getByLabel('Eval', { exact: true }).selectOption('greetings');
	await expect(page.getByText(/Picked greetings\.dev\.v0/)).toContainText('3 samples');
	await setPolicyMaxTokens(page, 4);
	await page.getByRole('button', { name: 'Run eval' }).click();
	await expect(page.getByTestId('evals-progress')).toContainText('3 of 3 samples', {
		timeout: 60_000,
	});
	const accuracy = metrics(page)
		.getByRole('row', { name: /^accuracy/ })
		.locator('td')
		.first();
	expect(Number(await accuracy.innerText())).toBeGreaterThanOrEqual(0);
	expect(Number(await accuracy.innerText())).toBeLessThanOrEqual(1);

	// A second run with shorter answers, compared sample by sample with the first.
	await page.locator('table.params').first().getByLabel('Max new tokens').fill('1');
	await page.getByRole('button', { name: 'Run eval' }).click();
	await expect(page.getByRole('button', { name: /Compare with shown/ })).toBeVisible({
		timeout: 60_000,
	});
	await page.getByRole('button', { name: /Compare with shown/ }).click();
	await expect(page.getByTestId('evals-compare-summary')).toContainText(
		/\d of 3 verdicts identical/,
	);
	await page.getByLabel('Only samples that differ').uncheck();
	await expect(
		page.getByRole('table').filter({ hasText: 'A completion' }).getByRole('row'),
	).toHaveCount(4);

	// A broken file added to the registry: its problem names the file and line.
	await page.getByTestId('evals-files').setInputFiles(`${FIXTURES}/broken.yaml`);
	const problems = page.getByRole('alert');
	await expect(problems).toContainText('evals/broken.yaml:');
	await expect(problems).toContainText('evals.elsuite.riddles:Riddles');
	expect(await axeSummary(page, 'broken YAML located')).toEqual([]);
});

test('grades a bundled model-graded eval with a replay grader: choices, invalid rate, deciding line', async ({
	page,
}) => {
	await openEvals(page);
	// By keyboard: the card is a button.
	await page.getByRole('button', { name: /^explain-clearly\b/ }).focus();
	await page.keyboard.press('Enter');
	await expect(page.getByRole('button', { name: /^explain-clearly\b/ })).toHaveAttribute(
		'aria-pressed',
		'true',
	);
	const grader = page.getByRole('group', { name: 'Grader' });
	await grader.getByLabel('Replay file').check();
	await page.getByTestId('grader-replay').setInputFiles(`${FIXTURES}/grader-replay.jsonl`);
	await expect(grader).toContainText('grader-replay.jsonl');
	await setPolicyMaxTokens(page, 4);
	await page.getByRole('button', { name: 'Run eval' }).click();
	await expect(metrics(page)).toBeVisible({ timeout: 120_000 });
	// The replay answers Y to eight samples, N to the leap year, nothing valid to the prime number.
	await expect(metrics(page).getByRole('row', { name: /^counts\/Y/ })).toContainText('8');
	await expect(metrics(page).getByRole('row', { name: /^counts\/N/ })).toContainText('1');
	await expect(metrics(page).getByRole('row', { name: /^invalid_choice_rate/ })).toContainText(
		'0.1000',
	);

	await page.getByLabel('Show').selectOption('invalid');
	await expect(page.getByText('1 of 10 samples shown')).toBeVisible();
	await page.getByLabel('Show').selectOption('all');
	await page.getByLabel('Search transcripts').fill('leap year');
	await expect(page.getByText('1 of 10 samples shown')).toBeVisible();
	await page.getByRole('button', { name: /Transcript of explain-clearly/ }).focus();
	await page.keyboard.press('Enter');
	// The transcript opens below the table and takes the focus.
	await expect(page.locator('.transcript-box')).toBeFocused();
	const deciding = page.getByTestId('grader-output').locator('mark.deciding');
	await expect(deciding).toHaveText('N');
	await expect(page.locator('.transcript')).toContainText('line 2 decided');
	expect(await axeSummary(page, 'model-graded eval results')).toEqual([]);
});

test('a run interrupted by a reload resumes from the stored samples', async ({ page }) => {
	await openEvals(page);
	await page.getByRole('button', { name: /^science-facts\b/ }).click();
	// Upstream's FuzzyMatch sends max_tokens 32: kept, so the run takes long enough to reload.
	await page.getByRole('button', { name: 'Run eval' }).click();
	await expect(page.getByTestId('evals-progress')).toContainText(/[2-9] of 12 samples/, {
		timeout: 60_000,
	});
	await page.reload();
	await openEvals(page);
	const notice = page.getByRole('status').filter({ hasText: 'stopped (interrupted) at' });
	await expect(notice).toContainText('science-facts');
	await notice.getByRole('button', { name: /Resume/ }).click();
	await expect(metrics(page)).toBeVisible({ timeout: 120_000 });
	await expect(metrics(page)).toContainText('f1_score');
	await expect(page.getByTestId('evals-progress')).toContainText('12 of 12 samples');
	await expect(page.getByRole('table').filter({ hasText: 'Eval' }).last()).toContainText(
		'done, 12/12 samples',
	);
});

test.describe('through an endpoint', () => {
	// Our own `serve` over the bundled gpt2-random-tiny, on a free port, stopped after.
	let server: ServeProcess | undefined;
	let baseUrl = '';

	test.beforeAll(async () => {
		server = await startServeProcess('gpt2-random-tiny');
		baseUrl = server.baseUrl;
	});

	test.afterAll(() => {
		server?.stop();
	});

	test('runs a bundled eval on a serve endpoint; the run names the endpoint model', async ({
		page,
	}) => {
		await openEvals(page);
		await page
			.getByRole('button', { name: /^capitals\b/ })
			.first()
			.click();
		const policy = page.getByRole('group', { name: 'Model under test' });
		await policy.getByLabel('Endpoint').check();
		const form = page.getByTestId('endpoint-form');
		await form.getByLabel(/Base URL/).fill(baseUrl);
		await form.getByRole('button', { name: 'Test connection' }).click();
		await expect(form.getByLabel('Model id')).toHaveValue('gpt2-random-tiny');
		await setPolicyMaxTokens(page, 6);
		await page.getByRole('button', { name: 'Run eval' }).click();
		await expect(metrics(page)).toBeVisible({ timeout: 120_000 });
		await expect(page.getByTestId('evals-progress')).toContainText('12 of 12 samples');
		await expect(page.locator('section.results')).toContainText(
			`openai/gpt2-random-tiny@${baseUrl}`,
		);
		await page
			.getByRole('button', { name: /Transcript of capitals\.test\.\d+/ })
			.first()
			.click();
		await expect(page.locator('.transcript pre.output').first()).not.toBeEmpty();
	});
});
