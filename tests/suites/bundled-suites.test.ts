// Every file in suites/ is a suite that parses (strict mode for the standard ones), is ours
// (author Benchtop, a reference, a comment), has 12+ items, is listed as it is in index.json, and
// names its Hu et al. (2020) circuit in meta.tags, so the matrix and the SG score group it.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HU2020_CIRCUITS, suiteCircuit } from '../../src/core/syntaxgym/battery/circuits';
import { parseSuite } from '../../src/core/syntaxgym/suite/parse-suite';
import type { Suite } from '../../src/core/syntaxgym/suite/types';

const SUITES_DIR = join(import.meta.dirname, '../../suites');
const MIN_ITEMS = 12;
/** Warnings a standard bundled suite may have: an empty region is how a gap is written. */
const ALLOWED_WARNINGS = new Set(['empty-region']);

interface IndexEntry {
	file: string;
	name: string;
	phenomenon: string;
	format: 'standard' | 'legacy';
	items: number;
	conditions: number;
	regions: number;
	predictions: number;
	description: string;
}

const index = JSON.parse(readFileSync(join(SUITES_DIR, 'index.json'), 'utf8')) as {
	version: number;
	suites: IndexEntry[];
};
const suiteFiles = readdirSync(SUITES_DIR)
	.filter((file) => file.endsWith('.json') && file !== 'index.json')
	.sort();

function readSuite(file: string, mode: 'strict' | 'compatible'): Suite {
	const result = parseSuite(readFileSync(join(SUITES_DIR, file), 'utf8'), { mode });
	if (!result.ok) {
		throw new Error(`${file}: ${result.diagnostics.map((d) => `${d.pointer} ${d.message}`).join('; ')}`);
	}
	return result.suite;
}

/** The sentence of a condition as syntaxgym-core builds it: non-empty regions joined by a space. */
function sentenceOf(suite: Suite, itemIndex: number, conditionIndex: number): string {
	const regions = suite.items[itemIndex]?.conditions[conditionIndex]?.regions ?? [];
	return regions
		.map((region) => region.content)
		.filter((content) => content !== '')
		.join(' ');
}

describe('suites/index.json', () => {
	it('lists every suite file once, and nothing else', () => {
		expect(index.version).toBe(1);
		expect(index.suites.map((entry) => entry.file).sort()).toEqual(suiteFiles);
	});

	it.each(index.suites.map((entry) => [entry.file, entry] as const))(
		'%s: name, format and counts match the file',
		(file, entry) => {
			const suite = readSuite(file, 'compatible');
			expect(entry.name).toBe(suite.meta.name);
			expect(entry.items).toBe(suite.items.length);
			expect(entry.conditions).toBe(suite.conditionNames.length);
			expect(entry.regions).toBe(suite.regionNames.length);
			expect(entry.predictions).toBe(suite.predictions.length);
			expect(entry.phenomenon).toMatch(/^[a-z-]+$/);
			expect(entry.description.length).toBeGreaterThan(20);
			expect(['standard', 'legacy']).toContain(entry.format);
		},
	);

	it.each(index.suites.map((entry) => [entry.file] as const))(
		'%s: meta.tags names one of Hu et al.\'s circuits (not "ungrouped")',
		(file) => {
			const suite = readSuite(file, 'compatible');
			const { circuit, source } = suiteCircuit(suite);
			expect(source).toBe('suite-tags');
			expect(HU2020_CIRCUITS.map((entry) => entry.circuit)).toContain(circuit);
		},
	);

	it('has at least 6 standard suites, with both single- and multi-prediction suites', () => {
		const standard = index.suites.filter((entry) => entry.format === 'standard');
		expect(standard.length).toBeGreaterThanOrEqual(6);
		expect(standard.some((entry) => entry.predictions === 1)).toBe(true);
		expect(standard.some((entry) => entry.predictions > 1)).toBe(true);
	});
});

describe.each(index.suites.filter((entry) => entry.format === 'standard').map((entry) => entry.file))(
	'standard suite %s',
	(file) => {
		it('parses in strict mode with no warning but empty regions', () => {
			const result = parseSuite(readFileSync(join(SUITES_DIR, file), 'utf8'), { mode: 'strict' });
			expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
			expect(result.ok).toBe(true);
			const warnings = result.diagnostics.filter((d) => d.severity === 'warning' && d.code !== 'more-diagnostics');
			expect(warnings.filter((d) => !ALLOWED_WARNINGS.has(d.code))).toEqual([]);
		});

		it('is ours and says what it tests', () => {
			const suite = readSuite(file, 'strict');
			expect(suite.meta.author).toBe('Benchtop');
			expect(suite.meta.metricAsWritten).toBe('sum');
			expect(suite.meta.reference?.length ?? 0).toBeGreaterThan(20);
			expect(suite.meta.comment?.length ?? 0).toBeGreaterThan(40);
			expect(suite.predictions.every((prediction) => prediction.source === 'formula')).toBe(true);
		});

		it(`has ${MIN_ITEMS}+ items, numbered 1..N, every condition in every item`, () => {
			const suite = readSuite(file, 'strict');
			expect(suite.items.length).toBeGreaterThanOrEqual(MIN_ITEMS);
			expect(suite.items.map((item) => item.itemNumber)).toEqual(suite.items.map((_, index) => index + 1));
			for (const item of suite.items) {
				expect(item.conditions.map((condition) => condition.conditionName)).toEqual(suite.conditionNames);
				for (const condition of item.conditions) {
					expect(condition.regions.length).toBe(suite.regionNames.length);
				}
			}
		});

		it('names every region, and gives each condition of an item its own sentence', () => {
			const suite = readSuite(file, 'strict');
			expect(suite.regionNames.every((name) => /^[a-z_]+$/.test(name))).toBe(true);
			expect(new Set(suite.regionNames).size).toBe(suite.regionNames.length);
			suite.items.forEach((item, itemIndex) => {
				const sentences = item.conditions.map((_, conditionIndex) => sentenceOf(suite, itemIndex, conditionIndex));
				expect(new Set(sentences).size).toBe(sentences.length);
				for (const sentence of sentences) expect(sentence).toMatch(/^[A-Z].*[.]$/);
			});
		});
	},
);

describe('legacy example', () => {
	const legacy = index.suites.filter((entry) => entry.format === 'legacy');

	it('exists and is the only legacy suite', () => {
		expect(legacy.map((entry) => entry.file)).toEqual(['legacy-example.json']);
	});

	it('is read in compatible mode, converting the relation prediction and the brackets', () => {
		const result = parseSuite(readFileSync(join(SUITES_DIR, 'legacy-example.json'), 'utf8'));
		expect(result.ok).toBe(true);
		expect(result.diagnostics.map((d) => d.code).sort()).toEqual(['formula-brackets', 'relation-prediction']);
		const suite = readSuite('legacy-example.json', 'compatible');
		expect(suite.meta.metrics).toEqual(['sum', 'mean']);
		expect(suite.predictions.map((prediction) => [prediction.source, prediction.formula])).toEqual([
			['relation', '(4;%mismatch%) > (4;%match%)'],
			['formula', '[(4;%mismatch%) + (5;%mismatch%)] > [(4;%match%) + (5;%match%)]'],
		]);
	});

	it('is refused in strict mode (what current syntaxgym-core rejects)', () => {
		const result = parseSuite(readFileSync(join(SUITES_DIR, 'legacy-example.json'), 'utf8'), { mode: 'strict' });
		expect(result.ok).toBe(false);
	});
});
