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
import { link, mkdir, readdir, rm, stat, symlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import type { ModelDtype, ModelSpec, SurprisalConvention } from '../src/core/model/model-spec';
import { scoreSuites } from '../src/core/syntaxgym/scoring/score-suite';
import { buildSuiteSentences } from '../src/core/syntaxgym/suite/build-sentences';
import { parseSuite } from '../src/core/syntaxgym/suite/parse-suite';
import type { Suite } from '../src/core/syntaxgym/suite/types';
import type { EngineHarness } from '../src/worker/engine-harness';
import { createNodeEngine } from '../src/worker/node-engine';
import type { ScoreTextsResult } from '../src/worker/protocol';
import { ensureModelFolder, GPT2_124M, ONNX_FILE, parameterCount } from './gpt2-shaped-model';

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
	log: Log,
): Promise<Record<string, number | null>> {
	const suites = parseSuites(jsons);
	const figures: Record<string, number | null> = {};
	const results: Partial<Record<Gpt2Dtype, ScoreTextsResult>> = {};
	for (const dtype of DTYPES) {
		const run = await nodeDtype(dir, dtype, suites, threads, convention);
		results[dtype] = run.result;
		const key = `gpt2_124m_node_${dtype}`;
		figures[`${key}_load_s`] = round(run.loadMs / 1000, 2);
		figures[`${key}_suites34_wall_s`] = round(run.wallMs / 1000, 2);
		figures[`${key}_tokens_per_s`] = round(run.tokens / (run.wallMs / 1000), 1);
		figures[`${key}_computed_tokens_per_s`] = round(run.tokensComputed / (run.wallMs / 1000), 1);
		figures[`${key}_tokens`] = run.tokens;
		figures[`${key}_tokens_computed`] = run.tokensComputed;
		figures[`${key}_peak_rss_mib`] = Math.round(run.peakRssBytes / 2 ** 20);
		log(
			`gpt2-124m node ${dtype}: load ${(run.loadMs / 1000).toFixed(1)} s, 34 suites ` +
				`${(run.wallMs / 1000).toFixed(1)} s (${run.tokens} tokens, ${run.tokensComputed} computed), ` +
				`peak RSS ${Math.round(run.peakRssBytes / 2 ** 20)} MiB`,
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

/** Puts the model folder into the built app's models/ (a link; a copy where links fail). */
async function serveModel(dir: string, outDir: string): Promise<void> {
	const target = join(outDir, 'models', GPT2_124M_NAME);
	await rm(target, { recursive: true, force: true });
	await mkdir(join(target, 'onnx'), { recursive: true });
	for (const file of await readdir(dir, { recursive: true })) {
		if (file === 'onnx') continue;
		await link(join(dir, file), join(target, file)).catch(() =>
			symlink(join(dir, file), join(target, file)),
		);
	}
}

/** Chromium WASM figures, keys `gpt2_124m_wasm_*`. */
export async function benchGpt2124mBrowser(
	dir: string,
	outDir: string,
	origin: string,
	jsons: readonly string[],
	convention: SurprisalConvention,
	log: Log,
): Promise<Record<string, number | null>> {
	await serveModel(dir, outDir);
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
				Object.assign(figures, await browserDtype(browser, origin, jsons, convention, dtype, log));
			} catch (error) {
				// A model the tab cannot load or run leaves its figures out (null ratios), not the bench.
				log(`gpt2-124m chromium wasm ${dtype}: failed: ${String(error)}`);
			}
		}
	} finally {
		await browser.close();
	}
	return figures;
}

/** One dtype in a fresh tab (its peak memory is that dtype's alone): load, 34 suites pooled. */
async function browserDtype(
	browser: Browser,
	origin: string,
	jsons: readonly string[],
	convention: SurprisalConvention,
	dtype: ModelDtype,
	log: Log,
): Promise<Record<string, number | null>> {
	const page = await browser.newPage();
	await page.goto(`${origin}/harness/engine.html`);
	await page.waitForFunction(() => window.benchtopEngine !== undefined);
	const threads = await page.evaluate(() => Math.min(8, navigator.hardwareConcurrency));
	const memory = peakSampler(
		() =>
			page.evaluate(async () => {
				const measure = (
					performance as { measureUserAgentSpecificMemory?: () => Promise<{ bytes: number }> }
				).measureUserAgentSpecificMemory;
				return measure ? (await measure.call(performance)).bytes : 0;
			}),
		2000,
	);
	try {
		const spec: ModelSpec = { source: 'bundled', id: GPT2_124M_NAME, dtype, backend: 'wasm' };
		const loadStarted = performance.now();
		const info = await page.evaluate((s) => (window.benchtopEngine as EngineHarness).load(s), spec);
		const loadMs = performance.now() - loadStarted;
		const run = await page.evaluate(
			({ key, jsons, convention }) =>
				(window.benchtopEngine as EngineHarness).runSuites(key, jsons, convention, undefined, true),
			{ key: info.modelKey, jsons: [...jsons], convention },
		);
		const peak = await memory.stop();
		const key = `gpt2_124m_wasm_${dtype}`;
		log(
			`gpt2-124m chromium wasm ${dtype} (${threads} threads): load ${(loadMs / 1000).toFixed(1)} s, ` +
				`34 suites ${(run.wallMs / 1000).toFixed(1)} s (${run.tokens} tokens), ` +
				`peak tab memory ${Math.round(peak / 2 ** 20)} MiB` +
				(run.failed.length > 0 ? `, failed ${JSON.stringify(run.failed)}` : ''),
		);
		return {
			gpt2_124m_wasm_threads: threads,
			[`${key}_load_s`]: round(loadMs / 1000, 2),
			[`${key}_suites34_wall_s`]: round(run.wallMs / 1000, 2),
			[`${key}_tokens_per_s`]: round(run.tokens / (run.wallMs / 1000), 1),
			[`${key}_tokens_computed`]: run.tokensComputed ?? run.tokens,
			[`${key}_peak_tab_memory_mib`]: peak > 0 ? Math.round(peak / 2 ** 20) : null,
		};
	} finally {
		await memory.stop();
		await page.close();
	}
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
