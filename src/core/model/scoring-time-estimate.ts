/**
 * How long the tab takes to score sentences with a model, estimated before any download from
 * speeds this app measured in a tab. Pure: the model's size, the browser's thread facts and the
 * sentences come in as data. An estimate to show, rounded; it decides nothing.
 */
import type { ModelDtype } from './model-spec';

/** The most WASM threads the inference worker uses (`src/worker/ort-web.ts`). */
export const WASM_MAX_THREADS = 8;

/**
 * The threads the worker's WASM backend runs: every core the browser reports, at most
 * WASM_MAX_THREADS; one when the page is not cross-origin isolated (no shared memory, so no
 * threads) or the browser reports no core count.
 */
export function wasmThreadCount(
	hardwareConcurrency: number | null | undefined,
	crossOriginIsolated: boolean,
): number {
	if (!crossOriginIsolated) return 1;
	const cores =
		typeof hardwareConcurrency === 'number' && Number.isFinite(hardwareConcurrency)
			? Math.floor(hardwareConcurrency)
			: 1;
	return Math.max(1, Math.min(WASM_MAX_THREADS, cores));
}

/** One measured speed of the app's tab (Chromium, WASM): suite tokens scored per second. */
export interface MeasuredTabSpeed {
	readonly model: string;
	readonly parameters: number;
	readonly tokensPerSecond: number;
	readonly threads: number;
	/** Where the figure comes from. */
	readonly source: string;
}

/** The 34 SyntaxGym suites (Hu et al. 2020) as the bench scores them: tokens with one BOS each. */
const SUITES34_TOKENS = 55_315;

/**
 * The measured points, both on the 34 suites' 55,315 tokens (bundled 8k tokenizer, BOS, shared
 * prefixes computed once) with 2 threads on 2-core machines. fp32; q8 ran as fast per suite token
 * (273 against 272 tokens/s for the GPT-2-sized model: it computes every position, which eats its
 * faster arithmetic), so q8 uses the same figures. fp16: see FP16_SPEED_RELATIVE_TO_FP32; WebGPU was not measured.
 */
export const MEASURED_TAB_SPEEDS: readonly MeasuredTabSpeed[] = [
	{
		model: 'GPT-2-124M-shaped model (fp32)',
		parameters: 124_439_808,
		tokensPerSecond: 272.2,
		threads: 2,
		source:
			'an earlier bench run (gpt2-124m part, 2-core machine, issue 29): 34 suites in 203.2 s in the tab',
	},
	{
		model: 'gpt2-en-small, bundled (fp32)',
		parameters: 8_546_816,
		tokensPerSecond: SUITES34_TOKENS / 13.03,
		threads: 2,
		source: "issue 29: the 34 suites as one battery on the app's Battery page in 13.03 s",
	},
];

/**
 * The tab's speed with fp16 weights relative to fp32, from one bench run on another 2-core machine
 * (the GPT-2-sized model, the 34 suites, 2 threads, medians of 3): 133.8 s fp32, 223.7 s fp16.
 * fp16 is slower on the CPU, and the engine computes every position for it (as for q8).
 */
export const FP16_SPEED_RELATIVE_TO_FP32 = 133.8 / 223.7;

/**
 * Parameters × tokens per second per thread, the one constant of the model below: the geometric
 * mean over the measured points (the two differ by 7%, so tokens/s ∝ 1/parameters fits both).
 */
export const PARAMETER_TOKENS_PER_THREAD_SECOND: number = Math.exp(
	MEASURED_TAB_SPEEDS.reduce(
		(sum, point) => sum + Math.log((point.parameters * point.tokensPerSecond) / point.threads),
		0,
	) / MEASURED_TAB_SPEEDS.length,
);

/**
 * Characters per token of suite sentences, measured: the 34 suites' 3,304 sentences have 239,600
 * characters and 52,011 tokens with the bundled 8k tokenizer (55,315 with one BOS each). GPT-2's
 * own 50k tokenizer cuts English into fewer tokens, so for it the count is on the high side.
 */
export const CHARACTERS_PER_TOKEN = 4.6;

/** Tokens to score for these sentences, estimated: characters ÷ CHARACTERS_PER_TOKEN, plus a BOS each. */
export function estimateTokenCount(sentences: readonly string[]): number {
	let characters = 0;
	for (const sentence of sentences) characters += sentence.length;
	return Math.round(characters / CHARACTERS_PER_TOKEN) + sentences.length;
}

/** A token estimate said with two significant digits (`about 1,900 tokens`). */
export function describeTokenCount(tokens: number): string {
	if (!Number.isFinite(tokens) || tokens < 0) return 'an unknown number of tokens';
	const digits = Math.max(0, Math.floor(Math.log10(Math.max(1, tokens))) - 1);
	const rounded = Math.round(tokens / 10 ** digits) * 10 ** digits;
	return `about ${rounded.toLocaleString('en')} token${rounded === 1 ? '' : 's'}`;
}

export interface ScoringTimeQuery {
	readonly parameters: number;
	readonly dtype: ModelDtype;
	readonly backend: 'wasm' | 'webgpu';
	/** The worker's WASM threads (see wasmThreadCount). */
	readonly threads: number;
	/** Tokens to score (see estimateTokenCount). */
	readonly tokens: number;
}

export type ScoringTimeEstimate =
	| {
			readonly kind: 'estimate';
			readonly seconds: number;
			readonly tokensPerSecond: number;
			readonly threads: number;
	  }
	| { readonly kind: 'none'; readonly reason: string };

/**
 * Seconds to score `tokens` in the tab: tokens/s = PARAMETER_TOKENS_PER_THREAD_SECOND × threads ÷
 * parameters. Inverse in parameters is a first model that the two measured points bear out;
 * linear in threads (up to WASM_MAX_THREADS) is not measured beyond 2 threads, and more cores
 * seldom scale fully, so on 4–8 threads the estimate is likely short. Downloading and loading
 * the model are not included. fp16 at FP16_SPEED_RELATIVE_TO_FP32 of fp32's speed; no estimate
 * for WebGPU (not measured).
 */
export function estimateScoringTime(query: ScoringTimeQuery): ScoringTimeEstimate {
	if (query.backend === 'webgpu') {
		return { kind: 'none', reason: 'No time estimate on WebGPU yet: its speed is not measured.' };
	}
	if (!(query.parameters > 0) || !(query.tokens >= 0)) {
		return { kind: 'none', reason: 'No time estimate: the model size is not known.' };
	}
	const threads = Math.max(1, Math.min(WASM_MAX_THREADS, Math.floor(query.threads) || 1));
	const dtypeSpeed = query.dtype === 'fp16' ? FP16_SPEED_RELATIVE_TO_FP32 : 1;
	const tokensPerSecond =
		(PARAMETER_TOKENS_PER_THREAD_SECOND * threads * dtypeSpeed) / query.parameters;
	return { kind: 'estimate', seconds: query.tokens / tokensPerSecond, tokensPerSecond, threads };
}

/**
 * A duration with no more precision than an estimate has: under 10 s; tens of seconds; whole
 * minutes up to 10 min, then fives; half hours up to 10 h, then whole hours.
 */
export function formatEstimatedDuration(seconds: number): string {
	if (!Number.isFinite(seconds) || seconds < 0) return 'an unknown time';
	if (seconds < 10) return 'under 10 s';
	const tens = Math.round(seconds / 10) * 10;
	if (tens < 60) return `about ${tens} s`;
	const minutes = seconds / 60;
	const roundedMinutes =
		minutes < 10 ? Math.max(1, Math.round(minutes)) : Math.round(minutes / 5) * 5;
	if (roundedMinutes < 60) return `about ${roundedMinutes} min`;
	const hours = minutes / 60;
	const roundedHours = hours < 10 ? Math.max(1, Math.round(hours * 2) / 2) : Math.round(hours);
	return `about ${roundedHours} h`;
}

/** `about 4 min on this device (estimate)`, or the reason there is none. */
export function describeScoringTime(estimate: ScoringTimeEstimate): string {
	return estimate.kind === 'estimate'
		? `${formatEstimatedDuration(estimate.seconds)} on this device (estimate)`
		: estimate.reason;
}

/** The worker's WASM threads on this device, and why (for the estimate's basis). */
export function describeWasmThreads(
	hardwareConcurrency: number | null | undefined,
	crossOriginIsolated: boolean,
): string {
	const threads = wasmThreadCount(hardwareConcurrency, crossOriginIsolated);
	if (!crossOriginIsolated) return '1 thread: this page is not cross-origin isolated';
	if (typeof hardwareConcurrency !== 'number' || !Number.isFinite(hardwareConcurrency)) {
		return '1 thread: the browser does not report its cores';
	}
	if (hardwareConcurrency > WASM_MAX_THREADS) {
		return `${threads} threads, the worker's most (the browser reports ${hardwareConcurrency} cores)`;
	}
	return threads === 1 ? '1 thread' : `${threads} threads, one per core the browser reports`;
}

/** How the estimate is made, in one paragraph for the user (figures from the constants above). */
export function describeScoringTimeBasis(
	hardwareConcurrency: number | null | undefined,
	crossOriginIsolated: boolean,
): string {
	const [large, small] = MEASURED_TAB_SPEEDS;
	const speed = (point: MeasuredTabSpeed | undefined): string =>
		point ? Math.round(point.tokensPerSecond).toLocaleString('en') : '?';
	const millions = (point: MeasuredTabSpeed | undefined): string =>
		point ? `${(point.parameters / 1e6).toFixed(1)} M` : '?';
	return (
		`From this app's measured speed in a tab (WASM, 2 threads, the 34 SyntaxGym suites): ` +
		`${speed(large)} tokens/s for a ${millions(large)}-parameter GPT-2 and ${speed(small)} for ` +
		`the bundled ${millions(small)}-parameter model, taken as inversely proportional to the ` +
		`parameters and proportional to the threads (here ` +
		`${describeWasmThreads(hardwareConcurrency, crossOriginIsolated)}; not measured above 2, so ` +
		`with more the estimate is likely short). Tokens are counted as characters ÷ ` +
		`${CHARACTERS_PER_TOKEN} plus one per sentence. fp16 weights are taken at ` +
		`${FP16_SPEED_RELATIVE_TO_FP32.toFixed(2)} of fp32's speed (measured the same way). ` +
		`Downloading and loading the model are not included.`
	);
}
