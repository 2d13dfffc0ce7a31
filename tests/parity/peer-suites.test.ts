/**
 * The 34 Hu et al. (2020) suites, read from ../shared/peer (never copied here): the `nextflow`
 * copies must pass strict mode, the published `master` copies compatible mode, and both must
 * match the counts that the folder's SOURCE.md lists. Skipped when the peer folder is absent
 * (fails under CI).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeWithPeer, peerPath } from './peer-data';
import { buildSuiteSentences } from '../../src/core/syntaxgym/suite/build-sentences';
import { parseSuite } from '../../src/core/syntaxgym/suite/parse-suite';
import type {
	ParseSuiteOptions,
	ParseSuiteResult,
	Suite,
} from '../../src/core/syntaxgym/suite/types';

const SUITES_DIR = peerPath('syntaxgym/suites/');
const NEXTFLOW_DIR = `${SUITES_DIR}nextflow/`;
const SOURCE_MD = `${SUITES_DIR}SOURCE.md`;

interface SourceRow {
	readonly file: string;
	readonly items: number;
	readonly conditionNames: readonly string[];
	readonly regions: number;
	readonly predictions: number;
}

/**
 * The "Contents" table of SOURCE.md, e.g. `| cleft.json | 40 | 4: np_mismatch, np_match, ... | 6 | 1 | yes |`,
 * and the totals sentence "842 items and 3,304 sentences in total".
 */
function readSourceTable(markdown: string): {
	rows: SourceRow[];
	totalItems: number;
	totalSentences: number;
} {
	const rows: SourceRow[] = [];
	for (const line of markdown.split('\n')) {
		const cells = line.split('|').map((cell) => cell.trim());
		const [, file, items, conditions, regions, predictions] = cells;
		if (file === undefined || !file.endsWith('.json') || !/^\d+$/.test(items ?? '')) continue;
		const match = /^(\d+): (.+)$/.exec(conditions ?? '');
		if (match === null) throw new Error(`SOURCE.md: cannot read the conditions of ${file}`);
		const conditionNames = (match[2] ?? '').split(',').map((name) => name.trim());
		if (conditionNames.length !== Number(match[1])) {
			throw new Error(
				`SOURCE.md: ${file} lists ${conditionNames.length} names for ${match[1]} conditions`,
			);
		}
		rows.push({
			file,
			items: Number(items),
			conditionNames,
			regions: Number(regions),
			predictions: Number(predictions),
		});
	}
	const totals = /([\d,]+) items and ([\d,]+) sentences in total/.exec(markdown);
	if (totals === null) throw new Error('SOURCE.md: no "N items and M sentences in total" line');
	const number = (text: string | undefined) => Number((text ?? '').replaceAll(',', ''));
	return { rows, totalItems: number(totals[1]), totalSentences: number(totals[2]) };
}

function jsonFiles(dir: string): string[] {
	return readdirSync(dir)
		.filter((name) => name.endsWith('.json'))
		.sort();
}

const cache = new Map<string, ParseSuiteResult>();

function parseFile(path: string, options: ParseSuiteOptions): ParseSuiteResult {
	const key = `${options.mode ?? 'compatible'} ${path}`;
	let result = cache.get(key);
	if (result === undefined) {
		result = parseSuite(readFileSync(path, 'utf8'), options);
		cache.set(key, result);
	}
	return result;
}

function suiteOf(result: ParseSuiteResult, file: string): Suite {
	if (!result.ok) {
		const errors = result.diagnostics.filter((d) => d.severity === 'error');
		throw new Error(
			`${file}: ${errors.length} errors, first: ${errors[0]?.line}:${errors[0]?.column} ${errors[0]?.message}`,
		);
	}
	return result.suite;
}

/** Checks a parsed suite against its SOURCE.md row. */
function expectCounts(suite: Suite, row: SourceRow): void {
	expect(suite.items, `${row.file}: items`).toHaveLength(row.items);
	expect([...suite.conditionNames].sort(), `${row.file}: condition names`).toEqual(
		[...row.conditionNames].sort(),
	);
	expect(suite.regionNames, `${row.file}: region_meta`).toHaveLength(row.regions);
	expect(suite.predictions, `${row.file}: predictions`).toHaveLength(row.predictions);
	expect(suite.meta.metrics, `${row.file}: metric`).toEqual(['sum']);
	for (const item of suite.items) {
		expect(item.conditions, `${row.file} item ${item.itemNumber}`).toHaveLength(
			row.conditionNames.length,
		);
		for (const condition of item.conditions) {
			expect(
				condition.regions,
				`${row.file} item ${item.itemNumber} ${condition.conditionName}`,
			).toHaveLength(row.regions);
		}
	}
}

/** True when syntaxgym-core's Region would reject the content (checked here independently). */
function hasStraySpace(content: string): boolean {
	return content !== content.trim() || /\s\s/.test(content);
}

describeWithPeer(
	'peer suites (Hu et al. 2020, ../shared/peer/syntaxgym/suites)',
	['syntaxgym/suites/SOURCE.md', 'syntaxgym/suites/nextflow'],
	() => {
		const source = readSourceTable(readFileSync(SOURCE_MD, 'utf8'));
		const rowByFile = new Map(source.rows.map((row) => [row.file, row]));

		it('SOURCE.md lists the 34 files of each folder', () => {
			expect(source.rows).toHaveLength(34);
			expect(jsonFiles(NEXTFLOW_DIR)).toEqual([...rowByFile.keys()].sort());
			expect(jsonFiles(SUITES_DIR)).toEqual([...rowByFile.keys()].sort());
		});

		describe.each(source.rows)('$file', (row) => {
			it('nextflow: strict mode, no errors, counts as in SOURCE.md', () => {
				const result = parseFile(NEXTFLOW_DIR + row.file, { mode: 'strict' });
				expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
				expectCounts(suiteOf(result, row.file), row);
			});

			it('master: compatible mode, counts as in SOURCE.md, same suite as nextflow once normalised', () => {
				const result = parseFile(SUITES_DIR + row.file, {});
				const master = suiteOf(result, row.file);
				expectCounts(master, row);
				const nextflow = suiteOf(parseFile(NEXTFLOW_DIR + row.file, { mode: 'strict' }), row.file);
				// brackets read as parentheses and stripped contents give the upstream-fixed suite
				expect(master.items).toEqual(nextflow.items);
				expect(master.regionNames).toEqual(nextflow.regionNames);
				expect(master.conditionNames).toEqual(nextflow.conditionNames);
				expect(master.predictions.map((p) => p.ast)).toEqual(
					nextflow.predictions.map((p) => p.ast),
				);
			});

			it('master: warns exactly where the file uses a legacy form, and strict mode rejects those', () => {
				const raw = JSON.parse(readFileSync(SUITES_DIR + row.file, 'utf8')) as {
					predictions: { formula: string }[];
					items: { conditions: { regions: { content: string }[] }[] }[];
				};
				const hasBrackets = raw.predictions.some((p) => /[[\]]/.test(p.formula));
				const hasPadding = raw.items.some((item) =>
					item.conditions.some((c) => c.regions.some((r) => hasStraySpace(r.content))),
				);
				const codes = new Set(parseFile(SUITES_DIR + row.file, {}).diagnostics.map((d) => d.code));
				expect(codes.has('formula-brackets'), 'formula-brackets warning').toBe(hasBrackets);
				expect(codes.has('region-content-whitespace'), 'whitespace warning').toBe(hasPadding);
				const strict = parseFile(SUITES_DIR + row.file, { mode: 'strict' });
				expect(strict.ok).toBe(!hasBrackets && !hasPadding);
			});
		});

		it('totals match SOURCE.md, and every sentence is built without stray spaces', () => {
			let items = 0;
			let sentences = 0;
			for (const row of source.rows) {
				const suite = suiteOf(parseFile(NEXTFLOW_DIR + row.file, { mode: 'strict' }), row.file);
				items += suite.items.length;
				for (const sentence of buildSuiteSentences(suite)) {
					sentences++;
					expect(
						hasStraySpace(sentence.text),
						`${row.file}: ${JSON.stringify(sentence.text)}`,
					).toBe(false);
				}
			}
			expect(items).toBe(source.totalItems);
			expect(sentences).toBe(source.totalSentences);
		});

		it('only known legacy forms and empty regions are warned about', () => {
			const warned = new Set<string>();
			for (const row of source.rows) {
				for (const path of [NEXTFLOW_DIR + row.file, SUITES_DIR + row.file]) {
					for (const d of parseFile(path, path.startsWith(NEXTFLOW_DIR) ? { mode: 'strict' } : {})
						.diagnostics) {
						warned.add(
							d.code === 'more-diagnostics' ? (/'([^']+)'/.exec(d.message)?.[1] ?? '') : d.code,
						);
					}
				}
			}
			expect([...warned].sort()).toEqual([
				'empty-region',
				'formula-brackets',
				'region-content-whitespace',
			]);
		});
	},
);
