/**
 * Part `gpt2-124m` of `npm run bench`: what a GPT-2-124M-sized model costs. The model is built
 * from a fixed seed by gpt2-shaped-model.ts into the cache folder (outside the repo; rebuilt only
 * when missing), then, per dtype (fp32, fp16, q8; BENCHTOP_BENCH_GPT2_DTYPES picks): in Node (onnxruntime-node) the load time from a warm
 * cache (files in the OS page cache, session created, graph fused, probe run), the 34 suites
 * scored in one request as `run a.json b.json ...` does (prefix reuse as the engine decides),
 * tokens/s over the suites' tokens, and the process's peak RSS (sampled every 250 ms during the
 * dtype's load and run); for fp16 and q8 the largest surprisal difference from fp32 over every token and
 * how many of the items' prediction outcomes change. In Chromium (the built app's worker, WASM,
 * the app's thread count) the same load and run, with the tab's peak memory from
 * `performance.measureUserAgentSpecificMemory()` (page and its dedicated worker: JS heap with the
 * WASM memory; the browser runs with `ForceEagerMeasureMemory` so each sample is taken at once).
 */
import { rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { chromium, type Browser, type Page } from '@playwright/test';
import type { ModelDtype, ModelSpec, SurprisalConvention } from '../src/core/model/model-spec';
import { medianNumpy } from '../src/core/syntaxgym/aggregation/region-metrics';
import { scoreSuites } from '../src/core/syntaxgym/scoring/score-suite';
import { buildSuiteSentences } from '../src/core/syntaxgym/suite/build-sentences';
import { parseSuite } from '../src/core/syntaxgym/suite/parse-suite';
import type { Suite } from '../src/core/syntaxgym/suite/types';
import type { EngineHarness } from '../src/worker/engine-harness';
import { createNodeEngine } from '../src/worker/node-engine';
import type { ScoreTextsResult } from '../src/worker/protocol';
import { openBatteryWithSuites, waitForBatteryDone } from './battery-page';
import {
	ensureModelFolder,
	GPT2_124M,
	linkModelFolder,
	ONNX_FILE,
	parameterCount,
} from './gpt2-shaped-model';
import { medianBy } from './median';

export const GPT2_124M_SEED = 124;
export const GPT2_124M_NAME = 'gpt2-124m-shaped';
type Gpt2Dtype = 'fp32' | 'fp16' | 'q8';
/** The dtypes measured: BENCHTOP_BENCH_GPT2_DTYPES (comma-separated), default all three. fp32
 * runs whenever another does (the others are compared with it). */
const DTYPES: readonly Gpt2Dtype[] = (() => {
	const asked = (process.env.BENCHTOP_BENCH_GPT2_DTYPES ?? 'fp32,fp16,q8')
		.split(',')
		.map((d) => d.trim());
	return (['fp32', 'fp16', 'q8'] as const).filter((d) => d === 'fp32' || asked.includes(d));
})();
const SHARED_MODELS = new URL('../../shared/models/gpt2-en-small/', import.meta.url);

type Log = (message: string) => void;

function round(value: number, digits: number): number {
	const scale = 10 ** digits;
	return Math.round(value * scale) / scale;
}

/** The model folder, built when missing. */
export async function ensureGpt2124m(log: Log) {
	const started = performance.now();
	const folder = await ensureModelFolder(GPT2_124M_NAME, {
		config: GPT2_124M,
		seed: GPT2_124M_SEED,
		tokenizerDir: SHARED_MODELS.pathname,
	});
	log(
		`gpt2-124m: ${folder.dir} ${folder.built ? `built in ${((performance.now() - started) / 1000).toFixed(1)} s` : 'from the cache'}`,
	);
	return folder;
}

function parseSuites(jsons: readonly string[]): Suite[] {
	return jsons.flatMap((json) => {
		const parsed = parseSuite(json);
		return parsed.ok ? [parsed.suite] : [];
	});
}

/** Samples `read()` every `ms` until stopped; the largest value. */
function peakSampler(read: () => Promise<number> | number, ms: number) {
	let peak = 0;
	let running = true;
	const loop = (async () => {
		while (running) {
			try {
				peak = Math.max(peak, await read());
			} catch {
				// A sample that fails (page busy, navigation) is skipped.
			}
			await new Promise((resolve) => setTimeout(resolve, ms));
		}
	})();
	return {
		async stop(): Promise<number> {
			running = false;
			await loop;
			peak = Math.max(peak, await Promise.resolve(read()).catch(() => 0));
			return peak;
		},
	};
}

interface NodeDtypeFigure {
	readonly loadMs: number;
	readonly wallMs: number;
	readonly tokens: number;
	readonly tokensComputed: number;
	readonly peakRssBytes: number;
	readonly result: ScoreTextsResult;
}

async function nodeDtype(
	dir: string,
	dtype: ModelDtype,
	suites: readonly Suite[],
	threads: number,
	convention: SurprisalConvention,
): Promise<NodeDtypeFigure> {
	const rss = peakSampler(() => process.memoryUsage().rss, 250);
	const engine = createNodeEngine({ threads, bundledModelsPath: `${dirname(dir)}/` });
	const spec: ModelSpec = { source: 'bundled', id: basename(dir), dtype, backend: 'node-cpu' };
	const loadStarted = performance.now();
	const { modelKey } = await engine.loadModel({ spec });
	const loadMs = performance.now() - loadStarted;
	const started = performance.now();
	const result = await engine.scoreTexts({
		modelKey,
		texts: suites.flatMap((suite) => buildSuiteSentences(suite).map((s) => s.text)),
		convention,
	});
	scoreSuites(
		suites,
		result.texts.map((t) => t.tokens),
		{ alignment: 'offsets' },
	);
	const wallMs = performance.now() - started;
	await engine.disposeModel(modelKey);
	return {
		loadMs,
		wallMs,
		tokens: result.tokenCount,
		tokensComputed: result.positionsComputed ?? result.tokenCount,
		peakRssBytes: await rss.stop(),
		result,
	};
}

/** Largest |Δ| in bits over every token, and items whose prediction outcomes differ. */
export function compareRuns(
	suites: readonly Suite[],
	reference: ScoreTextsResult,
	other: ScoreTextsResult,
): { readonly maxDiffBits: number; readonly itemsChanged: number; readonly items: number } {
	let maxDiffBits = 0;
	reference.texts.forEach((text, i) => {
		const tokens = other.texts[i]?.tokens ?? [];
		text.tokens.forEach((token, k) => {
			const diff = Math.abs(token.surprisalBits - (tokens[k]?.surprisalBits ?? Number.NaN));
			maxDiffBits = Number.isNaN(diff) ? Number.POSITIVE_INFINITY : Math.max(maxDiffBits, diff);
		});
	});
	const outcomes = (result: ScoreTextsResult) =>
		scoreSuites(
			suites,
			result.texts.map((t) => t.tokens),
			{ alignment: 'offsets' },
		).flatMap(({ score }) =>
			score.items.map((item) => item.outcomes.map((o) => String(o.result)).join(',')),
		);
	const a = outcomes(reference);
	const b = outcomes(other);
	return {
		maxDiffBits,
		itemsChanged: a.filter((outcome, i) => outcome !== b[i]).length,
		items: a.length,
	};
}

/** Node figures, keys `gpt2_124m_node_*` and `gpt2_124m_q8_*`. */
export async function benchGpt2124mNode(
	dir: string,
	jsons: readonly string[],
	threads: number,
	convention: SurprisalConvention,
	repeats: number,
	log: Log,
): Promise<Record<string, number | null>> {
	const suites = parseSuites(jsons);
	const figures: Record<string, number | null> = {};
	const results: Partial<Record<Gpt2Dtype, ScoreTextsResult>> = {};
	for (const dtype of DTYPES) {
		const runs: NodeDtypeFigure[] = [];
		for (let i = 0; i < repeats; i++) {
			const one = await nodeDtype(dir, dtype, suites, threads, convention);
			log(
				`gpt2-124m node ${dtype}, run ${i + 1} of ${repeats}: load ${(one.loadMs / 1000).toFixed(1)} s, ` +
					`34 suites ${(one.wallMs / 1000).toFixed(1)} s`,
			);
			runs.push(one);
		}
		const run = medianBy(runs, (r) => r.wallMs);
		if (!run) continue;
		results[dtype] = run.result;
		const key = `gpt2_124m_node_${dtype}`;
		figures[`${key}_runs`] = runs.length;
		figures[`${key}_load_s`] = round(medianNumpy(runs.map((r) => r.loadMs)) / 1000, 2);
		figures[`${key}_suites34_wall_s`] = round(run.wallMs / 1000, 2);
		figures[`${key}_tokens_per_s`] = round(run.tokens / (run.wallMs / 1000), 1);
		figures[`${key}_computed_tokens_per_s`] = round(run.tokensComputed / (run.wallMs / 1000), 1);
		figures[`${key}_tokens`] = run.tokens;
		figures[`${key}_tokens_computed`] = run.tokensComputed;
		figures[`${key}_peak_rss_mib`] = Math.round(
			Math.max(...runs.map((r) => r.peakRssBytes)) / 2 ** 20,
		);
		log(
			`gpt2-124m node ${dtype}, medians: load ${figures[`${key}_load_s`]} s, 34 suites ` +
				`${(run.wallMs / 1000).toFixed(1)} s (${run.tokens} tokens, ${run.tokensComputed} computed), ` +
				`peak RSS ${figures[`${key}_peak_rss_mib`]} MiB (the largest of the runs)`,
		);
	}
	for (const dtype of ['fp16', 'q8'] as const) {
		const other = results[dtype];
		if (!results.fp32 || !other) continue;
		const diff = compareRuns(suites, results.fp32, other);
		figures[`gpt2_124m_${dtype}_max_diff_bits`] = round(diff.maxDiffBits, 4);
		figures[`gpt2_124m_${dtype}_items_changed`] = diff.itemsChanged;
		figures.gpt2_124m_items = diff.items;
		log(`gpt2-124m ${dtype} vs fp32: ${JSON.stringify(diff)}`);
	}
	figures.gpt2_124m_node_max_rss_mib = Math.round(process.resourceUsage().maxRSS / 1024);
	return figures;
}

/** What the tab side measures: the harness (pooled, per dtype) and the app's Battery page (fp32). */
export interface Gpt2BrowserPlan {
	readonly dir: string;
	/** The built app's folder; the model is linked into its `models/`. */
	readonly outDir: string;
	readonly origin: string;
	readonly jsons: readonly string[];
	/** The same suites as files, for the Battery page. */
	readonly suiteFiles: readonly string[];
	readonly convention: SurprisalConvention;
	readonly repeats: number;
}

/** Chromium WASM figures, keys `gpt2_124m_wasm_*` and `gpt2_124m_app_battery_*`. */
export async function benchGpt2124mBrowser(
	plan: Gpt2BrowserPlan,
	log: Log,
): Promise<Record<string, number | null>> {
	await linkModelFolder(plan.dir, join(plan.outDir, 'models', GPT2_124M_NAME));
	const browser = await chromium.launch({
		executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
		args: [
			'--disable-background-networking',
			'--disable-component-update',
			'--no-first-run',
			'--enable-blink-features=ForceEagerMeasureMemory',
		],
	});
	const figures: Record<string, number | null> = {};
	try {
		for (const dtype of DTYPES) {
			try {
				const runs: BrowserDtypeRun[] = [];
				for (let i = 0; i < plan.repeats; i++) {
					runs.push(await browserDtype(browser, plan, dtype, log));
					log(`gpt2-124m chromium wasm ${dtype}, run ${i + 1} of ${plan.repeats} done`);
				}
				Object.assign(figures, browserDtypeFigures(dtype, runs));
			} catch (error) {
				// A model the tab cannot load or run leaves its figures out (null ratios), not the bench.
				log(`gpt2-124m chromium wasm ${dtype}: failed: ${String(error)}`);
			}
		}
		try {
			Object.assign(figures, await appBattery(browser, plan, 'fp32', log));
		} catch (error) {
			log(`gpt2-124m app battery: failed: ${String(error)}`);
		}
	} finally {
		await browser.close();
	}
	return figures;
}

interface BrowserDtypeRun {
	readonly threads: number;
	readonly loadMs: number;
	readonly wallMs: number;
	readonly tokens: number;
	readonly tokensComputed: number;
	readonly peakBytes: number;
}

/** The tab's peak memory (page and its workers: JS heap with the WASM memory), sampled. */
function tabMemorySampler(page: Page) {
	return peakSampler(
		() =>
			page.evaluate(async () => {
				const measure = (
					performance as { measureUserAgentSpecificMemory?: () => Promise<{ bytes: number }> }
				).measureUserAgentSpecificMemory;
				return measure ? (await measure.call(performance)).bytes : 0;
			}),
		2000,
	);
}

/** One dtype in a fresh tab (its peak memory is that run's alone): load, 34 suites pooled. */
async function browserDtype(
	browser: Browser,
	plan: Gpt2BrowserPlan,
	dtype: ModelDtype,
	log: Log,
): Promise<BrowserDtypeRun> {
	const page = await browser.newPage();
	await page.goto(`${plan.origin}/harness/engine.html`);
	await page.waitForFunction(() => window.benchtopEngine !== undefined);
	const threads = await page.evaluate(() => Math.min(8, navigator.hardwareConcurrency));
	const memory = tabMemorySampler(page);
	try {
		const spec: ModelSpec = { source: 'bundled', id: GPT2_124M_NAME, dtype, backend: 'wasm' };
		const loadStarted = performance.now();
		const info = await page.evaluate((s) => (window.benchtopEngine as EngineHarness).load(s), spec);
		const loadMs = performance.now() - loadStarted;
		const run = await page.evaluate(
			({ key, jsons, convention }) =>
				(window.benchtopEngine as EngineHarness).runSuites(key, jsons, convention, undefined, true),
			{ key: info.modelKey, jsons: [...plan.jsons], convention: plan.convention },
		);
		const peakBytes = await memory.stop();
		log(
			`gpt2-124m chromium wasm ${dtype} (${threads} threads): load ${(loadMs / 1000).toFixed(1)} s, ` +
				`34 suites ${(run.wallMs / 1000).toFixed(1)} s (${run.tokens} tokens), ` +
				`peak tab memory ${Math.round(peakBytes / 2 ** 20)} MiB` +
				(run.failed.length > 0 ? `, failed ${JSON.stringify(run.failed)}` : ''),
		);
		return {
			threads,
			loadMs,
			wallMs: run.wallMs,
			tokens: run.tokens,
			tokensComputed: run.tokensComputed ?? run.tokens,
			peakBytes,
		};
	} finally {
		await memory.stop();
		await page.close();
	}
}

/** Medians over the runs (load and wall each their own), the largest peak. */
function browserDtypeFigures(
	dtype: ModelDtype,
	runs: readonly BrowserDtypeRun[],
): Record<string, number | null> {
	const wall = medianBy(runs, (r) => r.wallMs);
	if (!wall) return {};
	const key = `gpt2_124m_wasm_${dtype}`;
	const peak = Math.max(...runs.map((r) => r.peakBytes));
	return {
		gpt2_124m_wasm_threads: wall.threads,
		[`${key}_runs`]: runs.length,
		[`${key}_load_s`]: round(medianNumpy(runs.map((r) => r.loadMs)) / 1000, 2),
		[`${key}_suites34_wall_s`]: round(wall.wallMs / 1000, 2),
		[`${key}_tokens_per_s`]: round(wall.tokens / (wall.wallMs / 1000), 1),
		[`${key}_tokens_computed`]: wall.tokensComputed,
		[`${key}_peak_tab_memory_mib`]: peak > 0 ? Math.round(peak / 2 ** 20) : null,
	};
}

/**
 * The 34 suites as one battery on the app's Battery page with this model picked as a local folder
 * (WASM, the app's threads, the bench's convention): a fresh profile per run, Run battery clicked
 * once the offline install is done, timed to "Battery done" (every item stored). The app reads a
 * folder only when a run asks, so the run starts with the load; the picker's "Loaded … in N ms"
 * gives its share (`_load_s`) and the rest is the scoring (`_scoring_s`). Medians of `repeats`;
 * the tab's peak memory over the runs.
 */
async function appBattery(
	browser: Browser,
	plan: Gpt2BrowserPlan,
	dtype: Gpt2Dtype,
	log: Log,
): Promise<Record<string, number | null>> {
	// What a user picks as a local folder: only the files the app reads for this dtype.
	const folder = join(tmpdir(), 'benchtop-bench-local', GPT2_124M_NAME);
	await linkModelFolder(plan.dir, folder, dtype);
	const runs: { wallMs: number; loadMs: number }[] = [];
	let peak = 0;
	try {
		for (let run = 0; run < plan.repeats; run++) {
			const context = await browser.newContext();
			try {
				const page = await context.newPage();
				await openBatteryWithSuites(page, plan.origin, plan.suiteFiles);
				await page.getByRole('radio', { name: 'Local folder' }).check();
				await page.getByLabel(/Model folder/).setInputFiles(folder);
				await page.getByLabel('Weights').selectOption(dtype);
				await page.getByLabel('Surprisal convention').selectOption(plan.convention);
				await page.getByText('Ready to work offline').waitFor({ timeout: 180_000 });
				const memory = tabMemorySampler(page);
				const started = performance.now();
				// The app reads a folder only when a run asks for it: the run loads the model first.
				await page.getByRole('button', { name: 'Run battery' }).click();
				await waitForBatteryDone(page, 3_600_000);
				const ms = Math.round(performance.now() - started);
				peak = Math.max(peak, await memory.stop());
				// The picker says how long the load took ("Loaded <id> (gpt2, fp32, wasm) in N ms").
				const loaded = await page.getByText(`Loaded ${GPT2_124M_NAME} (`).textContent();
				const loadMs = Number(/ in (\d+) ms/.exec(loaded ?? '')?.[1] ?? Number.NaN);
				log(
					`gpt2-124m app battery ${dtype}, run ${run + 1} of ${plan.repeats}: ${ms} ms, ` +
						`of which loading the folder ${loadMs} ms`,
				);
				runs.push({ wallMs: ms, loadMs });
			} finally {
				await context.close();
			}
		}
	} finally {
		await rm(folder, { recursive: true, force: true });
	}
	const key = `gpt2_124m_app_battery_${dtype}`;
	const median = (values: number[]) => round(medianNumpy(values) / 1000, 2);
	return {
		[`${key}_runs`]: runs.length,
		[`${key}_suites34_wall_s`]: median(runs.map((r) => r.wallMs)),
		[`${key}_load_s`]: median(runs.map((r) => r.loadMs)),
		[`${key}_scoring_s`]: median(runs.map((r) => r.wallMs - r.loadMs)),
		[`${key}_peak_tab_memory_mib`]: peak > 0 ? Math.round(peak / 2 ** 20) : null,
	};
}

/** `tab ÷ node` ratios, q8's speed-up, and the tab's peak memory against the weights' bytes. */
export async function gpt2124mRatios(
	figures: Record<string, number | null>,
	dir: string,
): Promise<Record<string, number | null>> {
	const ratio = (a: number | null | undefined, b: number | null | undefined, digits = 3) =>
		a && b ? round(a / b, digits) : null;
	const out: Record<string, number | null> = {
		gpt2_124m_parameters: parameterCount(GPT2_124M),
	};
	for (const dtype of DTYPES) {
		const fileMib = (await stat(join(dir, 'onnx', ONNX_FILE[dtype]))).size / 2 ** 20;
		out[`gpt2_124m_${dtype}_onnx_mib`] = round(fileMib, 1);
		out[`gpt2_124m_${dtype}_tokens_per_s_tab_vs_node`] = ratio(
			figures[`gpt2_124m_wasm_${dtype}_tokens_per_s`],
			figures[`gpt2_124m_node_${dtype}_tokens_per_s`],
		);
		out[`gpt2_124m_${dtype}_suites34_wall_tab_vs_node`] = ratio(
			figures[`gpt2_124m_wasm_${dtype}_suites34_wall_s`],
			figures[`gpt2_124m_node_${dtype}_suites34_wall_s`],
		);
		out[`gpt2_124m_${dtype}_load_tab_vs_node`] = ratio(
			figures[`gpt2_124m_wasm_${dtype}_load_s`],
			figures[`gpt2_124m_node_${dtype}_load_s`],
		);
		out[`gpt2_124m_${dtype}_peak_memory_tab_vs_node`] = ratio(
			figures[`gpt2_124m_wasm_${dtype}_peak_tab_memory_mib`],
			figures[`gpt2_124m_node_${dtype}_peak_rss_mib`],
		);
		// The issue's goal: the tab's peak ≤ 2× the weights' bytes (the ONNX file).
		out[`gpt2_124m_${dtype}_peak_tab_vs_weights`] = ratio(
			figures[`gpt2_124m_wasm_${dtype}_peak_tab_memory_mib`],
			fileMib,
		);
	}
	// The issue's first goal at this size: the app's own path ÷ the engine's pooled run.
	// The folder's load is inside the battery's wall time (the app reads a folder only when a run
	// asks); the pooled run's model was loaded before it, so its scoring time is compared.
	out.gpt2_124m_fp32_app_battery_vs_pooled = ratio(
		figures.gpt2_124m_app_battery_fp32_scoring_s,
		figures.gpt2_124m_wasm_fp32_suites34_wall_s,
	);
	for (const dtype of ['fp16', 'q8'] as const) {
		if (!DTYPES.includes(dtype)) continue;
		out[`gpt2_124m_${dtype}_speedup_node`] = ratio(
			figures.gpt2_124m_node_fp32_suites34_wall_s,
			figures[`gpt2_124m_node_${dtype}_suites34_wall_s`],
		);
		out[`gpt2_124m_${dtype}_speedup_wasm`] = ratio(
			figures.gpt2_124m_wasm_fp32_suites34_wall_s,
			figures[`gpt2_124m_wasm_${dtype}_suites34_wall_s`],
		);
	}
	return out;
}
