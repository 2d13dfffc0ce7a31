// The beginning-of-word correction with the REAL engine (bundled gpt2-random-tiny): a bundled
// suite run with word-boundary probabilities on; the drill-down's corrected words equal
// `sumSurprisalsToWords` with the boundary values of the tokens the run stored (read back from
// IndexedDB here); the corrected word TSV has the same values; axe on the drill-down with the
// checkbox; the explorer's link with bow=1 scores and shows corrected words.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { formatPythonFloat } from '../../src/core/python/python-float';
import type { ScoredToken } from '../../src/core/scoring/scored-token';
import { sumSurprisalsToWords } from '../../src/core/scoring/word-surprisal';
import { axeSummary } from './axe';

const TINY = 'gpt2-random-tiny';
const SUITE_FILE = 'subject-verb-agreement-pp.json';
const SUITE_NAME = 'Subject-verb agreement across a prepositional phrase';
const ITEM_COUNT = 16;

// axe is injected as an inline script, which the app's CSP forbids.
test.use({ bypassCSP: true });

async function dropFile(page: Page, name: string, content: string): Promise<void> {
	const dataTransfer = await page.evaluateHandle(
		({ name, content }) => {
			const transfer = new DataTransfer();
			transfer.items.add(new File([content], name, { type: 'application/json' }));
			return transfer;
		},
		{ name, content },
	);
	for (const type of ['dragenter', 'dragover', 'drop']) {
		await page.dispatchEvent('header', type, { dataTransfer });
	}
}

interface StoredSentence {
	conditionName: string;
	text: string;
	tokens: ScoredToken[];
	boundarySurprisalBits: number[] | null;
}

/** One stored item of a run as the app's IndexedDB holds it (column-wise rows, read raw). */
async function storedSentences(
	page: Page,
	runId: number,
	itemNumber: number,
): Promise<StoredSentence[]> {
	return page.evaluate(
		async ({ runId, itemNumber }) => {
			const db = await new Promise<IDBDatabase>((resolve, reject) => {
				const request = indexedDB.open('benchtop');
				request.onsuccess = () => resolve(request.result);
				request.onerror = () => reject(request.error);
			});
			const row = await new Promise<{
				sentences: {
					conditionName: string;
					text: string;
					tokens: string[];
					surprisalsBits: Float64Array;
					starts: Int32Array;
					ends: Int32Array;
					special: Uint8Array;
					boundarySurprisalsBits?: Float64Array;
				}[];
			}>((resolve, reject) => {
				const request = db.transaction('runItems').objectStore('runItems').get([runId, itemNumber]);
				request.onsuccess = () => resolve(request.result);
				request.onerror = () => reject(request.error);
			});
			db.close();
			return row.sentences.map((sentence) => ({
				conditionName: sentence.conditionName,
				text: sentence.text,
				tokens: sentence.tokens.map((token, index) => ({
					token,
					surprisalBits: sentence.surprisalsBits[index] ?? Number.NaN,
					...((sentence.starts[index] ?? -1) >= 0 ? { start: sentence.starts[index] } : {}),
					...((sentence.ends[index] ?? -1) >= 0 ? { end: sentence.ends[index] } : {}),
					...(sentence.special[index] === 1 ? { special: true } : {}),
				})),
				boundarySurprisalBits: sentence.boundarySurprisalsBits
					? Array.from(sentence.boundarySurprisalsBits)
					: null,
			}));
		},
		{ runId, itemNumber },
	) as Promise<StoredSentence[]>;
}

test('a run with word boundaries: corrected words in the drill-down and the TSV equal the core rule on the stored tokens', async ({
	page,
}) => {
	await page.goto('/');
	await dropFile(page, SUITE_FILE, readFileSync(`suites/${SUITE_FILE}`, 'utf8'));
	await expect(page.getByRole('heading', { name: SUITE_NAME })).toBeVisible();
	await page.getByLabel('Bundled model (works offline)').selectOption(TINY);
	const option = page.getByLabel(/Word-boundary probabilities/);
	await expect(option).not.toBeChecked();
	await option.check();
	await expect(page.locator('#run-blocker')).toContainText('word boundaries');
	await page.getByRole('button', { name: 'Run suite' }).click();
	await expect(page).toHaveURL(/#\/results\/\d+$/);
	await expect(page.getByTestId('results-status')).toContainText(
		`Done: ${ITEM_COUNT} of ${ITEM_COUNT} items`,
		{ timeout: 120_000 },
	);
	const runId = Number(/#\/results\/(\d+)/.exec(page.url())?.[1]);

	await page.getByRole('link', { name: 'Item 1: token surprisals' }).click();
	const drillDown = page.getByTestId('drill-down');
	await drillDown.getByLabel('Words (tokens summed)').check();
	const correction = drillDown.getByRole('checkbox', { name: 'Beginning-of-word correction' });
	await expect(correction).toBeEnabled();
	// Keyboard: the checkbox takes the focus and Space checks it.
	await correction.focus();
	await page.keyboard.press('Space');
	await expect(correction).toBeChecked();
	await expect(
		drillDown.getByRole('heading', { name: /beginning-of-word corrected/ }),
	).toBeVisible();

	// The words of the first condition, as shown (text and exact value)…
	const strip = drillDown.getByRole('group', { name: /Token surprisals of condition/ }).first();
	const shown = await strip
		.locator('[data-token]:not(.special)')
		.evaluateAll((buttons) =>
			buttons.map((button) => [
				button.querySelector('.text')?.textContent ?? '',
				button.querySelector('.tip strong')?.textContent ?? '',
			]),
		);
	// …equal the core rule on the tokens and boundary values the run stored.
	const [sentence] = await storedSentences(page, runId, 1);
	expect(sentence?.boundarySurprisalBits).not.toBeNull();
	const boundarySurprisalBits = sentence?.boundarySurprisalBits ?? [];
	expect(boundarySurprisalBits).toHaveLength(sentence?.tokens.length ?? -1);
	// −log₂ of a probability: finite and not below 0 (to float rounding).
	expect(boundarySurprisalBits.filter((bits) => !(Number.isFinite(bits) && bits > -1e-6))).toEqual(
		[],
	);
	const corrected = sumSurprisalsToWords(sentence?.text ?? '', sentence?.tokens ?? [], {
		boundarySurprisalBits,
	});
	expect(corrected.length).toBeGreaterThan(3);
	expect(shown).toEqual(
		corrected.map((word) => [word.word, formatPythonFloat(word.surprisalBits)]),
	);
	const plain = sumSurprisalsToWords(sentence?.text ?? '', sentence?.tokens ?? []);
	expect(corrected.map((w) => w.surprisalBits)).not.toEqual(plain.map((w) => w.surprisalBits));

	expect(await axeSummary(page, 'drill-down, corrected words')).toEqual([]);

	// The corrected word TSV: same words and values for item 1's first condition.
	const [download] = await Promise.all([
		page.waitForEvent('download'),
		page
			.getByRole('button', { name: 'Word surprisals, beginning-of-word corrected (TSV)' })
			.click(),
	]);
	expect(download.suggestedFilename()).toMatch(/-word-surprisals-bow\.tsv$/);
	const lines = readFileSync(await download.path(), 'utf8')
		.trimEnd()
		.split('\n');
	expect(lines[0]).toBe(
		'sentence_id\tword_id\tword\tsurprisal_bow\ttoken_count\titem_number\tcondition_name',
	);
	const firstSentence = lines
		.slice(1)
		.map((line) => line.split('\t'))
		.filter((fields) => fields[0] === '1');
	expect(firstSentence.map((fields) => [fields[2], fields[3], fields[5], fields[6]])).toEqual(
		corrected.map((word) => [
			word.word,
			formatPythonFloat(word.surprisalBits),
			'1',
			sentence?.conditionName,
		]),
	);
});

test('not offered for endpoints; a run without word boundaries offers no correction and no corrected TSV', async ({
	page,
}) => {
	await page.goto('/');
	await dropFile(page, SUITE_FILE, readFileSync(`suites/${SUITE_FILE}`, 'utf8'));
	// Not offered for an endpoint, with the reason.
	await page.getByRole('radio', { name: 'Endpoint' }).check();
	const option = page.getByLabel(/Word-boundary probabilities/);
	await expect(option).toBeDisabled();
	await expect(option).toHaveAccessibleDescription(/Endpoints return the probabilities/);
	await page.getByRole('radio', { name: 'Bundled' }).check();
	await expect(option).toBeEnabled();
	await page.getByLabel('Bundled model (works offline)').selectOption(TINY);
	await page.getByRole('button', { name: 'Run suite' }).click();
	await expect(page.getByTestId('results-status')).toContainText(`Done: ${ITEM_COUNT}`, {
		timeout: 120_000,
	});
	await page.getByRole('link', { name: 'Item 2: token surprisals' }).click();
	const drillDown = page.getByTestId('drill-down');
	await drillDown.getByLabel('Words (tokens summed)').check();
	const correction = drillDown.getByRole('checkbox', { name: 'Beginning-of-word correction' });
	await expect(correction).toBeDisabled();
	await expect(correction).toHaveAccessibleDescription(
		'Run with word-boundary probabilities on to use it.',
	);
	await expect(page.getByRole('button', { name: 'Word surprisals TSV' })).toBeVisible();
	await expect(page.getByRole('button', { name: /beginning-of-word corrected/ })).toHaveCount(0);
});

test('the explorer link with bow=1 scores with word boundaries and shows corrected words', async ({
	page,
}) => {
	await page.goto(
		`/#/explore?text=${encodeURIComponent('The dog barks.')}&model=${TINY}&unit=words&bow=1`,
	);
	await expect(page.getByTestId('explore-status')).toContainText(`Scored with ${TINY}`, {
		timeout: 60_000,
	});
	await expect(page.getByTestId('explore-bow')).toBeChecked();
	await expect(
		page.getByRole('heading', { name: 'Surprisal per word, beginning-of-word corrected' }),
	).toBeVisible();
	// BOS, then three words.
	await expect(page.getByTestId('explore-series').locator('[data-token]')).toHaveCount(4);
	await expect(page.getByTestId('explore-bow-rescore')).toHaveCount(0);
	// Unchecked: plain words, and the link drops bow.
	await page.getByTestId('explore-bow').uncheck();
	await expect(page.getByRole('heading', { name: 'Surprisal per word' })).toBeVisible();
	await expect(page.getByTestId('explore-link')).not.toHaveAttribute('href', /bow=1/);
	expect(await axeSummary(page, 'explorer, bow unchecked')).toEqual([]);
});
