/**
 * The Stimuli bench (`stimuli` part of `npm run bench`): a 10,000-word stimulus file (1,000
 * generated sentences of 10 words, our own word lists, fixed seed) scored with gpt2-en-small
 * by the CLI's `stimuli` command in this Node process (2 threads; model load from disk included)
 * and by the app's Stimuli page in Chromium (WASM; fresh profile, installed for offline use, the
 * model warmed by scoring the bundled example; from the click on Score words to the last word);
 * the longest main-thread task meanwhile; and, for a 2,000-sentence file in a fresh profile (the
 * model downloaded then), the time from picking the file to the first rows shown. Medians of
 * `repeats`.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from '@playwright/test';
import { stimuliCommand } from '../src/cli/commands/stimuli';

/** Ten slots of a sentence: The tall farmer carried a box near the old bridge. */
const SLOTS: readonly (readonly string[])[] = [
	['The', 'A', 'One'],
	['tall', 'quiet', 'young', 'busy'],
	['farmer', 'teacher', 'pilot', 'child', 'neighbour'],
	['carried', 'painted', 'noticed', 'repaired', 'borrowed'],
	['a', 'the', 'every'],
	['box', 'boat', 'chair', 'letter', 'map'],
	['near', 'behind', 'under', 'beside'],
	['the', 'an', 'that'],
	['old', 'empty', 'green', 'narrow'],
	['bridge.', 'house.', 'station.', 'garden.', 'market.'],
];

/** A stimulus CSV of `sentences` sentences of exactly 10 words each, from a fixed seed. */
export function stimulusCsv(sentences: number): { text: string; words: number } {
	let seed = 20261128;
	const pick = (list: readonly string[]): string => {
		seed = (seed * 1103515245 + 12345) % 2147483648;
		return list[seed % list.length] ?? '';
	};
	const rows = ['item,condition,sentence'];
	for (let index = 0; index < sentences; index += 1) {
		const sentence = SLOTS.map(pick).join(' ');
		rows.push(`${index + 1},${index % 2 === 0 ? 'a' : 'b'},${sentence}`);
	}
	return { text: `${rows.join('\n')}\n`, words: sentences * SLOTS.length };
}

export interface StimuliBench {
	readonly stimuli_words: number;
	readonly stimuli_10k_words_wall_s: number | null;
	readonly stimuli_10k_words_node_wall_s: number | null;
	readonly stimuli_tab_vs_node: number | null;
	readonly stimuli_longest_main_task_ms: number | null;
	readonly stimuli_2000_sentences_first_rows_ms: number | null;
	readonly measurements: {
		readonly tab_ms: number[];
		readonly node_ms: number[];
		readonly longest_task_ms: number[];
		readonly first_rows_ms: number[];
	};
}

function median(values: readonly number[]): number | null {
	if (values.length === 0) return null;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)] ?? null;
}

async function nodeWallMs(path: string, out: string): Promise<number> {
	const started = performance.now();
	const code = await stimuliCommand(
		[path, '--text', 'sentence', '--model', 'gpt2-en-small', '--threads', '2', '--output', out],
		{ stdout: () => undefined, stderr: () => undefined, readText: () => Promise.resolve('') },
	);
	if (code !== 0) throw new Error(`stimuli exited ${code}`);
	return Math.round(performance.now() - started);
}

async function tabRun(
	browser: Browser,
	origin: string,
	path: string,
	words: number,
): Promise<{ wallMs: number; longestMs: number }> {
	const context = await browser.newContext();
	try {
		const page = await context.newPage();
		await page.addInitScript(() => {
			const tasks: number[] = [];
			(window as unknown as { __longTasks: number[] }).__longTasks = tasks;
			new PerformanceObserver((list) => {
				for (const entry of list.getEntries()) tasks.push(entry.duration);
			}).observe({ type: 'longtask', buffered: true });
		});
		await page.goto(`${origin}/#/stimuli`);
		// As the app battery is timed: the app installed for offline use (its service worker caches
		// the app and the models once, in the background) and the model loaded and run once (the
		// bundled example), so the figure is the scoring's, not the first download's.
		await page.getByText('Ready to work offline').waitFor({ timeout: 180_000 });
		await page.getByRole('button', { name: 'garden-path-reading.csv' }).click();
		await page.getByRole('button', { name: 'Score words' }).click();
		await page
			.getByTestId('stimuli-progress')
			.filter({ hasText: '106 of 106 words' })
			.waitFor({ timeout: 180_000 });
		await page.getByTestId('stimuli-file').setInputFiles(path);
		await page
			.getByTestId('stimuli-word-count')
			.filter({ hasText: `${words} words` })
			.waitFor();
		await page.evaluate(() => {
			(window as unknown as { __longTasks: number[] }).__longTasks.length = 0;
		});
		const started = performance.now();
		await page.getByRole('button', { name: 'Score words' }).click();
		await page
			.getByTestId('stimuli-progress')
			.filter({ hasText: `${words} of ${words} words` })
			.waitFor({ timeout: 600_000 });
		const wallMs = Math.round(performance.now() - started);
		const longestMs = await page.evaluate(() =>
			Math.round(Math.max(0, ...(window as unknown as { __longTasks: number[] }).__longTasks)),
		);
		return { wallMs, longestMs };
	} finally {
		await context.close();
	}
}

async function firstRowsMs(browser: Browser, origin: string, path: string): Promise<number> {
	const context = await browser.newContext();
	try {
		const page = await context.newPage();
		await page.goto(`${origin}/#/stimuli`);
		const started = performance.now();
		await page.getByTestId('stimuli-file').setInputFiles(path);
		await page.getByRole('button', { name: 'Score words' }).click();
		await page.getByTestId('stimuli-table').locator('tbody tr').first().waitFor({
			timeout: 300_000,
		});
		const ms = Math.round(performance.now() - started);
		await page.getByRole('button', { name: 'Cancel' }).click();
		return ms;
	} finally {
		await context.close();
	}
}

export async function benchStimuli(
	browser: Browser,
	origin: string,
	repeats: number,
	log: (line: string) => void,
): Promise<StimuliBench> {
	const folder = await mkdtemp(join(tmpdir(), 'benchtop-stimuli-'));
	const big = stimulusCsv(1000);
	const bigPath = join(folder, 'stimuli-10k.csv');
	await writeFile(bigPath, big.text);
	const manyPath = join(folder, 'stimuli-2000.csv');
	await writeFile(manyPath, stimulusCsv(2000).text);
	const nodeMs: number[] = [];
	const tabMs: number[] = [];
	const longestMs: number[] = [];
	const firstMs: number[] = [];
	for (let run = 0; run < repeats; run += 1) {
		const node = await nodeWallMs(bigPath, join(folder, 'out.csv'));
		log(`stimuli node, ${big.words} words: ${node} ms`);
		nodeMs.push(node);
		const tab = await tabRun(browser, origin, bigPath, big.words);
		log(
			`stimuli tab, ${big.words} words: ${tab.wallMs} ms, longest main-thread task ${tab.longestMs} ms`,
		);
		tabMs.push(tab.wallMs);
		longestMs.push(tab.longestMs);
		const first = await firstRowsMs(browser, origin, manyPath);
		log(`stimuli tab, 2,000 sentences: file picked → first rows ${first} ms`);
		firstMs.push(first);
	}
	const tab = median(tabMs);
	const node = median(nodeMs);
	return {
		stimuli_words: big.words,
		stimuli_10k_words_wall_s: tab === null ? null : Math.round(tab / 10) / 100,
		stimuli_10k_words_node_wall_s: node === null ? null : Math.round(node / 10) / 100,
		stimuli_tab_vs_node: tab !== null && node ? Math.round((tab / node) * 100) / 100 : null,
		stimuli_longest_main_task_ms: median(longestMs),
		stimuli_2000_sentences_first_rows_ms: median(firstMs),
		measurements: {
			tab_ms: tabMs,
			node_ms: nodeMs,
			longest_task_ms: longestMs,
			first_rows_ms: firstMs,
		},
	};
}
