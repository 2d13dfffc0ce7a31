// The tab's scoring-time estimate: the worker's thread rule, the one constant fitted to the two
// measured tab speeds (each reproduced within 10%), scaling by parameters and threads, the token
// count from characters, and rounding that claims no more precision than an estimate has.
import { describe, expect, it } from 'vitest';
import {
	CHARACTERS_PER_TOKEN,
	MEASURED_TAB_SPEEDS,
	WASM_MAX_THREADS,
	describeScoringTime,
	describeScoringTimeBasis,
	describeTokenCount,
	describeWasmThreads,
	estimateScoringTime,
	estimateTokenCount,
	formatEstimatedDuration,
	wasmThreadCount,
	type ScoringTimeQuery,
} from '../../../src/core/model/scoring-time-estimate';

/** The 34 SyntaxGym suites as the bench scores them (bundled tokenizer, one BOS per sentence). */
const SUITES34 = { sentences: 3_304, characters: 239_600, tokens: 55_315 };
const GPT2_PARAMETERS = 124_439_808;
const BUNDLED_PARAMETERS = 8_546_816;

function seconds(query: Partial<ScoringTimeQuery>): number {
	const estimate = estimateScoringTime({
		parameters: GPT2_PARAMETERS,
		dtype: 'fp32',
		backend: 'wasm',
		threads: 2,
		tokens: SUITES34.tokens,
		...query,
	});
	if (estimate.kind !== 'estimate') throw new Error(estimate.reason);
	return estimate.seconds;
}

describe('wasmThreadCount', () => {
	it.each([
		{ cores: 2, isolated: true, threads: 2 },
		{ cores: 6, isolated: true, threads: 6 },
		{ cores: 16, isolated: true, threads: WASM_MAX_THREADS },
		{ cores: null, isolated: true, threads: 1 },
		{ cores: undefined, isolated: true, threads: 1 },
		{ cores: 0, isolated: true, threads: 1 },
		{ cores: 8, isolated: false, threads: 1 },
	])('$cores cores, isolated $isolated: $threads', ({ cores, isolated, threads }) => {
		expect(wasmThreadCount(cores, isolated)).toBe(threads);
	});

	it('says why the count is what it is', () => {
		expect(describeWasmThreads(null, true)).toBe('1 thread: the browser does not report its cores');
		expect(describeWasmThreads(8, false)).toBe('1 thread: this page is not cross-origin isolated');
		expect(describeWasmThreads(16, true)).toBe(
			"8 threads, the worker's most (the browser reports 16 cores)",
		);
		expect(describeWasmThreads(4, true)).toBe('4 threads, one per core the browser reports');
	});
});

describe('estimateScoringTime against the measured points', () => {
	it('keeps the measured figures as the README and the issue give them', () => {
		expect(MEASURED_TAB_SPEEDS.map((p) => [p.parameters, Math.round(p.tokensPerSecond)])).toEqual([
			[GPT2_PARAMETERS, 272],
			[BUNDLED_PARAMETERS, 4245],
		]);
	});

	// Measured walls on the 34 suites, 2 threads: 203.2 s fp32 and 202.45 s q8 for the
	// GPT-2-sized model (README), 13.03 s for the bundled model (issue 29, app battery).
	it.each([
		{ what: 'GPT-2-sized, fp32', parameters: GPT2_PARAMETERS, dtype: 'fp32', wall: 203.2 },
		{ what: 'GPT-2-sized, q8', parameters: GPT2_PARAMETERS, dtype: 'q8', wall: 202.45 },
		{ what: 'bundled, fp32', parameters: BUNDLED_PARAMETERS, dtype: 'fp32', wall: 13.03 },
	] as const)('$what: within 10% of $wall s', ({ parameters, dtype, wall }) => {
		const estimate = seconds({ parameters, dtype });
		expect(Math.abs(estimate / wall - 1)).toBeLessThan(0.1);
	});

	it('is inverse in parameters and linear in threads up to the worker cap', () => {
		const base = seconds({});
		expect(seconds({ parameters: GPT2_PARAMETERS / 2 })).toBeCloseTo(base / 2, 6);
		expect(seconds({ threads: 1 })).toBeCloseTo(base * 2, 6);
		expect(seconds({ threads: 8 })).toBeCloseTo(base / 4, 6);
		expect(seconds({ threads: 64 })).toBeCloseTo(base / 4, 6);
		expect(seconds({ tokens: SUITES34.tokens * 3 })).toBeCloseTo(base * 3, 6);
	});

	it('with an unknown core count estimates the one thread the worker then runs', () => {
		const threads = wasmThreadCount(null, true);
		expect(seconds({ threads })).toBeCloseTo(seconds({ threads: 2 }) * 2, 6);
	});

	it('gives no estimate where nothing was measured, and says so', () => {
		expect(estimateScoringTime({ ...query(), backend: 'webgpu' })).toEqual({
			kind: 'none',
			reason: 'No time estimate on WebGPU yet: its speed is not measured.',
		});
		expect(estimateScoringTime({ ...query(), parameters: 0 }).kind).toBe('none');
	});

	it('takes fp16 at its measured speed relative to fp32 (133.8 s against 223.7 s in one run)', () => {
		const fp32 = seconds({ dtype: 'fp32' });
		expect(seconds({ dtype: 'fp16' }) / fp32).toBeCloseTo(223.7 / 133.8, 6);
	});

	function query(): ScoringTimeQuery {
		return { parameters: GPT2_PARAMETERS, dtype: 'fp32', backend: 'wasm', threads: 2, tokens: 1 };
	}
});

describe('formatEstimatedDuration', () => {
	it.each([
		{ s: 0, text: 'under 10 s' },
		{ s: 9.9, text: 'under 10 s' },
		{ s: 14, text: 'about 10 s' },
		{ s: 44, text: 'about 40 s' },
		{ s: 56, text: 'about 1 min' },
		{ s: 203, text: 'about 3 min' },
		{ s: 569, text: 'about 9 min' },
		{ s: 580, text: 'about 10 min' },
		{ s: 744, text: 'about 10 min' },
		{ s: 780, text: 'about 15 min' },
		{ s: 3540, text: 'about 1 h' },
		{ s: 4680, text: 'about 1.5 h' },
		{ s: 11.4 * 3600, text: 'about 11 h' },
		{ s: Number.NaN, text: 'an unknown time' },
	])('$s s: $text', ({ s, text }) => {
		expect(formatEstimatedDuration(s)).toBe(text);
	});

	it('words a whole estimate as the picker shows it', () => {
		const estimate = estimateScoringTime({
			parameters: GPT2_PARAMETERS,
			dtype: 'fp32',
			backend: 'wasm',
			threads: 2,
			tokens: SUITES34.tokens,
		});
		expect(describeScoringTime(estimate)).toBe('about 3 min on this device (estimate)');
	});
});

describe('estimateTokenCount', () => {
	it('counts characters ÷ CHARACTERS_PER_TOKEN plus a BOS per sentence', () => {
		expect(estimateTokenCount([])).toBe(0);
		expect(estimateTokenCount(['abcd'])).toBe(Math.round(4 / CHARACTERS_PER_TOKEN) + 1);
		expect(estimateTokenCount(['The keys are here.', 'The key is here.'])).toBe(
			Math.round(34 / CHARACTERS_PER_TOKEN) + 2,
		);
	});

	it('comes within 1% of the 34 suites measured token count from their size alone', () => {
		const base = Math.floor(SUITES34.characters / SUITES34.sentences);
		const extra = SUITES34.characters - base * SUITES34.sentences;
		const sentences = Array.from({ length: SUITES34.sentences }, (_, i) =>
			'x'.repeat(base + (i < extra ? 1 : 0)),
		);
		const estimate = estimateTokenCount(sentences);
		expect(Math.abs(estimate / SUITES34.tokens - 1)).toBeLessThan(0.01);
	});

	it.each([
		{ tokens: 0, text: 'about 0 tokens' },
		{ tokens: 1, text: 'about 1 token' },
		{ tokens: 47, text: 'about 47 tokens' },
		{ tokens: 1934, text: 'about 1,900 tokens' },
		{ tokens: 55_315, text: 'about 55,000 tokens' },
	])('describes $tokens as $text', ({ tokens, text }) => {
		expect(describeTokenCount(tokens)).toBe(text);
	});
});

describe('describeScoringTimeBasis', () => {
	it('names the measured figures and the thread count it assumed', () => {
		const basis = describeScoringTimeBasis(null, true);
		expect(basis).toContain('272 tokens/s for a 124.4 M-parameter GPT-2');
		expect(basis).toContain('4,245 for the bundled 8.5 M-parameter model');
		expect(basis).toContain('1 thread: the browser does not report its cores');
		expect(basis).toContain("fp16 weights are taken at 0.60 of fp32's speed");
		expect(basis).toContain('not included');
	});
});
