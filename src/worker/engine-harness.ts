/**
 * Script of harness/engine.html, a page for Playwright parity checks and the bench (not linked
 * from the app): exposes `window.benchtopEngine`, which drives the real inference worker.
 */
import type { ModelSpec, SurprisalConvention } from '../core/model/model-spec';
import { scoreSuites } from '../core/syntaxgym/scoring/score-suite';
import { buildSuiteSentences } from '../core/syntaxgym/suite/build-sentences';
import { parseSuite } from '../core/syntaxgym/suite/parse-suite';
import type { Suite } from '../core/syntaxgym/suite/types';
import { createInferenceClient } from './inference-client';
import type {
	CachedModel,
	LoadProgress,
	LocalModelFile,
	GenerateTextResult,
	ModelInfo,
	ScoreTextsResult,
} from './protocol';

export interface EngineHarness {
	/** Loads `spec` in the worker (real engine); its load events are appended to `progress`. */
	load(spec: ModelSpec, localFiles?: readonly LocalModelFile[]): Promise<ModelInfo>;
	listCachedModels(): Promise<readonly CachedModel[]>;
	deleteCachedModel(id: string): Promise<{ readonly filesDeleted: number }>;
	/** Scores `texts` with the loaded model; `wallMs` is measured on the page. `prefixReuse`
	 * false runs plain batches; `wordBoundaries` true also gives each token its boundary
	 * surprisal. */
	score(
		modelKey: string,
		texts: readonly string[],
		convention: SurprisalConvention,
		maxBatchSize?: number,
		prefixReuse?: boolean,
		wordBoundaries?: boolean,
	): Promise<ScoreTextsResult & { readonly wallMs: number }>;
	/**
	 * Parses, scores and evaluates every suite: one scoring request per suite, as the app runs
	 * them, or with `pooled` one request for all (as the CLI's `run a.json b.json ...`); `wallMs`
	 * covers all of it, from the first parse to the last prediction.
	 */
	runSuites(
		modelKey: string,
		suiteJsons: readonly string[],
		convention: SurprisalConvention,
		prefixReuse?: boolean,
		pooled?: boolean,
	): Promise<SuitesRun>;
	/** Starts scoring and cancels (AbortSignal → `cancel` message) after `batches` progress
	 * events; resolves with the error's name and the progress events seen in all. */
	scoreAndCancel(
		modelKey: string,
		texts: readonly string[],
		maxBatchSize: number,
		batches: number,
	): Promise<{ readonly errorName: string | null; readonly progressEvents: number }>;
	/** Greedy generation of up to `maxTokens` new tokens from `text`; `wallMs` measured on the page. */
	generate(
		modelKey: string,
		text: string,
		maxTokens: number,
	): Promise<GenerateTextResult & { readonly wallMs: number }>;
	readonly crossOriginIsolated: boolean;
	readonly hardwareConcurrency: number;
	readonly progress: LoadProgress[];
}

export interface SuitesRun {
	readonly wallMs: number;
	readonly sentences: number;
	readonly tokens: number;
	/** Token positions the model computed, padding included. */
	readonly tokensComputed: number;
	readonly suites: readonly { readonly name: string; readonly items: number }[];
	/** Suites that did not parse, by index, with the first error. */
	readonly failed: readonly { readonly index: number; readonly message: string }[];
}

declare global {
	interface Window {
		benchtopEngine?: EngineHarness;
	}
}

const progress: LoadProgress[] = [];
const client = createInferenceClient({ kind: 'real' });

window.benchtopEngine = {
	load: (spec, localFiles) =>
		client.call(
			'loadModel',
			{ spec, ...(localFiles ? { localFiles } : {}) },
			{ onLoadProgress: (event) => progress.push(event) },
		),
	listCachedModels: () => client.call('listCachedModels', {}),
	deleteCachedModel: (id) => client.call('deleteCachedModel', { id }),
	async score(modelKey, texts, convention, maxBatchSize, prefixReuse, wordBoundaries) {
		const started = performance.now();
		const result = await client.call('scoreTexts', {
			modelKey,
			texts,
			convention,
			...(maxBatchSize !== undefined ? { maxBatchSize } : {}),
			...(prefixReuse !== undefined ? { prefixReuse } : {}),
			...(wordBoundaries !== undefined ? { wordBoundaries } : {}),
		});
		return { ...result, wallMs: performance.now() - started };
	},
	async runSuites(modelKey, suiteJsons, convention, prefixReuse, pooled) {
		const started = performance.now();
		let sentences = 0;
		let tokens = 0;
		let tokensComputed = 0;
		const suites: { name: string; items: number }[] = [];
		const failed: { index: number; message: string }[] = [];
		const parsedSuites: Suite[] = [];
		for (const [index, json] of suiteJsons.entries()) {
			const parsed = parseSuite(json);
			if (parsed.ok) parsedSuites.push(parsed.suite);
			else {
				const message = parsed.diagnostics.find((d) => d.severity === 'error')?.message ?? '';
				failed.push({ index, message });
			}
		}
		const score = async (batch: readonly Suite[]) => {
			const result = await client.call('scoreTexts', {
				modelKey,
				texts: batch.flatMap((suite) => buildSuiteSentences(suite).map((s) => s.text)),
				convention,
				...(prefixReuse !== undefined ? { prefixReuse } : {}),
			});
			tokens += result.tokenCount;
			tokensComputed += result.positionsComputed ?? result.tokenCount;
			const scored = scoreSuites(
				batch,
				result.texts.map((text) => text.tokens),
				{ alignment: 'offsets' },
			);
			sentences += result.texts.length;
			for (const { suite, score } of scored)
				suites.push({ name: suite.meta.name, items: score.items.length });
		};
		if (pooled) await score(parsedSuites);
		else for (const suite of parsedSuites) await score([suite]);
		return {
			wallMs: performance.now() - started,
			sentences,
			tokens,
			tokensComputed,
			suites,
			failed,
		};
	},
	async generate(modelKey, text, maxTokens) {
		const started = performance.now();
		const result = await client.call('generate', {
			modelKey,
			prompt: { kind: 'text', text },
			params: { temperature: 0, max_tokens: maxTokens },
		});
		return { ...result, wallMs: performance.now() - started };
	},
	async scoreAndCancel(modelKey, texts, maxBatchSize, batches) {
		const controller = new AbortController();
		let progressEvents = 0;
		const run = client.call(
			'scoreTexts',
			{ modelKey, texts, convention: 'bos', maxBatchSize },
			{
				signal: controller.signal,
				onScoreProgress: () => {
					progressEvents++;
					if (progressEvents === batches) controller.abort();
				},
			},
		);
		const errorName = await run.then(
			() => null,
			(error: Error) => error.name,
		);
		// Late progress events of batches already under way would arrive before the error.
		return { errorName, progressEvents };
	},
	crossOriginIsolated: self.crossOriginIsolated,
	hardwareConcurrency: navigator.hardwareConcurrency,
	progress,
};

const status = document.getElementById('status');
if (status) status.textContent = 'ready';
