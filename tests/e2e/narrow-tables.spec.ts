// Wide tables on a 390 px phone (issue 30, item 6): the matrix of two model columns and its McNemar
// table keep their first column in view (position: sticky) and, while wider than their scroll box,
// show a visible cue line and an edge shadow; the past-runs table wraps between words only (a
// Memory run played back from a replay file, no model); the response cache keeps a model id on one
// line and cues its sideways scroll.
import { expect, test, type Locator, type Page } from '@playwright/test';

const PHONE = { width: 390, height: 844 } as const;
const SUITE = /Subject-verb agreement across a prepositional/;
const MEMORY_REPLAY = 'tests/fixtures/memory-ui/classroom-agent.replay.jsonl';

/** Runs the suite with gpt2-random-tiny under `convention`; returns the run id. */
async function runSuite(page: Page, convention: string): Promise<number> {
	await page.goto('/');
	await page.getByRole('button', { name: SUITE }).click();
	await expect(page.getByRole('heading', { name: SUITE })).toBeVisible();
	await page.getByLabel('Bundled model (works offline)').selectOption('gpt2-random-tiny');
	await page.getByLabel('Surprisal convention').selectOption(convention);
	await page.getByRole('button', { name: 'Run suite' }).click();
	await expect(page).toHaveURL(/#\/results\/\d+$/);
	await expect(page.getByTestId('results-status')).toContainText('Done', { timeout: 120_000 });
	return Number(/#\/results\/(\d+)$/.exec(page.url())?.[1]);
}

/** Computed `position` of the first cell of every row of `table`. */
async function firstCellPositions(table: Locator): Promise<string[]> {
	return table.evaluate((element) =>
		[...element.querySelectorAll('tr')].map((row) => {
			const first = row.firstElementChild;
			return first ? getComputedStyle(first).position : 'none';
		}),
	);
}

/** The scroll box around `table`: wider content than box, and the cue line after it shown. */
async function expectScrollCue(table: Locator): Promise<void> {
	const box = table.locator('xpath=ancestor::div[contains(@class, "table-scroll")][1]');
	// The attachment updates on its ResizeObserver, a frame after the viewport changed.
	await expect(box).toHaveAttribute('data-overflow', 'more');
	const overflow = await box.evaluate((element) => ({
		wider: element.scrollWidth > element.clientWidth,
		shadow: getComputedStyle(element).boxShadow,
	}));
	expect(overflow.wider).toBe(true);
	expect(overflow.shadow).not.toBe('none');
	await expect(box.locator('xpath=following-sibling::*[1]')).toHaveClass(/scroll-cue/);
	await expect(box.locator('xpath=following-sibling::*[1]')).toBeVisible();
	await expect(box.locator('xpath=following-sibling::*[1]')).toContainText('scroll the table');
}

/**
 * Words split across two lines inside the elements other than after a hyphen (a mid-word break
 * such as "proto|col/ours"), as the word with `|` where it was split.
 */
async function brokenWords(elements: Locator): Promise<string[]> {
	return elements.evaluateAll((nodes) => {
		const broken: string[] = [];
		const topOf = (text: Node, at: number): number => {
			const range = document.createRange();
			range.setStart(text, at);
			range.setEnd(text, at + 1);
			return Math.round(range.getBoundingClientRect().top);
		};
		for (const node of nodes) {
			const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
			for (let text = walker.nextNode(); text; text = walker.nextNode()) {
				const content = text.textContent ?? '';
				for (const match of content.matchAll(/\S+/g)) {
					const word = match[0];
					const first = topOf(text, match.index);
					for (let i = 1; i < word.length; i++) {
						if (topOf(text, match.index + i) === first) continue;
						if (word[i - 1] !== '-') broken.push(`${word.slice(0, i)}|${word.slice(i)}`);
						break;
					}
				}
			}
		}
		return broken;
	});
}

test('390 px: the matrix and its McNemar table keep the first column and cue the scroll', async ({
	page,
}) => {
	test.setTimeout(300_000);
	const runIds = [await runSuite(page, 'bos'), await runSuite(page, 'reference')];
	await page.getByRole('link', { name: 'Library' }).click();
	for (const runId of runIds) {
		await page.getByRole('checkbox', { name: `Pick run ${runId} for the matrix` }).check();
	}
	await page.getByRole('button', { name: /^Matrix of picked runs/ }).click();
	const matrix = page.getByRole('table', { name: /Item accuracy per suite and model/ });
	const mcnemar = page.getByRole('table', { name: /McNemar tests of/ });
	await expect(matrix.locator('thead th')).toHaveCount(3);
	await expect(mcnemar).toBeVisible();

	await page.setViewportSize(PHONE);
	for (const table of [matrix, mcnemar]) {
		const positions = await firstCellPositions(table);
		expect(positions.length).toBeGreaterThan(2);
		expect(positions.every((position) => position === 'sticky')).toBe(true);
		await expectScrollCue(table);
	}
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
	// Scrolled to its end, the box still says it scrolls; at 1280 px nothing overflows, no cue.
	const box = matrix.locator('xpath=ancestor::div[contains(@class, "table-scroll")][1]');
	await box.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
	await expect(box).toHaveAttribute('data-overflow', 'end');
	await page.setViewportSize({ width: 1280, height: 800 });
	await expect(box).toHaveAttribute('data-overflow', 'none');
	await expect(box.locator('xpath=following-sibling::*[1]')).toBeHidden();
});

test('390 px: the past-runs table breaks lines between words only', async ({ page }) => {
	await page.setViewportSize(PHONE);
	await page.goto('/#/memory');
	await page.getByRole('button', { name: /^Classroom basics/ }).click();
	await expect(page.getByText(/Loaded Classroom basics: 5 tests/)).toBeVisible();
	const agent = page.getByRole('group', { name: 'Agent' });
	await agent.getByLabel('Replay file').check();
	await page.getByTestId('policy-replay').setInputFiles(MEMORY_REPLAY);
	await page.getByRole('button', { name: 'Run tests' }).click();
	await expect(page.getByTestId('memory-progress')).toContainText('done', { timeout: 60_000 });

	const pastRuns = page
		.getByRole('region', { name: 'Past memory runs', exact: true })
		.getByRole('table');
	await expect(pastRuns.locator('tbody tr')).toHaveCount(1);
	const cells = pastRuns.locator('th, td');
	const wraps = await cells.evaluateAll((elements) =>
		elements.map((element) => getComputedStyle(element).overflowWrap),
	);
	expect(wraps.filter((wrap) => wrap === 'anywhere')).toEqual([]);
	expect(await brokenWords(cells)).toEqual([]);
	expect(await firstCellPositions(pastRuns)).toEqual(['sticky', 'sticky']);
});

test('390 px: the response cache keeps each model id on one line and cues its sideways scroll', async ({
	page,
}) => {
	// An Evals run on a local model fills the cache (12 completions).
	await page.goto('/#/evals');
	await page
		.getByRole('group', { name: 'Model under test' })
		.getByLabel('Model', { exact: true })
		.selectOption('gpt2-random-tiny');
	await page
		.getByRole('button', { name: /^capitals\b/ })
		.first()
		.click();
	await page.locator('table.params').first().getByLabel('Max new tokens').fill('2');
	await page.getByRole('button', { name: 'Run eval' }).click();
	await expect(page.getByTestId('evals-metrics')).toBeVisible({ timeout: 120_000 });

	await page.setViewportSize(PHONE);
	await page.goto('/#/history');
	const cache = page.getByRole('region', { name: 'Cached completions' }).getByRole('table');
	await expect(cache.locator('tbody tr')).toHaveCount(12);
	expect(await brokenWords(cache.locator('tbody td:first-child'))).toEqual([]);
	await expectScrollCue(cache);
});
