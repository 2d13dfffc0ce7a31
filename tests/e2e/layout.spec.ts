// Layout on real screens (390 px phone, 1280 px laptop) with the REAL engine and the bundled
// gpt2-random-tiny: after picking a suite the Run button is on screen; results, items and
// history fit the window (cards on the phone), numbers are not cut, sentences get room,
// condition names break between words only.
import { expect, test, type Locator, type Page } from '@playwright/test';

const SCREENSHOTS = 'tests/e2e/screenshots';
const progress = (page: Page) => page.getByRole('region', { name: 'Run progress' });

/** The page does not scroll sideways. */
async function pageWidth(page: Page): Promise<number> {
	return page.evaluate(() => document.documentElement.scrollWidth);
}

/** Elements whose text overflows their box (cut numbers), as their text. */
async function cutTexts(cells: Locator): Promise<string[]> {
	return cells.evaluateAll((elements) =>
		elements
			.filter((element) => element.scrollWidth > element.clientWidth + 1)
			.map((element) => element.textContent?.trim() ?? ''),
	);
}

/** Words split across two lines inside the elements (a mid-word break), as the words. */
async function brokenWords(elements: Locator): Promise<string[]> {
	return elements.evaluateAll((nodes) => {
		const broken: string[] = [];
		for (const node of nodes) {
			const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
			for (let text = walker.nextNode(); text; text = walker.nextNode()) {
				const content = text.textContent ?? '';
				for (const match of content.matchAll(/\S+/g)) {
					const range = document.createRange();
					range.setStart(text, match.index);
					range.setEnd(text, match.index + match[0].length);
					const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
					if (tops.size > 1) broken.push(match[0]);
				}
			}
		}
		return broken;
	});
}

for (const [width, height] of [
	[390, 844],
	[1280, 800],
] as const) {
	test(`layout at ${width} px: run in reach, results, items and history fit`, async ({ page }) => {
		await page.setViewportSize({ width, height });
		await page.goto('/');
		await page.getByRole('button', { name: /Garden path: main verb \/ reduced relative/ }).click();
		await expect(page.getByRole('heading', { name: /Garden path: main verb/ })).toBeVisible();
		// Point 1: the Run button is within reach right after picking the suite.
		const run = page.getByRole('button', { name: 'Run suite' });
		await expect(run).toBeInViewport();
		await expect(page.getByTestId('run-bar')).toContainText(/Garden path: main verb/);
		await page.screenshot({ path: `${SCREENSHOTS}/layout-${width}-run.png` });
		expect(await pageWidth(page)).toBeLessThanOrEqual(width);

		await page.getByLabel('Bundled model (works offline)').selectOption('gpt2-random-tiny');
		await expect(run).toBeInViewport();
		// Point 2: a bundled model brings its own convention (bos), said next to the model.
		await expect(page.getByTestId('run-bar')).toContainText('with gpt2-random-tiny (bos)');
		await expect(page.getByTestId('convention-note')).toContainText('Convention: bos.');
		await expect(page.getByTestId('convention-note')).toContainText(
			'gpt2-random-tiny: its model card scores tokenizer → BOS → model',
		);
		await run.click();
		await expect(progress(page).getByText('16 / 16 items')).toBeVisible({ timeout: 120_000 });
		await expect(page.getByRole('heading', { name: 'Accuracy', exact: true })).toBeVisible();
		expect(await pageWidth(page)).toBeLessThanOrEqual(width);

		// Accuracy numbers are whole and on screen.
		const numbers = page.locator(
			'[data-testid="prediction-accuracy"] td.number, [data-testid="item-accuracy"] td.number',
		);
		expect(await numbers.count()).toBeGreaterThan(0);
		expect(await cutTexts(numbers)).toEqual([]);
		for (const box of await numbers.evaluateAll((cells) =>
			cells.map((cell) => cell.getBoundingClientRect().right),
		)) {
			expect(box).toBeLessThanOrEqual(width);
		}

		// Sentences get room (not slivers) and condition names break between words only.
		const sentences = page.getByTestId('item-grid').locator('dd');
		const sentenceWidths = await sentences.evaluateAll((cells) =>
			cells.map((cell) => cell.getBoundingClientRect().width),
		);
		expect(sentenceWidths).toHaveLength(64);
		expect(Math.min(...sentenceWidths)).toBeGreaterThanOrEqual(width < 600 ? 250 : 300);
		expect(await brokenWords(page.getByTestId('item-grid').locator('dt'))).toEqual([]);
		// Point 3: the prediction in words beside its formula; the critical region highlighted.
		await expect(page.getByTestId('prediction-words').first()).toContainText(
			'The surprisal of region 6 (main_verb) in “reduced_ambig” minus',
		);
		const critical = page.getByTestId('item-grid').locator('mark.critical');
		await expect(critical.first()).toBeVisible();
		await expect(critical.first()).toHaveText('cried');
		await page.screenshot({ path: `${SCREENSHOTS}/layout-${width}-results.png`, fullPage: true });

		await page.getByRole('link', { name: 'Library' }).click();
		await expect(page.getByRole('heading', { name: 'Library', exact: true })).toBeVisible();
		expect(await pageWidth(page)).toBeLessThanOrEqual(width);
		// The history table needs no sideways scrolling: status and actions are on screen.
		const history = page.locator('table.history');
		const historyBox = await history.evaluate((table) => ({
			width: table.getBoundingClientRect().width,
			scroll: table.parentElement?.scrollWidth ?? 0,
			box: table.parentElement?.clientWidth ?? 0,
		}));
		console.log(`history table at ${width} px: ${Math.round(historyBox.width)} px wide`);
		expect(historyBox.scroll).toBeLessThanOrEqual(historyBox.box);
		for (const name of ['Open run 1', 'Delete run 1']) {
			const button = page.getByRole('button', { name });
			// The Library's filters come first: on a phone the run's card is one scroll down.
			await button.scrollIntoViewIfNeeded();
			await expect(button).toBeInViewport();
			const box = await button.boundingBox();
			expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
		}
		await expect(page.getByRole('cell', { name: /done, 16\/16 items/ })).toBeVisible();
		await page.screenshot({ path: `${SCREENSHOTS}/layout-${width}-history.png`, fullPage: true });
	});
}
