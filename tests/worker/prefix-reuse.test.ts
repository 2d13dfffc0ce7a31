// Shared-prefix reuse (TransformersEngine, Node): for every sentence of the bundled suites, a run
// that reuses shared prefixes' key/value caches gives the surprisals of a plain run (≤ 1e-4 bits,
// every token), computes fewer positions, and writes byte-identical result TSVs.
import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import { writeResultsTsv } from '../../src/core/syntaxgym/formats/results-tsv';
import type { ModelSpec, SurprisalConvention } from '../../src/core/model/model-spec';
import { scoreSuite } from '../../src/core/syntaxgym/scoring/score-suite';
import { buildSuiteSentences } from '../../src/core/syntaxgym/suite/build-sentences';
import { parseSuite } from '../../src/core/syntaxgym/suite/parse-suite';
import type { Suite } from '../../src/core/syntaxgym/suite/types';
import { createNodeEngine } from '../../src/worker/node-engine';
import type { ScoreTextsResult } from '../../src/worker/protocol';

vi.setConfig({ testTimeout: 300_000, hookTimeout: 120_000 });

const SUITES_DIR = new URL('../../suites/', import.meta.url);
/** Predictions whose two sides are closer than the tolerance, so that reuse may flip their
 * True/False: none in the bundled suites (the test names them here if one ever appears). */
const NEAR_TIES: readonly string[] = [];

async function bundledSuites(): Promise<Suite[]> {
	const suites: Suite[] = [];
	for (const file of (await readdir(SUITES_DIR)).filter((f) => f.endsWith('.json')).sort()) {
		if (file === 'index.json') continue;
		const parsed = parseSuite(await readFile(new URL(file, SUITES_DIR), 'utf8'), {
			mode: 'compatible',
		});
		if (!parsed.ok) throw new Error(`suites/${file} does not parse`);
		suites.push(parsed.suite);
	}
	return suites;
}

const suites = await bundledSuites();
const engine = createNodeEngine({ threads: 2 });

function maxDifferenceBits(a: ScoreTextsResult, b: ScoreTextsResult): number {
	let max = 0;
	a.texts.forEach((text, i) => {
		const other = b.texts[i]?.tokens ?? [];
		expect(other.map((t) => [t.token, t.start, t.end])).toEqual(
			text.tokens.map((t) => [t.token, t.start, t.end]),
		);
		text.tokens.forEach((t, k) => {
			max = Math.max(max, Math.abs(t.surprisalBits - (other[k]?.surprisalBits ?? NaN)));
		});
	});
	return max;
}

function resultsTsv(suite: Suite, result: ScoreTextsResult): string {
	const score = scoreSuite(
		suite,
		result.texts.map((t) => t.tokens),
		{ alignment: 'offsets' },
	);
	return writeResultsTsv(suite.meta.name, score.outcomes, suite.meta.metrics);
}

describe.each([
	['gpt2-en-small', 'bos'],
	['gpt2-en-small', 'reference'],
	['gpt2-random-tiny', 'bos'],
] as const)('prefix reuse, %s, %s convention', (id: string, convention: SurprisalConvention) => {
	const spec: ModelSpec = { source: 'bundled', id, dtype: 'fp32', backend: 'node-cpu' };

	it('gives the plain run’s surprisals for every token of the bundled suites, and its result TSVs', async () => {
		const { modelKey } = await engine.loadModel({ spec });
		let tokens = 0;
		let positions = 0;
		let plainPositions = 0;
		let worst = 0;
		for (const suite of suites) {
			const texts = buildSuiteSentences(suite).map((s) => s.text);
			const plain = await engine.scoreTexts({ modelKey, texts, convention, prefixReuse: false });
			const reused = await engine.scoreTexts({ modelKey, texts, convention });
			expect(plain.prefixReuse).toEqual({ used: false, reason: 'turned off for this request' });
			expect(reused.prefixReuse).toEqual({ used: true });
			expect(reused.tokenCount).toBe(plain.tokenCount);
			worst = Math.max(worst, maxDifferenceBits(plain, reused));
			tokens += reused.tokenCount;
			positions += reused.positionsComputed ?? NaN;
			plainPositions += plain.positionsComputed ?? NaN;
			const plainTsv = resultsTsv(suite, plain);
			const reusedTsv = resultsTsv(suite, reused);
			if (!NEAR_TIES.includes(suite.meta.name)) expect(reusedTsv).toBe(plainTsv);
		}
		expect(worst).toBeLessThanOrEqual(1e-4);
		// The conditions of an item share their beginnings: reuse computes clearly fewer positions.
		expect(positions).toBeLessThan(0.85 * plainPositions);
		console.info(
			`prefix reuse ${id} ${convention}: max |Δ| ${worst.toExponential(2)} bits, ` +
				`${positions} positions computed for ${tokens} tokens (${(positions / tokens).toFixed(3)}; ` +
				`plain ${plainPositions})`,
		);
	});
});

describe('prefix reuse across suites (one request for all, as `run a.json b.json` sends)', () => {
	it('gives each suite’s own surprisals and result TSV, computing no more positions', async () => {
		const spec: ModelSpec = {
			source: 'bundled',
			id: 'gpt2-en-small',
			dtype: 'fp32',
			backend: 'node-cpu',
		};
		const { modelKey } = await engine.loadModel({ spec });
		const textsOf = suites.map((suite) => buildSuiteSentences(suite).map((s) => s.text));
		const pooled = await engine.scoreTexts({ modelKey, texts: textsOf.flat(), convention: 'bos' });
		let offset = 0;
		let worst = 0;
		let separatePositions = 0;
		for (const [index, suite] of suites.entries()) {
			const texts = textsOf[index] ?? [];
			const alone = await engine.scoreTexts({ modelKey, texts, convention: 'bos' });
			const slice: ScoreTextsResult = {
				...pooled,
				texts: pooled.texts.slice(offset, offset + texts.length),
			};
			offset += texts.length;
			worst = Math.max(worst, maxDifferenceBits(alone, slice));
			separatePositions += alone.positionsComputed ?? NaN;
			if (!NEAR_TIES.includes(suite.meta.name))
				expect(resultsTsv(suite, slice)).toBe(resultsTsv(suite, alone));
		}
		expect(worst).toBeLessThanOrEqual(1e-4);
		expect(pooled.positionsComputed).toBeLessThanOrEqual(separatePositions);
		console.info(
			`prefix reuse across ${suites.length} suites: max |Δ| ${worst.toExponential(2)} bits, ` +
				`${pooled.positionsComputed} positions in one request, ${separatePositions} suite by suite`,
		);
		await engine.disposeModel(modelKey);
	});
});

describe('prefix reuse fallback', () => {
	it('q8 runs plain batches and says why', async () => {
		const spec: ModelSpec = {
			source: 'bundled',
			id: 'gpt2-random-tiny',
			dtype: 'q8',
			backend: 'node-cpu',
		};
		const { modelKey } = await engine.loadModel({ spec });
		const texts = ['The keys to the cabinet are here.', 'The keys to the cabinets are here.'];
		const result = await engine.scoreTexts({ modelKey, texts, convention: 'bos' });
		expect(result.prefixReuse).toEqual({
			used: false,
			reason: expect.stringContaining('depend on the batch'),
		});
		expect(result.positionsComputed).toBe(result.tokenCount);
		await engine.disposeModel(modelKey);
	});
});
