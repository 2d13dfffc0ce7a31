/**
 * `npm run bench`: scoring speed of the real engine in Node (onnxruntime-node CPU) and in Chromium
 * (the built app's worker, WASM; WebGPU when an adapter exists), per model and batch size, in
 * plain batches (no shared-prefix reuse, so the figures stay comparable over time); the wall time
 * to score the 34 SyntaxGym suites as the app does (prefix reuse on, one request per suite) in
 * Chromium WASM and in Node, with the positions computed, and again in one request for all 34 (as
 * `run a.json b.json ...` scores them); the same 34 suites as one battery on the app's Battery
 * page (`suites34_app_battery_wall_s`, its ratio to the pooled request and the main thread's
 * busy time in it); the app's open → first result time with the default
 * model; and the wall time of `ltm run` with a no-op replay agent at 128k and 500k-token memory
 * spans (bench/ltm-bench.ts); and writing and reading a 3,000-item suite run bundle, sealed and
 * checked (bench/bundle-bench.ts); and a 10,000-word stimulus file on the Stimuli page and in
 * the CLI's `stimuli` (bench/stimuli-bench.ts); and, opt-in (part `gpt2-124m`, not in the default
 * set: at 2 cores it takes about 20-30 min alone), a GPT-2-124M-shaped model built from a fixed seed
 * into ${XDG_CACHE_HOME:-~/.cache}/benchtop-bench/ (bench/gpt2-shaped-model.ts): load time, the 34
 * suites' wall time and tokens/s, peak memory, at fp32, fp16 and q8, in Node and Chromium WASM, keys
 * `gpt2_124m_*` (bench/gpt2-124m-bench.ts); and where a forward pass's time goes per ONNX op type
 * in Node and in Chromium WASM, on the app's scoring graph of gpt2-en-small at fp32 and q8 (and of
 * the GPT-2-124M-shaped model with part `gpt2-124m`), keys `op_profile_*` (bench/op-profile.ts).
 * The last stdout line is one JSON object.
 * Env: BENCHTOP_BENCH_PORT (default 4179), BENCHTOP_BENCH_OUT_DIR, CHROMIUM_PATH,
 * BENCHTOP_BENCH_PARTS (comma-separated subset of node,browser,suites34-node,suites34-wasm,app,
 * app-battery,generate,ltm,bundle,bundle-import,stimuli,op-profile,gpt2-124m; `suites34` is both suites34 parts;
 * default all but gpt2-124m;
 * `bundle-import` imports a generated BENCHTOP_BENCH_IMPORT_ITEMS-item bundle, default 100,000), BENCHTOP_BENCH_REPEATS (timed runs per
 * figure, default 3).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { build, preview } from 'vite';
import type { ModelSpec, SurprisalConvention } from '../src/core/model/model-spec';
import { scoreSuites } from '../src/core/syntaxgym/scoring/score-suite';
import { buildSuiteSentences } from '../src/core/syntaxgym/suite/build-sentences';
import { parseSuite } from '../src/core/syntaxgym/suite/parse-suite';
import type { EngineHarness, SuitesRun } from '../src/worker/engine-harness';
import { createNodeEngine } from '../src/worker/node-engine';
import {
	GENERATE_MODEL,
	NEW_TOKENS,
	PROMPT,
	benchGeneration,
	type GenerationBench,
} from './generate-bench';
import { openBatteryWithSuites, waitForBatteryDone } from './battery-page';
import { benchBundle, type BundleBench } from './bundle-bench';
import {
	benchGpt2124mBrowser,
	benchGpt2124mNode,
	ensureGpt2124m,
	gpt2124mRatios,
} from './gpt2-124m-bench';
import { benchLtmReplay, type LtmBench } from './ltm-bench';
import { medianBy } from './median';
import {
	benchOpProfile,
	opProfileFigures,
	PROFILE_FILES,
	type OpProfile,
	type ProfileDtype,
} from './op-profile';
import { benchStimuli, type StimuliBench } from './stimuli-bench';

const ROOT = new URL('../', import.meta.url);
const PORT = Number(process.env.BENCHTOP_BENCH_PORT ?? 4179);
const OUT_DIR = process.env.BENCHTOP_BENCH_OUT_DIR ?? join(tmpdir(), 'benchtop-bench-dist');
const SUITES34_DIR = new URL('../shared/peer/syntaxgym/suites/nextflow/', ROOT);
const MODELS = ['gpt2-en-small', 'gpt2-random-tiny'] as const;
/** `undefined`: the engine's default batching (up to 64 sentences under its token budget). */
const BATCH_SIZES = [1, 8, undefined] as const;
const SENTENCE_COUNT = 192;
const HEADLINE_MODEL = 'gpt2-en-small';
/** The 34 suites are scored as a teacher would: the default model's own convention. */
const SUITES34_CONVENTION: SurprisalConvention = 'bos';
const PARTS = new Set(
	(
		process.env.BENCHTOP_BENCH_PARTS ??
		'node,browser,suites34,app,app-battery,generate,ltm,bundle,bundle-import,stimuli,op-profile'
	)
		.split(',')
		.map((p) => p.trim())
		.flatMap((p) => (p === 'suites34' ? ['suites34-node', 'suites34-wasm'] : [p])),
);

interface Measurement {
	readonly model: string;
	readonly batchSize: number | 'default';
	readonly sentences: number;
	readonly tokens: number;
	readonly seconds: number;
	readonly tokensPerSecond: number;
	readonly sentencesPerSecond: number;
}

function log(message: string): void {
	process.stdout.write(`${message}\n`);
}

function measurement(
	model: string,
	batchSize: number | undefined,
	sentences: number,
	tokens: number,
	milliseconds: number,
): Measurement {
	const seconds = milliseconds / 1000;
	return {
		model,
		batchSize: batchSize ?? 'default',
		sentences,
		tokens,
		seconds: round(seconds, 3),
		tokensPerSecond: round(tokens / seconds, 1),
		sentencesPerSecond: round(sentences / seconds, 2),
	};
}

/** Timed runs per figure, after one untimed run of the same work (the runtime's memory arena
 * grows to the batch shapes on first use); the figure is the median run. */
const REPEATS = Math.max(1, Number(process.env.BENCHTOP_BENCH_REPEATS ?? 3) || 3);

async function repeated(
	model: string,
	batchSize: number | undefined,
	sentences: number,
	runOnce: () => Promise<{ readonly tokenCount: number; readonly elapsedMs: number }>,
): Promise<Measurement> {
	await runOnce();
	const runs: { readonly tokenCount: number; readonly elapsedMs: number }[] = [];
	for (let i = 0; i < REPEATS; i++) runs.push(await runOnce());
	const middle = medianBy(runs, (run) => run.elapsedMs) ?? { tokenCount: 0, elapsedMs: NaN };
	return measurement(model, batchSize, sentences, middle.tokenCount, middle.elapsedMs);
}

function round(value: number, digits: number): number {
	const scale = 10 ** digits;
	return Math.round(value * scale) / scale;
}

/** Sentences of our bundled suites (suites/*.json), the first SENTENCE_COUNT. */
async function benchSentences(): Promise<string[]> {
	const dir = new URL('suites/', ROOT);
	const texts: string[] = [];
	for (const file of (await readdir(dir)).filter((f) => f.endsWith('.json')).sort()) {
		if (file === 'index.json') continue;
		const parsed = parseSuite(await readFile(new URL(file, dir), 'utf8'), { mode: 'compatible' });
		if (parsed.ok) texts.push(...buildSuiteSentences(parsed.suite).map((s) => s.text));
	}
	return texts.slice(0, SENTENCE_COUNT);
}

/** The 34 suites as JSON text, or undefined when the peer data is absent. */
async function suites34(): Promise<string[] | undefined> {
	try {
		const files = (await readdir(SUITES34_DIR)).filter((f) => f.endsWith('.json')).sort();
		return await Promise.all(files.map((f) => readFile(new URL(f, SUITES34_DIR), 'utf8')));
	} catch {
		return undefined;
	}
}

function spec(id: string, backend: ModelSpec['backend']): ModelSpec {
	return { source: 'bundled', id, dtype: 'fp32', backend };
}

async function benchNode(texts: readonly string[], threads: number): Promise<Measurement[]> {
	const engine = createNodeEngine({ threads });
	const results: Measurement[] = [];
	for (const model of MODELS) {
		const { modelKey } = await engine.loadModel({ spec: spec(model, 'node-cpu') });
		for (const batchSize of BATCH_SIZES) {
			const m = await repeated(model, batchSize, texts.length, () =>
				engine.scoreTexts({
					modelKey,
					texts,
					convention: 'bos',
					prefixReuse: false,
					...(batchSize !== undefined ? { maxBatchSize: batchSize } : {}),
				}),
			);
			log(`node  ${JSON.stringify(m)}`);
			results.push(m);
		}
		await engine.disposeModel(modelKey);
	}
	return results;
}

async function benchBrowser(
	page: Page,
	texts: readonly string[],
	backend: 'wasm' | 'webgpu',
): Promise<Measurement[]> {
	const results: Measurement[] = [];
	for (const model of MODELS) {
		const info = await page.evaluate(
			(s) => (window.benchtopEngine as EngineHarness).load(s),
			spec(model, backend),
		);
		if (info.spec.backend !== backend) {
			log(`${backend}: ${model} ran on ${info.spec.backend} (${info.fallbackReason ?? '?'})`);
			return [];
		}
		const run = (batch: readonly string[], maxBatchSize: number | undefined) =>
			page.evaluate(
				({ key, batch, maxBatchSize }) =>
					(window.benchtopEngine as EngineHarness).score(key, batch, 'bos', maxBatchSize, false),
				{ key: info.modelKey, batch, maxBatchSize },
			);
		for (const batchSize of BATCH_SIZES) {
			const m = await repeated(model, batchSize, texts.length, () => run(texts, batchSize));
			log(`${backend.padEnd(5)} ${JSON.stringify(m)}`);
			results.push(m);
		}
	}
	return results;
}

/** Greedy generation of 64 new tokens with gpt2-en-small in the app's worker (Chromium WASM), as
 * `generate-bench.ts` measures it in Node: median of REPEATS runs after a warm-up run. */
async function benchBrowserGeneration(
	page: Page,
): Promise<{ tokensPerSecond: number; runsMs: number[] }> {
	const { modelKey } = await page.evaluate(
		(s) => (window.benchtopEngine as EngineHarness).load(s),
		spec(GENERATE_MODEL, 'wasm'),
	);
	const runOnce = () =>
		page.evaluate(
			({ key, prompt, maxTokens }) =>
				(window.benchtopEngine as EngineHarness).generate(key, prompt, maxTokens),
			{ key: modelKey, prompt: PROMPT, maxTokens: NEW_TOKENS },
		);
	await runOnce();
	const runs = [];
	for (let i = 0; i < REPEATS; i++) runs.push(await runOnce());
	const rates = runs.map((r) => (r.usage.completionTokens / r.wallMs) * 1000);
	return {
		tokensPerSecond: round(medianBy(rates, (rate) => rate) ?? Number.NaN, 1),
		runsMs: runs.map((r) => Math.round(r.wallMs)),
	};
}

/**
 * The 34 suites in Node as the CLI runs them (parse, score with prefix reuse, evaluate): one
 * scoring request per suite (`run a.json`, once per suite), or with `pooled` one for all
 * (`run a.json b.json ...`).
 */
async function suites34Node(
	jsons: readonly string[],
	threads: number,
	pooled: boolean,
): Promise<SuitesFigure> {
	const engine = createNodeEngine({ threads });
	const { modelKey } = await engine.loadModel({ spec: spec(HEADLINE_MODEL, 'node-cpu') });
	const runOnce = async (): Promise<SuitesFigure> => {
		const started = performance.now();
		let tokens = 0;
		let tokensComputed = 0;
		let sentences = 0;
		const suites = jsons.flatMap((json) => {
			const parsed = parseSuite(json);
			return parsed.ok ? [parsed.suite] : [];
		});
		for (const batch of pooled ? [suites] : suites.map((suite) => [suite])) {
			const result = await engine.scoreTexts({
				modelKey,
				texts: batch.flatMap((suite) => buildSuiteSentences(suite).map((s) => s.text)),
				convention: SUITES34_CONVENTION,
			});
			scoreSuites(
				batch,
				result.texts.map((t) => t.tokens),
				{ alignment: 'offsets' },
			);
			sentences += result.texts.length;
			tokens += result.tokenCount;
			tokensComputed += result.positionsComputed ?? result.tokenCount;
		}
		return { wallMs: performance.now() - started, sentences, tokens, tokensComputed };
	};
	const figure = await medianRun(runOnce);
	await engine.disposeModel(modelKey);
	return figure;
}

interface SuitesFigure {
	readonly wallMs: number;
	readonly sentences: number;
	readonly tokens: number;
	readonly tokensComputed: number;
	/** Every timed run's wall time (ms). */
	readonly runsMs?: readonly number[];
}

/** One untimed run, then REPEATS timed ones: the median run, with every run's time. */
async function medianRun<T extends { readonly wallMs: number }>(
	runOnce: () => Promise<T>,
): Promise<T & { readonly runsMs: readonly number[] }> {
	await runOnce();
	const runs: T[] = [];
	for (let i = 0; i < REPEATS; i++) runs.push(await runOnce());
	const middle = medianBy(runs, (run) => run.wallMs) as T;
	return { ...middle, runsMs: runs.map((run) => Math.round(run.wallMs)) };
}

function logSuites(where: string, run: SuitesFigure): void {
	log(
		`suites34 ${where}: ${run.sentences} sentences, ${run.tokens} tokens ` +
			`(${run.tokensComputed} positions computed) in ${(run.wallMs / 1000).toFixed(2)} s ` +
			`(runs ${JSON.stringify(run.runsMs ?? [])} ms)`,
	);
}

/** Bundled suite clicked in the app for the open → first result measurement. */
const APP_SUITE_BUTTON = /Subject-verb agreement across a prepositional phrase/;
const APP_RUNS = 3;

/**
 * What a user waits for: a fresh browser profile (nothing cached) opens the app, clicks a bundled
 * suite and Run at once with the default model (gpt2-en-small), until the first item result is
 * stored (the app's `benchtop:first-result` mark, measured from navigation start). Median of
 * APP_RUNS; every run is logged.
 */
async function benchAppFirstResult(browser: Browser): Promise<number[]> {
	const times: number[] = [];
	for (let run = 0; run < APP_RUNS; run++) {
		const context = await browser.newContext();
		try {
			const page = await context.newPage();
			await page.goto(`http://127.0.0.1:${PORT}/`);
			await page.getByRole('button', { name: APP_SUITE_BUTTON }).click();
			await page.getByRole('button', { name: 'Run suite' }).click();
			const handle = await page.waitForFunction(
				() => performance.getEntriesByName('benchtop:first-result')[0]?.startTime,
				undefined,
				{ timeout: 180_000 },
			);
			const ms = Math.round(Number(await handle.jsonValue()));
			log(`app   open → first result (gpt2-en-small, fresh profile): ${ms} ms`);
			times.push(ms);
		} finally {
			await context.close();
		}
	}
	return times;
}

/** The 34 suites' files, for the app battery (the user's "Add files"). */
async function suites34Files(): Promise<string[]> {
	const files = (await readdir(SUITES34_DIR)).filter((f) => f.endsWith('.json')).sort();
	return files.map((f) => new URL(f, SUITES34_DIR).pathname);
}

/**
 * The 34 suites as one battery on the app's own path: a fresh profile opens the Battery page, adds
 * the 34 files, keeps the default model (gpt2-en-small, WASM) and its convention, waits until the
 * model is loaded (warm) and the first visit's offline install has finished, then times Run
 * battery → "Battery done" (one pooled request, every item stored in IndexedDB). Median of
 * REPEATS; every run is logged.
 */
/** Items of the generated suite run bundle that part `bundle-import` imports on History. */
const IMPORT_ITEMS = Number(process.env.BENCHTOP_BENCH_IMPORT_ITEMS ?? 100_000) || 100_000;

/**
 * Imports a generated IMPORT_ITEMS-item suite run bundle (one two-token sentence per item) on
 * the app's History page, each time in a fresh profile: file picked → the run's results page.
 * Median of REPEATS; every run is logged.
 */
async function benchBundleImport(
	browser: Browser,
): Promise<{ wallMs: number; runsMs: number[]; mib: number }> {
	const { SUITE_RUN_KIND } = await import('../src/core/syntaxgym/suite-run-kind');
	const { sha256Hex } = await import('../src/core/hash/sha256');
	const suiteText = '{"meta":{"name":"generated"}}\n';
	const text = SUITE_RUN_KIND.bundle.write({
		run: {
			suiteName: 'generated',
			suiteSha256: sha256Hex(suiteText),
			model: { source: 'bundled', id: 'gpt2-random-tiny', dtype: 'fp32', backend: 'wasm' },
			convention: 'bos',
			itemCount: IMPORT_ITEMS,
			appVersion: 'bench',
			createdAt: 1_700_000_000_000,
			updatedAt: 1_700_000_000_000,
			status: 'done',
			scoringMs: 0,
			tokenCount: IMPORT_ITEMS * 2,
		},
		suiteText,
		items: Array.from({ length: IMPORT_ITEMS }, (_, index) => ({
			itemNumber: index + 1,
			sentences: [
				{
					conditionName: 'good',
					text: 'a b',
					tokens: [
						{ token: 'a', surprisalBits: 1.5, start: 0, end: 1 },
						{ token: 'Ġb', surprisalBits: index % 17, start: 1, end: 3 },
					],
				},
			],
		})),
	});
	const mib = round(text.length / 2 ** 20, 1);
	// A file on disk: the browser reads it as a picked file (a buffer would cross the protocol).
	const file = join(tmpdir(), `benchtop-bench-import-${IMPORT_ITEMS}.json`);
	await writeFile(file, text);
	const runsMs: number[] = [];
	for (let run = 0; run < REPEATS; run++) {
		const context = await browser.newContext();
		try {
			const page = await context.newPage();
			await page.goto(`http://127.0.0.1:${PORT}/#/history`);
			await page.getByText('No runs yet.').waitFor();
			const started = performance.now();
			await page.getByTestId('history-import').setInputFiles(file, { timeout: 600_000 });
			await page.waitForURL(/#\/results\/\d+$/, { timeout: 600_000 });
			const wallMs = Math.round(performance.now() - started);
			runsMs.push(wallMs);
			log(`bundle import, ${IMPORT_ITEMS} items (${mib} MiB), run ${run + 1}: ${wallMs} ms`);
		} finally {
			await context.close();
		}
	}
	const wallMs = medianBy(runsMs, (ms) => ms) ?? 0;
	return { wallMs, runsMs, mib };
}

/** The page's main thread during one app battery run (Chromium's own counters, CDP `Performance`). */
interface MainThreadFigure {
	/** Busy: every task on the main thread (script, style, layout, paint, IndexedDB callbacks). */
	readonly taskS: number;
	readonly scriptS: number;
	/** Style recalculation and layout. */
	readonly layoutS: number;
}

/** The app battery's wall times, the main thread's time in each run and the last run's profile. */
interface AppBatteryBench {
	readonly runsMs: number[];
	readonly mainThread: MainThreadFigure[];
	/** The functions with the most main-thread self time in the last run (sampling profile). */
	readonly profile: { readonly fn: string; readonly selfMs: number }[];
}

type CdpMetrics = { metrics: { name: string; value: number }[] };

function metricOf(read: CdpMetrics, name: string): number {
	return read.metrics.find((metric) => metric.name === name)?.value ?? 0;
}

interface CpuProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
	nodes: CpuProfileNode[];
	samples: number[];
	timeDeltas: number[];
}

/** Self time by function (name, file and line) of a sampling profile, most first. */
function selfTimes(profile: CpuProfile, top: number): { fn: string; selfMs: number }[] {
	const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
	const totals = new Map<string, number>();
	profile.samples.forEach((id, index) => {
		const frame = byNode.get(id)?.callFrame;
		if (!frame) return;
		const file = frame.url.split('/').pop() ?? '';
		const fn = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
		totals.set(fn, (totals.get(fn) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
	});
	return [...totals]
		.map(([fn, selfMs]) => ({ fn, selfMs: Math.round(selfMs) }))
		.sort((a, b) => b.selfMs - a.selfMs)
		.slice(0, top);
}

async function benchAppBattery(
	browser: Browser,
	files: readonly string[],
): Promise<AppBatteryBench> {
	const runsMs: number[] = [];
	const mainThread: MainThreadFigure[] = [];
	let profile: AppBatteryBench['profile'] = [];
	for (let run = 0; run < REPEATS; run++) {
		const context = await browser.newContext();
		try {
			const page = await context.newPage();
			await openBatteryWithSuites(page, `http://127.0.0.1:${PORT}`, files);
			await page.getByText(`Loaded ${HEADLINE_MODEL}`).waitFor({ timeout: 180_000 });
			// A fresh profile also installs the app for offline use (the service worker caches the
			// app and the bundled models) once, in the background: the battery is timed after it.
			await page.getByText('Ready to work offline').waitFor({ timeout: 180_000 });
			const what = (await page.locator('#battery-blocker').textContent())?.trim() ?? '';
			const cdp = await context.newCDPSession(page);
			await cdp.send('Performance.enable');
			const profiled = run === REPEATS - 1;
			if (profiled) {
				await cdp.send('Profiler.enable');
				await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
				await cdp.send('Profiler.start');
			}
			const before = (await cdp.send('Performance.getMetrics')) as CdpMetrics;
			const started = performance.now();
			await page.getByRole('button', { name: 'Run battery' }).click();
			await waitForBatteryDone(page);
			const ms = Math.round(performance.now() - started);
			const after = (await cdp.send('Performance.getMetrics')) as CdpMetrics;
			if (profiled) {
				const { profile: cpu } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
				profile = selfTimes(cpu, 12);
			}
			const spent = (name: string): number =>
				round(metricOf(after, name) - metricOf(before, name), 2);
			const figure = {
				taskS: spent('TaskDuration'),
				scriptS: spent('ScriptDuration'),
				layoutS: round(spent('RecalcStyleDuration') + spent('LayoutDuration'), 2),
			};
			log(
				`app   battery, 34 suites (${what}): ${ms} ms; main thread busy ${figure.taskS} s ` +
					`(script ${figure.scriptS} s, style and layout ${figure.layoutS} s)`,
			);
			runsMs.push(ms);
			mainThread.push(figure);
		} finally {
			await context.close();
		}
	}
	if (profile.length > 0) {
		log('app   battery, main thread, most self time (last run):');
		for (const { fn, selfMs } of profile) log(`        ${String(selfMs).padStart(6)} ms  ${fn}`);
	}
	return { runsMs, mainThread, profile };
}

function headline(results: readonly Measurement[]): number | null {
	const m = results.find((r) => r.model === HEADLINE_MODEL && r.batchSize === 'default');
	return m?.tokensPerSecond ?? null;
}

/** One batch's shape for the op profiles: 16 sentences of 24 tokens, about a suite's batch. */
const OP_PROFILE_SHAPE = { batchSize: 16, sequenceLength: 24 } as const;

/** Part `op-profile`: gpt2-en-small, and the GPT-2-124M-shaped model when it was built, at each
 * profiled dtype; a profile that fails is logged and left out. */
async function opProfile(
	browser: Browser,
	threads: number,
	gpt2Dir: string | undefined,
): Promise<OpProfile[]> {
	const models: [string, string][] = [
		[HEADLINE_MODEL, new URL(`public/models/${HEADLINE_MODEL}/`, ROOT).pathname],
		...(gpt2Dir ? ([['gpt2-124m', gpt2Dir]] as [string, string][]) : []),
	];
	const profiles: OpProfile[] = [];
	for (const [model, dir] of models) {
		for (const dtype of Object.keys(PROFILE_FILES) as ProfileDtype[]) {
			try {
				profiles.push(
					await benchOpProfile(browser, model, dir, dtype, { ...OP_PROFILE_SHAPE, threads }, log),
				);
			} catch (error) {
				log(`op-profile ${model} ${dtype}: failed: ${String(error)}`);
			}
		}
	}
	return profiles;
}

async function main(): Promise<void> {
	const loadBefore = loadavg()[0] ?? 0;
	const texts = await benchSentences();
	const threads = availableParallelism();
	log(`bench: ${texts.length} sentences, ${threads} threads, models ${MODELS.join(', ')}`);

	const node = PARTS.has('node') ? await benchNode(texts, threads) : [];
	const wantSuites =
		PARTS.has('suites34-node') ||
		PARTS.has('suites34-wasm') ||
		PARTS.has('app-battery') ||
		PARTS.has('gpt2-124m');
	const suites = wantSuites ? await suites34() : undefined;
	if (wantSuites && suites === undefined)
		log(`suites34: ${SUITES34_DIR.pathname} is absent; skipped`);
	const suitesNode =
		suites && PARTS.has('suites34-node') ? await suites34Node(suites, threads, false) : undefined;
	if (suitesNode) logSuites('node', suitesNode);
	const suitesNodePooled =
		suites && PARTS.has('suites34-node') ? await suites34Node(suites, threads, true) : undefined;
	if (suitesNodePooled) logSuites('node, one request', suitesNodePooled);
	const generation: GenerationBench | undefined = PARTS.has('generate')
		? await benchGeneration(threads)
		: undefined;
	if (generation) log(`generate ${JSON.stringify(generation)}`);
	const ltm: LtmBench | undefined = PARTS.has('ltm') ? await benchLtmReplay() : undefined;
	if (ltm?.ltm_replay_skipped) log(`ltm: ${ltm.ltm_replay_skipped}; skipped`);
	else if (ltm) log(`ltm ${JSON.stringify(ltm)}`);
	const bundle: BundleBench | undefined = PARTS.has('bundle') ? benchBundle() : undefined;
	if (bundle) log(`bundle ${JSON.stringify(bundle)}`);
	const gpt2Dir =
		suites !== undefined && PARTS.has('gpt2-124m') ? (await ensureGpt2124m(log)).dir : undefined;
	const gpt2Node =
		gpt2Dir && suites
			? await benchGpt2124mNode(gpt2Dir, suites, threads, SUITES34_CONVENTION, REPEATS, log)
			: {};

	log(`building the app into ${OUT_DIR}`);
	await build({
		root: new URL('.', ROOT).pathname,
		logLevel: 'warn',
		// BENCHTOP_BENCH_MINIFY=0: names in the logged profiles (slower code; not for figures).
		build: {
			outDir: OUT_DIR,
			emptyOutDir: true,
			...(process.env.BENCHTOP_BENCH_MINIFY === '0' ? { minify: false } : {}),
		},
	});
	const server = await preview({
		root: new URL('.', ROOT).pathname,
		logLevel: 'warn',
		build: { outDir: OUT_DIR },
		preview: { host: '127.0.0.1', port: PORT, strictPort: true },
	});
	const browser = await chromium.launch({
		executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
		// As in playwright.config.ts: Chromium must not dial out on its own.
		args: ['--disable-background-networking', '--disable-component-update', '--no-first-run'],
	});
	try {
		const page = await browser.newPage();
		await page.goto(`http://127.0.0.1:${PORT}/harness/engine.html`);
		await page.waitForFunction(() => window.benchtopEngine !== undefined);
		const environment = await page.evaluate(async () => {
			const gpu = (navigator as { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
			const adapter = gpu ? await gpu.requestAdapter().catch(() => null) : null;
			return {
				crossOriginIsolated: self.crossOriginIsolated,
				hardwareConcurrency: navigator.hardwareConcurrency,
				webgpuAdapter: adapter !== null,
			};
		});
		log(`chromium: ${JSON.stringify(environment)}`);
		const browserParts = PARTS.has('browser');
		const wasm = browserParts ? await benchBrowser(page, texts, 'wasm') : [];
		const webgpu =
			browserParts && environment.webgpuAdapter ? await benchBrowser(page, texts, 'webgpu') : [];

		let suitesRun: (SuitesFigure & { readonly failed: SuitesRun['failed'] }) | undefined;
		let suitesRunPooled: SuitesFigure | undefined;
		if (suites !== undefined && PARTS.has('suites34-wasm')) {
			const { modelKey } = await page.evaluate(
				(s) => (window.benchtopEngine as EngineHarness).load(s),
				spec(HEADLINE_MODEL, 'wasm'),
			);
			const runSuites = (pooled: boolean) =>
				medianRun(async () => {
					const run = await page.evaluate(
						({ key, jsons, convention, pooled }) =>
							(window.benchtopEngine as EngineHarness).runSuites(
								key,
								jsons,
								convention,
								undefined,
								pooled,
							),
						{ key: modelKey, jsons: suites, convention: SUITES34_CONVENTION, pooled },
					);
					// A harness without the count (an older build) computed every token.
					return { ...run, tokensComputed: run.tokensComputed ?? run.tokens };
				});
			suitesRun = await runSuites(false);
			logSuites('chromium wasm', suitesRun);
			if (suitesRun.failed.length > 0) log(`suites34 failed: ${JSON.stringify(suitesRun.failed)}`);
			suitesRunPooled = await runSuites(true);
			logSuites('chromium wasm, one request', suitesRunPooled);
		}

		const generateWasm = PARTS.has('generate') ? await benchBrowserGeneration(page) : undefined;
		if (generateWasm) log(`generate chromium wasm: ${JSON.stringify(generateWasm)}`);

		const appFirstResult = PARTS.has('app') ? await benchAppFirstResult(browser) : [];
		const appBattery =
			PARTS.has('app-battery') && suites !== undefined
				? await benchAppBattery(browser, await suites34Files())
				: undefined;
		// The median run's figures (its main thread's too).
		const appBatteryMedianMs = appBattery ? medianBy(appBattery.runsMs, (ms) => ms) : undefined;
		const appBatteryMain =
			appBattery && appBatteryMedianMs !== undefined
				? appBattery.mainThread[appBattery.runsMs.indexOf(appBatteryMedianMs)]
				: undefined;

		const bundleImport = PARTS.has('bundle-import') ? await benchBundleImport(browser) : undefined;
		const stimuli: StimuliBench | undefined = PARTS.has('stimuli')
			? await benchStimuli(browser, `http://127.0.0.1:${PORT}`, REPEATS, log)
			: undefined;

		const opProfiles = PARTS.has('op-profile') ? await opProfile(browser, threads, gpt2Dir) : [];

		const gpt2Wasm =
			gpt2Dir && suites
				? await benchGpt2124mBrowser(
						{
							dir: gpt2Dir,
							outDir: OUT_DIR,
							origin: `http://127.0.0.1:${PORT}`,
							jsons: suites,
							suiteFiles: await suites34Files(),
							convention: SUITES34_CONVENTION,
							repeats: REPEATS,
						},
						log,
					)
				: {};
		const gpt2 = gpt2Dir
			? {
					...gpt2Node,
					...gpt2Wasm,
					...(await gpt2124mRatios({ ...gpt2Node, ...gpt2Wasm }, gpt2Dir)),
				}
			: {};

		const nodeHeadline = headline(node);
		const wasmHeadline = headline(wasm);
		const summary = {
			model: HEADLINE_MODEL,
			threads,
			repeats: REPEATS,
			browser_threads: Math.min(8, environment.hardwareConcurrency),
			node_tokens_per_s: nodeHeadline,
			wasm_tokens_per_s: wasmHeadline,
			webgpu_tokens_per_s: headline(webgpu),
			wasm_vs_node: nodeHeadline && wasmHeadline ? round(wasmHeadline / nodeHeadline, 3) : null,
			suites34_convention: SUITES34_CONVENTION,
			suites34_wall_s: suitesRun ? round(suitesRun.wallMs / 1000, 2) : null,
			suites34_sentences: suitesRun?.sentences ?? null,
			suites34_tokens: suitesRun?.tokens ?? null,
			suites34_tokens_computed: suitesRun?.tokensComputed ?? null,
			suites34_tokens_computed_ratio: suitesRun
				? round(suitesRun.tokensComputed / suitesRun.tokens, 3)
				: null,
			suites34_node_wall_s: suitesNode ? round(suitesNode.wallMs / 1000, 2) : null,
			// The same 34 suites scored in one request (`run a.json b.json ...`): sentences of
			// different suites share prefixes too.
			suites34_pooled_wall_s: suitesRunPooled ? round(suitesRunPooled.wallMs / 1000, 2) : null,
			suites34_pooled_tokens_computed: suitesRunPooled?.tokensComputed ?? null,
			suites34_node_pooled_wall_s: suitesNodePooled
				? round(suitesNodePooled.wallMs / 1000, 2)
				: null,
			app_open_to_first_result_ms: medianBy(appFirstResult, (ms) => ms) ?? null,
			// The 34 suites as one battery in the app (Battery page, fresh profile, model warm).
			suites34_app_battery_wall_s:
				appBatteryMedianMs === undefined ? null : round(appBatteryMedianMs / 1000, 2),
			// Issue 29's goal: at most 1.1 (the app's own path adds nothing worth measuring).
			suites34_app_battery_vs_pooled:
				appBatteryMedianMs !== undefined && suitesRunPooled
					? round(appBatteryMedianMs / suitesRunPooled.wallMs, 2)
					: null,
			// Where the rest goes: the page's main thread in that run (it shares the cores with the
			// worker's threads), from Chromium's own counters; its busiest functions are logged.
			suites34_app_battery_main_task_s: appBatteryMain?.taskS ?? null,
			suites34_app_battery_main_script_s: appBatteryMain?.scriptS ?? null,
			suites34_app_battery_main_layout_s: appBatteryMain?.layoutS ?? null,
			generate_tokens_per_s_node: generation?.generate_tokens_per_s_node ?? null,
			generate_tokens_per_s_serve: generation?.generate_tokens_per_s_serve ?? null,
			generate_tokens_per_s_wasm: generateWasm?.tokensPerSecond ?? null,
			// `ltm run`, no-op replay agent, the peer's 1k definitions (null: skipped, reason beside).
			ltm_replay_128k_wall_s: ltm?.ltm_replay_128k_wall_s ?? null,
			ltm_replay_500k_wall_s: ltm?.ltm_replay_500k_wall_s ?? null,
			ltm_replay_skipped: ltm ? ltm.ltm_replay_skipped : 'not in BENCHTOP_BENCH_PARTS',
			// A 3,000-item suite run bundle: written (sealed) and read back (seal checked).
			bundle_suite_mib: bundle?.bundle_suite_mib ?? null,
			bundle_suite_write_s: bundle?.bundle_suite_write_s ?? null,
			bundle_suite_read_s: bundle?.bundle_suite_read_s ?? null,
			// A generated suite run bundle imported on History (fresh profile): file picked → results.
			bundle_import_items: bundleImport ? IMPORT_ITEMS : null,
			bundle_import_mib: bundleImport?.mib ?? null,
			// Median of REPEATS imports, each in a fresh profile.
			bundle_import_wall_s: bundleImport ? round(bundleImport.wallMs / 1000, 2) : null,
			bundle_import_items_per_s_chromium: bundleImport
				? Math.round(IMPORT_ITEMS / (bundleImport.wallMs / 1000))
				: null,
			// A 10,000-word stimulus file (bench/stimuli-bench.ts): the app's Stimuli page and the
			// CLI's `stimuli` in Node, model load included in both; the tab's longest main-thread task;
			// a 2,000-sentence file picked → first rows shown.
			stimuli_words: stimuli?.stimuli_words ?? null,
			stimuli_10k_words_wall_s: stimuli?.stimuli_10k_words_wall_s ?? null,
			stimuli_10k_words_node_wall_s: stimuli?.stimuli_10k_words_node_wall_s ?? null,
			stimuli_tab_vs_node: stimuli?.stimuli_tab_vs_node ?? null,
			stimuli_longest_main_task_ms: stimuli?.stimuli_longest_main_task_ms ?? null,
			stimuli_2000_sentences_first_rows_ms: stimuli?.stimuli_2000_sentences_first_rows_ms ?? null,
			// A GPT-2-124M-shaped model (part gpt2-124m, opt-in): Node (onnxruntime-node) and
			// Chromium WASM, fp32 and q8, one run each (bench/gpt2-124m-bench.ts).
			...gpt2,
			// Per op type, Node against Chromium WASM, one batch of the app's scoring graph.
			...Object.assign({}, ...opProfiles.map(opProfileFigures)),
			cross_origin_isolated: environment.crossOriginIsolated,
			// Other processes on the machine skew every figure: the 1-minute load average before and after.
			load_average: [round(loadBefore, 2), round(loadavg()[0] ?? 0, 2)],
			measurements: {
				node,
				wasm,
				webgpu,
				suites34_wall_ms: suitesRun?.runsMs ?? [],
				suites34_node_wall_ms: suitesNode?.runsMs ?? [],
				suites34_pooled_wall_ms: suitesRunPooled?.runsMs ?? [],
				suites34_node_pooled_wall_ms: suitesNodePooled?.runsMs ?? [],
				app_open_to_first_result_ms: appFirstResult,
				suites34_app_battery_wall_ms: appBattery?.runsMs ?? [],
				suites34_app_battery_main_thread: appBattery?.mainThread ?? [],
				suites34_app_battery_main_profile: appBattery?.profile ?? [],
				bundle_import_wall_ms: bundleImport?.runsMs ?? [],
				stimuli: stimuli?.measurements ?? null,
				op_profiles: opProfiles,
			},
		};
		log(JSON.stringify(summary));
	} finally {
		await browser.close();
		await server.close();
	}
}

await main();
