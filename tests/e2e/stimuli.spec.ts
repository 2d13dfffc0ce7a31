// The Stimuli page with the REAL engine (bundled models): the example file scored on two models,
// the downloaded CSV equal to the CLI's `stimuli` output for the same file and choices (text
// cells exactly, bits within 1e-4: the tab's WASM and Node's onnxruntime sum floats in their own
// order); one word per row; a reload mid-run and Resume with no word lost or twice; a run bundle
// opened again; a bad file refused with its line and column.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { axeSummaryInBothThemes } from './axe';

const EXAMPLE = 'garden-path-reading.csv';
const BITS_COLUMNS = new Set(['surprisal_bits', 'surprisal_bow_bits', 'entropy_bits']);

async function download(page: Page, buttonName: string): Promise<string> {
	const [file] = await Promise.all([
		page.waitForEvent('download'),
		page.getByRole('button', { name: buttonName, exact: true }).click(),
	]);
	return readFileSync(await file.path(), 'utf8');
}

/** Writes `lines` as a file named `name` in the test's output folder, opens the Stimuli page
 * and picks it there; returns its path (for the CLI). */
async function openStimuliFile(
	page: Page,
	name: string,
	lines: readonly string[],
): Promise<string> {
	const path = test.info().outputPath(name);
	writeFileSync(path, `${lines.join('\n')}\n`);
	await page.goto('/#/stimuli');
	await page.getByTestId('stimuli-file').setInputFiles(path);
	return path;
}

/** The CLI's table for a file and flags (its provenance goes to stderr). */
function cliTable(args: readonly string[]): string {
	return execFileSync('npm', ['run', '--silent', 'cli', '--', 'stimuli', ...args], {
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'ignore'],
	});
}

/** Parses a CSV this app writes (RFC 4180, CRLF). */
function parseCsv(text: string): string[][] {
	const rows: string[][] = [];
	let row: string[] = [];
	let field = '';
	let quoted = false;
	for (let i = 0; i < text.length; i += 1) {
		const c = text[i];
		if (quoted) {
			if (c === '"' && text[i + 1] === '"') {
				field += '"';
				i += 1;
			} else if (c === '"') quoted = false;
			else field += c;
		} else if (c === '"') quoted = true;
		else if (c === ',') {
			row.push(field);
			field = '';
		} else if (c === '\n' || c === '\r') {
			if (c === '\r' && text[i + 1] === '\n') i += 1;
			row.push(field);
			rows.push(row);
			row = [];
			field = '';
		} else field += c;
	}
	if (field !== '' || row.length > 0) rows.push([...row, field]);
	return rows;
}

/** The app's table equals the CLI's: every cell, bits within 1e-4. */
function expectSameTable(app: string, cli: string): void {
	const a = parseCsv(app);
	const b = parseCsv(cli);
	expect(a[0]).toEqual(b[0]);
	expect(a.length).toBe(b.length);
	const header = a[0] ?? [];
	let largest = 0;
	for (let r = 1; r < a.length; r += 1) {
		header.forEach((name, c) => {
			const x = a[r]?.[c] ?? '';
			const y = b[r]?.[c] ?? '';
			if (BITS_COLUMNS.has(name) && x !== 'NA' && y !== 'NA') {
				largest = Math.max(largest, Math.abs(Number(x) - Number(y)));
			} else if (name === 'top_next_tokens' && x !== 'NA') {
				// The same tokens in the same order; probabilities (4 digits) within 1e-3 of each other.
				const [a, b] = [x, y].map((cell) =>
					cell.split(' | ').map((entry) => {
						const at = entry.lastIndexOf(' ');
						return [entry.slice(0, at), Number(entry.slice(at + 1))] as const;
					}),
				);
				expect(`${r}:${a?.map(([text]) => text).join('|')}`).toBe(
					`${r}:${b?.map(([text]) => text).join('|')}`,
				);
				a?.forEach(([, p], i) => {
					const q = b?.[i]?.[1] ?? NaN;
					expect(Math.abs(p - q) / q).toBeLessThan(1e-3);
				});
			} else expect(`${r}:${name}:${x}`).toBe(`${r}:${name}:${y}`);
		});
	}
	console.log(`stimuli: app vs CLI, ${a.length - 1} rows: max |Δ| = ${largest} bits`);
	expect(largest).toBeLessThan(1e-4);
}

test('the example on two models: the CSV and the token table equal the CLI’s, the bundle opens again, the link reproduces', async ({
	page,
	browser,
}) => {
	await page.goto('/#/stimuli');
	await page.getByRole('button', { name: EXAMPLE }).click();
	await expect(page.getByTestId('stimuli-file-facts')).toContainText('12 rows, 3 columns');
	await page.getByLabel('gpt2-random-tiny').check();
	await expect(page.getByTestId('stimuli-word-count')).toContainText(
		'106 words to score on each of 2 models',
	);
	await page.getByRole('button', { name: 'Score words' }).click();
	await expect(page.getByTestId('stimuli-progress')).toContainText('212 of 212 words', {
		timeout: 120_000,
	});
	const table = page.getByTestId('stimuli-table');
	await expect(table.locator('thead th')).toHaveText([
		'item',
		'condition',
		'sentence',
		'word_index',
		'word',
		'tokens',
		'token_count',
		'surprisal_bits',
		'surprisal_bow_bits',
		'entropy_bits',
		'model',
	]);
	await expect(table.locator('tbody tr')).toHaveCount(200);
	await expect(page.getByText('The first 200 of 212 rows')).toBeVisible();

	const csv = await download(page, 'Table (CSV)');
	expectSameTable(
		csv,
		cliTable([
			`suites/stimuli/${EXAMPLE}`,
			'--text',
			'sentence',
			'--model',
			'gpt2-en-small,gpt2-random-tiny',
		]),
	);
	// The token table: the run's texts scored again, one row per model token, as the CLI's --tokens.
	expectSameTable(
		await download(page, 'Token table (CSV)'),
		cliTable([
			`suites/stimuli/${EXAMPLE}`,
			'--text',
			'sentence',
			'--model',
			'gpt2-en-small,gpt2-random-tiny',
			'--tokens',
		]),
	);
	await expect(page.getByText(/Token table: \d+ token rows\./u)).toBeVisible();
	const provenance = await download(page, 'How it was made (text)');
	expect(provenance).toContain('model: gpt2-en-small; start-of-text convention: bos');

	// The bundle, opened in the Library of a fresh page: the same table.
	const bundle = await download(page, 'Run bundle (JSON)');
	const bundlePath = test.info().outputPath('run.stimuli-run.json');
	writeFileSync(bundlePath, bundle);
	await page.getByTestId('stimuli-bundle-input').setInputFiles(bundlePath);
	await expect(page.getByText(/Opened run\.stimuli-run\.json as run \d+/)).toBeVisible();
	expect(await download(page, 'Table (CSV)')).toBe(csv);
	await page.goto('/#/history');
	await expect(page.locator('tr[data-kind="stimuli"]')).toHaveCount(2);

	// The link: a fresh browser profile re-runs the first model and compares every word.
	await page.goto('/#/stimuli');
	await page.getByRole('button', { name: /^Show/ }).first().click();
	await page.getByRole('button', { name: 'Share link' }).click();
	const link = await page.getByTestId('stimuli-share-link').inputValue();
	expect(link).toMatch(/#\/stimuli\/share\/2\/[A-Za-z0-9_-]+$/u);
	const context = await browser.newContext();
	const other = await context.newPage();
	await other.goto(link);
	await expect(other.getByText(/Opened a shared run: 106 words on gpt2-en-small/)).toBeVisible();
	await other.getByRole('button', { name: 'Score words' }).click();
	await expect(other.getByText('Reproduced 106/106 words')).toBeVisible({ timeout: 120_000 });
	await context.close();
});

test('one word per row, ordered by a column: the same table as the CLI', async ({ page }) => {
	const rows = ['sentence_id,position,word,rt_ms'];
	const sentences = ['The old man the boat.', 'While Anna dressed the baby cried.'];
	sentences.forEach((sentence, s) => {
		const words = sentence.split(' ');
		// Written in reverse: the position column gives the reading order.
		for (let w = words.length - 1; w >= 0; w -= 1) {
			rows.push(`${s + 1},${w + 1},"${words[w]}",${300 + 10 * w}`);
		}
	});
	const path = await openStimuliFile(page, 'spr.csv', rows);
	await page.getByLabel('One word per row').check();
	await page.getByLabel('Word column').selectOption('word');
	await page.getByLabel('Sentence column (groups the words)').selectOption('sentence_id');
	await page.getByLabel('Word order column').selectOption('position');
	await expect(page.getByTestId('stimuli-word-count')).toContainText('11 words to score');
	await page.getByRole('button', { name: 'Score words' }).click();
	await expect(page.getByTestId('stimuli-progress')).toContainText('11 of 11 words', {
		timeout: 60_000,
	});
	await expect(page.getByTestId('stimuli-table').locator('tbody tr').first()).toContainText('The');
	expectSameTable(
		await download(page, 'Table (CSV)'),
		cliTable([path, '--word', 'word', '--by', 'sentence_id', '--word-n', 'position']),
	);
});

test('the figure around a critical word: found by position or by the word, its means from the table', async ({
	page,
}) => {
	await openStimuliFile(page, 'critical.csv', [
		'item,condition,critical,sentence',
		'1,ambiguous,4,The old man the boat quickly.',
		'2,unambiguous,4,The old men run the boat quickly.',
		'3,ambiguous,boat,The young man the boat slowly.',
		'4,unambiguous,walk,The young men steer the boat slowly.',
	]);
	await expect(page.getByTestId('stimuli-word-count')).toContainText('26 words to score');
	await page.getByRole('button', { name: 'Score words' }).click();
	await expect(page.getByTestId('stimuli-progress')).toContainText('26 of 26 words', {
		timeout: 60_000,
	});
	// A column named 'critical' is picked; item 4 names a word its sentence lacks (line 5).
	await expect(page.getByLabel('Critical word column')).toHaveValue('critical');
	await expect(
		page.getByRole('heading', { name: 'Mean surprisal around the critical word' }),
	).toBeVisible();
	await expect(page.getByTestId('stimuli-critical-note')).toContainText('3 critical words');
	await expect(page.getByTestId('stimuli-critical-note')).toContainText(
		'Matched none of their words: line 5.',
	);
	// The mean at the critical word, per condition, from the downloaded table's own cells.
	const [header, ...rows] = parseCsv(await download(page, 'Table (CSV)'));
	const col = (name: string): number => header?.indexOf(name) ?? -1;
	const bitsAt = (item: string, word: string): number => {
		const row = rows.find((r) => r[col('item')] === item && r[col('word')] === word);
		return Number(row?.[col('surprisal_bits')]);
	};
	const ambiguous = (bitsAt('1', 'the') + bitsAt('3', 'boat')) / 2;
	const unambiguous = bitsAt('2', 'run');
	await page.getByText("The figure's numbers").click();
	const numbers = page.getByTestId('stimuli-figure-table');
	const meanOf = async (condition: string): Promise<number> =>
		Number(
			await numbers
				.locator('tbody tr', { hasText: condition })
				.filter({ has: page.getByRole('cell', { name: 'critical', exact: true }) })
				.locator('td')
				.nth(3)
				.innerText(),
		);
	expect(await meanOf('unambiguous')).toBeCloseTo(unambiguous, 3);
	expect(
		await numbers
			.locator('tbody tr')
			.filter({ has: page.getByRole('cell', { name: 'critical', exact: true }) })
			.first()
			.locator('td')
			.nth(3)
			.innerText(),
	).toBe(ambiguous.toFixed(3));
	// The ? beside the column says what a critical word is.
	await page.getByRole('button', { name: 'What is critical word?' }).click();
	await expect(
		page.getByText(/The word of each stimulus where the conditions are meant to differ/),
	).toBeVisible();
	// None: back to word positions.
	await page.getByLabel('Critical word column').selectOption('');
	await expect(
		page.getByRole('heading', { name: 'Mean surprisal by word position' }),
	).toBeVisible();
});

test('top next tokens: the same column as the CLI’s --top-k', async ({ page }) => {
	const path = await openStimuliFile(page, 'top.csv', [
		'item,sentence',
		'1,The cat sat on the mat.',
		'2,It was on the table.',
	]);
	await page.getByLabel('Top next tokens per word').fill('3');
	await page.getByRole('button', { name: 'Score words' }).click();
	await expect(page.getByTestId('stimuli-progress')).toContainText('11 of 11 words', {
		timeout: 60_000,
	});
	await expect(page.getByTestId('stimuli-table').locator('thead th').nth(-2)).toHaveText(
		'top_next_tokens',
	);
	expectSameTable(
		await download(page, 'Table (CSV)'),
		cliTable([path, '--text', 'sentence', '--top-k', '3']),
	);
});

test('context + target: only the target’s words, the same table as the CLI', async ({ page }) => {
	const path = await openStimuliFile(page, 'cloze.csv', [
		'item,context,target',
		'1,She poured the coffee into a,cup.',
		'2,She poured the coffee into a,shoe.',
		'3,"At night the sky was dark, and the",stars were bright.',
	]);
	await page.getByLabel('Context + target').check();
	await page.getByLabel('Context column').selectOption('context');
	await page.getByLabel('Target column').selectOption('target');
	await expect(page.getByTestId('stimuli-word-count')).toContainText('5 words to score');
	await page.getByRole('button', { name: 'Score words' }).click();
	await expect(page.getByTestId('stimuli-progress')).toContainText('5 of 5 words', {
		timeout: 60_000,
	});
	expectSameTable(
		await download(page, 'Table (CSV)'),
		cliTable([path, '--context', 'context', '--target', 'target']),
	);
});

test('a reload mid-run, then Resume: every word once', async ({ page }) => {
	const rows = ['id,sentence'];
	for (let i = 0; i < 600; i += 1) {
		rows.push(`${i + 1},Sentence number ${i + 1} is read by the model once and only once.`);
	}
	await openStimuliFile(page, 'many.csv', rows);
	await expect(page.getByTestId('stimuli-word-count')).toContainText('7200 words to score');
	await page.getByRole('button', { name: 'Score words' }).click();
	await expect(page.getByTestId('stimuli-progress')).toContainText(/[1-9]\d* of 7200 words/, {
		timeout: 120_000,
	});
	await page.reload();
	const stopped = page.getByRole('button', { name: /^Resume/ }).first();
	await expect(stopped).toBeVisible();
	await stopped.click();
	await expect(page.getByTestId('stimuli-progress')).toContainText('7200 of 7200 words', {
		timeout: 300_000,
	});
	const csv = parseCsv(await download(page, 'Table (CSV)'));
	expect(csv).toHaveLength(1 + 7200);
	const keys = new Set(csv.slice(1).map((row) => `${row[0]}:${row[2]}`));
	expect(keys.size).toBe(7200);

	// The page's own list deletes a run only after a confirm (as the Library does).
	const pastRuns = page.getByRole('table', { name: 'Table of past stimuli runs' });
	const deleteButton = pastRuns.getByRole('button', { name: /^Delete run \d+$/ });
	await expect(deleteButton).toHaveCount(1);
	const asked: string[] = [];
	page.once('dialog', (dialog) => {
		asked.push(dialog.message());
		void dialog.dismiss();
	});
	await deleteButton.click();
	await expect.poll(() => asked.length).toBe(1);
	expect(asked[0]).toMatch(/^Delete run \d+ \(many\.csv\)\? This cannot be undone\.$/);
	await expect(deleteButton).toHaveCount(1);
	page.once('dialog', (dialog) => void dialog.accept());
	await deleteButton.click();
	await expect(page.getByText('No stimuli runs in this browser yet.')).toBeVisible();
	await expect(pastRuns).toHaveCount(0);
});

test('a file whose quote never closes is refused with its line and column', async ({ page }) => {
	await openStimuliFile(page, 'bad.csv', ['id,sentence', '1,"The dog barked.', '2,The cat slept.']);
	await expect(page.getByRole('alert')).toContainText(/bad\.csv:2:3/);
	await expect(page.getByRole('button', { name: 'Score words' })).toBeDisabled();
});

test.describe('with axe injected', () => {
	test.use({ bypassCSP: true });

	test('the figure by condition, its PNG, and axe on each state of the page at 1280 and 390 px', async ({
		page,
	}) => {
		const counts: Record<string, number> = {};
		const problems: string[] = [];
		async function sweep(state: string): Promise<void> {
			for (const size of [
				{ width: 1280, height: 800 },
				{ width: 390, height: 844 },
			]) {
				await page.setViewportSize(size);
				const lines = await axeSummaryInBothThemes(page, `${state} @${size.width}`);
				counts[`${state} @${size.width}`] = lines.length;
				problems.push(...lines);
			}
			await page.setViewportSize({ width: 1280, height: 800 });
			await page.emulateMedia({ colorScheme: 'light' });
		}
		await page.goto('/#/stimuli');
		await expect(page.getByRole('heading', { name: 'Stimuli', level: 2 })).toBeVisible();
		await sweep('stimuli (empty)');
		await page.getByRole('button', { name: EXAMPLE }).click();
		await expect(page.getByTestId('stimuli-word-count')).toContainText('106 words');
		await sweep('stimuli (file picked)');
		await page.getByRole('button', { name: 'Score words' }).click();
		await expect(page.getByTestId('stimuli-progress')).toContainText('106 of 106 words', {
			timeout: 120_000,
		});
		// The figure: the condition column is picked by its name; each condition has its means.
		await expect(page.getByLabel('Condition column')).toHaveValue('condition');
		const numbers = page.getByTestId('stimuli-figure-table');
		await page.getByText("The figure's numbers").click();
		await expect(numbers.locator('tbody tr').first()).toContainText(/^ambiguous1\d+/u);
		await expect(numbers).toContainText('unambiguous');
		const [png] = await Promise.all([
			page.waitForEvent('download'),
			page.getByRole('button', { name: 'Figure (PNG)' }).click(),
		]);
		const bytes = readFileSync(await png.path());
		expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
		// The SVG: one bar per mean in the figure's numbers, both conditions in its legend.
		const [svgDownload] = await Promise.all([
			page.waitForEvent('download'),
			page.getByRole('button', { name: 'Figure (SVG)' }).click(),
		]);
		expect(svgDownload.suggestedFilename()).toMatch(/\.surprisal-by-position\.svg$/u);
		const svg = readFileSync(await svgDownload.path(), 'utf8');
		expect(svg).toMatch(/^<\?xml[^>]*>\n<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/u);
		expect(svg.match(/<rect class="bar"/gu)?.length).toBe(
			await numbers.locator('tbody tr').count(),
		);
		expect(svg).toContain('>ambiguous</text>');
		expect(svg).toContain('>unambiguous</text>');
		// The heat strips: the example's 12 texts, the first one's 8 words (each word one button).
		const heat = page.getByTestId('stimuli-heat-strips');
		await heat.locator('summary').click();
		await expect(heat.locator('summary')).toContainText('the first 12 texts (gpt2-en-small)');
		await expect(heat.locator('.heat-strip')).toHaveCount(12);
		await expect(heat.locator('.heat-strip').first().locator('[data-token]')).toHaveCount(8);
		await sweep('stimuli (done)');
		await page.getByTestId('stimuli-file').setInputFiles({
			name: 'bad.csv',
			mimeType: 'text/csv',
			buffer: Buffer.from('id,sentence\n1,"open\n'),
		});
		await expect(page.getByRole('alert')).toBeVisible();
		await sweep('stimuli (bad file)');
		console.log(`axe sweep: ${JSON.stringify(counts)}`);
		expect(problems).toEqual([]);
	});
});
