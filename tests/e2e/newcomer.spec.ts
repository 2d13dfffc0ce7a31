// What a newcomer trips over on the Evals, Memory and Explore pages (issue 21): the `?` tips and
// their glossary entries, what a bundled GPT-2 can do as an agent, long completions shortened in
// the Evals comparison (page height measured at 1280 px), axe at 390 px, the keyboard focus on
// the results heading when a run ends, each eval listed once, a definitions folder picked while
// the bundled examples load, the count wording, the endpoint model offered in the explorer, and
// folders dragged onto the drop zones (a real drag, through the DevTools protocol).
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startServeProcess, type ServeProcess } from './serve-process';
import { strToU8, zipSync } from 'fflate';
import { axeSummary } from './axe';

const MEMORY_REPLAY = 'tests/fixtures/memory-ui/classroom-agent.replay.jsonl';

// The app's CSP forbids inline scripts, which is how Playwright injects axe: bypass it here only.
test.use({ bypassCSP: true });

/** A registry of `count` samples under an alias and its id, as a zip. */
function longRegistryZip(count: number): Buffer {
	const yaml = [
		'essays:',
		'  id: essays.dev.v0',
		'  description: Write a long answer; it passes when it contains a space.',
		'essays.dev.v0:',
		'  class: evals.elsuite.basic.includes:Includes',
		'  args:',
		'    samples_jsonl: essays/samples.jsonl',
	].join('\n');
	const samples = Array.from(
		{ length: count },
		(_, index) => `${JSON.stringify({ input: `Write about topic ${index}.`, ideal: ' ' })}\n`,
	).join('');
	return Buffer.from(
		zipSync({
			'registry/evals/essays.yaml': strToU8(yaml),
			'registry/data/essays/samples.jsonl': strToU8(samples),
		}),
	);
}

/** A replay file answering every call with `word` repeated into a completion of ~1,500 chars. */
function longReplay(word: string): { name: string; mimeType: string; buffer: Buffer } {
	const completion = Array.from({ length: 250 }, () => word).join(' ');
	return {
		name: `${word}.replay.jsonl`,
		mimeType: 'application/jsonl',
		buffer: Buffer.from(`${JSON.stringify({ when: '', completion })}\n`),
	};
}

async function runByKeyboard(page: Page, name: string): Promise<void> {
	const run = page.getByRole('button', { name });
	await run.focus();
	await page.keyboard.press('Enter');
}

const pageHeight = (page: Page) => page.evaluate(() => document.documentElement.scrollHeight);

test('Evals: tips, each eval once, focus after a run, long completions shortened in the comparison', async ({
	page,
}) => {
	await page.goto('/#/evals');
	await expect(page.getByRole('list', { name: 'Bundled example evals' })).toBeVisible();
	for (const name of ['What is registry (evals)?', 'What is model-graded eval?']) {
		await expect(page.getByRole('button', { name })).toBeVisible();
	}
	const tip = page.getByRole('button', { name: 'What is replay file?' });
	await tip.click();
	await expect(page.getByRole('note').filter({ hasText: 'played back' })).toBeVisible();
	await expect(page.getByTestId('text-model-note')).toContainText('does not follow instructions');
	// Counts say "sample" for one.
	await expect(page.getByText(/\b1 samples\b/)).toHaveCount(0);

	await page.getByTestId('evals-files').setInputFiles({
		name: 'essays.zip',
		mimeType: 'application/zip',
		buffer: longRegistryZip(12),
	});
	// One option per eval (alias, its id as detail), after the placeholder.
	const evalSelect = page.getByLabel('Eval', { exact: true });
	await expect(evalSelect.locator('option')).toHaveText(['Pick one…', 'essays (essays.dev.v0)']);
	await evalSelect.selectOption('essays');

	const policy = page.getByRole('group', { name: 'Model under test' });
	await policy.getByLabel('Replay file').check();
	await page.getByTestId('policy-replay').setInputFiles(longReplay('alpha'));
	await runByKeyboard(page, 'Run eval');
	await expect(page.getByTestId('evals-progress')).toContainText('12 of 12 samples · ', {
		timeout: 60_000,
	});
	await expect(page.getByTestId('evals-progress')).not.toContainText('tokens·');
	// The Run button was disabled during the run: the focus is on the results heading, not <body>.
	await expect(page.locator('#evals-results-title')).toBeFocused();

	await page.getByTestId('policy-replay').setInputFiles(longReplay('beta'));
	await runByKeyboard(page, 'Run eval');
	await expect(page.getByRole('button', { name: /Compare with shown/ })).toBeVisible({
		timeout: 60_000,
	});
	await expect(page.locator('#evals-results-title')).toBeFocused();
	await page.getByRole('button', { name: /Compare with shown/ }).click();
	await expect(page.getByTestId('evals-compare-summary')).toContainText('12 verdicts identical');

	const compare = page.getByRole('region', { name: 'Samples of runs A and B' });
	const completions = compare.locator('code.completion');
	await expect(completions).toHaveCount(24);
	expect((await completions.first().innerText()).length).toBeLessThanOrEqual(161);
	const shortened = await pageHeight(page);
	const showAll = compare.getByRole('button', { name: /^show all/ });
	await expect(showAll).toHaveCount(12);
	for (let index = 0; index < 12; index++) await showAll.first().click();
	expect((await completions.first().innerText()).length).toBeGreaterThan(1000);
	const full = await pageHeight(page);
	console.log(
		`Evals compare page height at 1280 px: ${full} px in full, ${shortened} px shortened`,
	);
	expect(shortened).toBeLessThan(full / 2);
	await compare
		.getByRole('button', { name: /^shorten/ })
		.first()
		.click();
	await expect(compare.getByRole('button', { name: /^shorten/ })).toHaveCount(11);

	expect(await axeSummary(page, 'Evals comparison, 1280 px')).toEqual([]);
	await page.setViewportSize({ width: 390, height: 844 });
	expect(await axeSummary(page, 'Evals comparison, 390 px')).toEqual([]);
});

test('Memory: tips, what a bundled GPT-2 can do, a folder picked while the examples load, focus', async ({
	page,
}) => {
	await page.goto('/#/memory');
	await expect(page.getByRole('heading', { name: 'Memory', level: 2 })).toBeVisible();
	// Picked at once, before the bundled examples have been read.
	await page
		.getByTestId('memory-files-folder')
		.setInputFiles('tests/fixtures/ltm/tiny-definitions');
	const loaded = page.getByRole('status').filter({ hasText: 'Loaded Tiny LTM fixture' });
	await expect(loaded).toContainText('3 tests from tiny-definitions/');
	await expect(page.getByRole('list', { name: 'Bundled example tests' })).toBeVisible();
	await expect(loaded).not.toContainText('bundled examples');
	await expect(loaded).not.toContainText(/\b1 tests\b/);

	const agent = page.getByRole('group', { name: 'Agent' });
	await expect(agent.getByTestId('text-model-note')).toContainText(
		'it continues text, it does not follow instructions',
	);
	// It starts on gpt2-en-small, not on the random-weight tiny model that writes noise.
	await expect(agent.getByTestId('text-model-note')).toContainText(
		'as a test-taker or an agent it scores low',
	);
	await expect(agent.getByTestId('text-model-note')).not.toContainText('random');
	await agent.getByRole('button', { name: 'What can a bundled GPT-2 do as an agent?' }).click();
	await expect(agent.getByRole('note')).toContainText('does not follow instructions');
	for (const name of [
		'What is filler?',
		'What is memory span?',
		'What is isolated (run)?',
		'What is replay file?',
	]) {
		await expect(page.getByRole('button', { name })).toBeVisible();
	}

	await page.getByRole('button', { name: /^Classroom basics/ }).click();
	await expect(page.getByText(/Loaded Classroom basics: 5 tests/)).toBeVisible();
	await agent.getByLabel('Replay file').check();
	await page.getByTestId('policy-replay').setInputFiles(MEMORY_REPLAY);
	await runByKeyboard(page, 'Run tests');
	await expect(page.getByTestId('memory-progress')).toContainText('done', { timeout: 60_000 });
	await expect(page.getByRole('heading', { name: /Classroom basics/, level: 3 })).toBeFocused();
	await expect(page.getByRole('button', { name: 'What is ltm score?' })).toBeVisible();
	expect(await axeSummary(page, 'Memory results, 1280 px')).toEqual([]);
	await page.setViewportSize({ width: 390, height: 844 });
	expect(await axeSummary(page, 'Memory results, 390 px')).toEqual([]);
});

test('Explore: tips, a heat strip named for its model, focus on the results', async ({ page }) => {
	await page.goto('/#/explore');
	await expect(page.getByRole('button', { name: 'What is surprisal?' })).toBeVisible();
	await expect(page.getByRole('button', { name: 'What is bits?' })).toBeVisible();
	await expect(page.getByLabel('Start of text')).toHaveValue('bos');
	await page.getByTestId('explore-text').fill('The dog barks.');
	await page.getByTestId('explore-model').selectOption('gpt2-random-tiny');
	await runByKeyboard(page, 'Score');
	await expect(page.getByRole('heading', { name: /^Surprisal per token/ })).toBeFocused({
		timeout: 60_000,
	});
	const strip = page.getByRole('group', { name: /^Token surprisals of the text for gpt2-random/ });
	await expect(strip).toBeVisible();
	await expect(strip).not.toContainText('1: text');
	await expect(page.getByRole('group', { name: /condition/ })).toHaveCount(0);
	expect(await axeSummary(page, 'Explore results')).toEqual([]);
});

/** Drags the folder at `path` from outside the page and drops it on `target` (a real drag). */
async function dropFolder(page: Page, target: string, path: string): Promise<void> {
	const box = await page.getByRole('button', { name: target }).boundingBox();
	if (!box) throw new Error(`No drop zone '${target}'.`);
	const cdp = await page.context().newCDPSession(page);
	const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
	const data = { items: [], files: [resolve(path)], dragOperationsMask: 1 };
	for (const type of ['dragEnter', 'dragOver', 'drop'] as const) {
		await cdp.send('Input.dispatchDragEvent', { type, ...at, data });
	}
	await cdp.detach();
}

test('a dragged registry folder and a dragged definitions folder are read with their paths', async ({
	page,
}) => {
	await page.goto('/#/evals');
	await expect(page.getByRole('list', { name: 'Bundled example evals' })).toBeVisible();
	await dropFolder(
		page,
		'Drop registry files here or choose files',
		'tests/fixtures/evals-ui/registry',
	);
	await expect(page.locator('.source-name')).toContainText('registry/evals/greetings.yaml');
	await page.getByLabel('Eval', { exact: true }).selectOption('greetings');
	await expect(page.getByText(/Picked greetings\.dev\.v0/)).toContainText('3 samples');

	await page.goto('/#/memory');
	await expect(page.getByRole('list', { name: 'Bundled example tests' })).toBeVisible();
	await dropFolder(
		page,
		'Drop definitions here or choose files',
		'tests/fixtures/ltm/tiny-definitions',
	);
	const loaded = page.getByRole('status').filter({ hasText: 'Loaded Tiny LTM fixture' });
	await expect(loaded).toContainText('3 tests from tiny-definitions/');
});

test('the glossary explains the Evals and Memory words', async ({ page }) => {
	await page.goto('/#/glossary');
	for (const term of [
		'Registry (Evals)',
		'Replay file',
		'Grader',
		'Model-graded eval',
		'Memory span',
		'LTM score',
		'Overrun',
		'Isolated (run)',
		'Agent context',
		'Filler',
		'A bundled GPT-2 as agent',
	]) {
		await expect(page.getByRole('term').filter({ hasText: term })).toHaveCount(1);
	}
	expect(await axeSummary(page, 'glossary')).toEqual([]);
});

test.describe('the explorer through an endpoint', () => {
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

	test('the endpoint model set on the Run page is offered and scores the text', async ({
		page,
	}) => {
		await page.goto('/#/explore');
		const model = page.getByTestId('explore-model');
		await expect(model.locator('option')).toHaveText(['gpt2-en-small', 'gpt2-random-tiny']);
		await page.goto('/');
		await page.getByRole('radio', { name: 'Endpoint' }).check();
		const form = page.getByTestId('endpoint-form');
		await form.getByLabel(/Base URL/).fill(baseUrl);
		await form.getByRole('button', { name: 'Test connection' }).click();
		await expect(page.getByTestId('model-abilities')).toContainText('score text ✓');
		await page.getByRole('link', { name: 'Explore' }).click();
		await expect(model.locator('option')).toHaveText([
			'gpt2-en-small',
			'gpt2-random-tiny',
			'gpt2-random-tiny (endpoint)',
		]);
		await model.selectOption('gpt2-random-tiny (endpoint)');
		await page.getByTestId('explore-compare').selectOption('gpt2-random-tiny');
		await page.getByTestId('explore-text').fill('The dog barks.');
		await page.getByRole('button', { name: 'Score' }).click();
		await expect(page.getByTestId('explore-status')).toContainText(
			'Scored with gpt2-random-tiny (endpoint) and gpt2-random-tiny.',
			{ timeout: 60_000 },
		);
		const strips = page.getByTestId('explore-series');
		await expect(strips).toHaveCount(2);
		// The same weights behind the endpoint and in the tab: the same tokens.
		const tokens = (index: number) => strips.nth(index).locator('[data-token]');
		await expect(tokens(0)).toHaveCount(await tokens(1).count());
	});
});
