// The suites of a battery before it runs (read, one per text, capped, ordered, totals) and the
// stored batteries (suite runs grouped by battery id).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
	MAX_BATTERY_SUITES,
	batteryTotals,
	brokenBatteryEntry,
	groupBatteries,
	mergeBatteryEntries,
	orderBySourceName,
	pickedEntries,
	readBatteryEntry,
	readableKeys,
	type BatteryEntry,
} from '../../../../src/core/syntaxgym/battery/battery-inputs';
import type { RunStatus } from '../../../../src/core/run/run-types';
import type { SuiteRun } from '../../../../src/core/syntaxgym/run/suite-run';

/** A suite of `items` items with `conditions` conditions each, named `name`. */
function suiteText(name: string, items = 3, conditions = 2): string {
	const names = Array.from({ length: conditions }, (_, i) => `c${i}`);
	return JSON.stringify({
		meta: { name, metric: 'sum' },
		region_meta: { '1': 'start', '2': 'end' },
		predictions: [{ type: 'formula', formula: '(2;%c0%) > (2;%c1%)' }],
		items: Array.from({ length: items }, (_, i) => ({
			item_number: i + 1,
			conditions: names.map((condition) => ({
				condition_name: condition,
				regions: [
					{ region_number: 1, content: 'The dog' },
					{ region_number: 2, content: `${condition} runs` },
				],
			})),
		})),
	});
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

function added(text: string, sourceName: string): BatteryEntry {
	return readBatteryEntry(text, sourceName, 'added');
}

describe('readBatteryEntry', () => {
	it('lists a suite with its SHA-256, items and sentences', () => {
		const text = suiteText('Agreement', 5, 3);
		const entry = readBatteryEntry(text, 'agreement.json', 'added');
		expect(entry.ok).toBe(true);
		if (!entry.ok) return;
		expect(entry.key).toBe(sha256(text));
		expect(entry.suite.meta.name).toBe('Agreement');
		expect(entry.itemCount).toBe(5);
		expect(entry.sentenceCount).toBe(15);
		expect(entry.text).toBe(text);
	});

	it('reads a legacy suite in compatible mode (with warnings), as the Run page does', () => {
		const entry = readBatteryEntry(
			readFileSync('suites/legacy-example.json', 'utf8'),
			'legacy-example.json',
			'bundled',
		);
		expect(entry.ok).toBe(true);
		if (entry.ok) expect(entry.warningCount).toBeGreaterThan(0);
	});

	it('lists broken JSON with its problem and line and column', () => {
		const entry = readBatteryEntry('{\n  "meta": {"name": "x",\n}', 'broken.json', 'added');
		expect(entry.ok).toBe(false);
		if (entry.ok) return;
		expect(entry.sourceName).toBe('broken.json');
		expect(entry.problem).toMatch(/invalid JSON/);
		expect(entry.location).toBe('line 2, column 23');
	});

	it('lists a suite with errors by its first error and how many more', () => {
		const bad = JSON.parse(suiteText('Bad')) as { items: { item_number: unknown }[] };
		for (const item of bad.items) item.item_number = 'one';
		const entry = readBatteryEntry(JSON.stringify(bad, null, 1), 'bad.json', 'added');
		expect(entry.ok).toBe(false);
		if (entry.ok) return;
		expect(entry.problem).toMatch(/and 2 more errors/);
		expect(entry.location).toMatch(/^line \d+, column \d+$/);
	});

	it('keeps a hostile name as it is (the page shows it as text)', () => {
		const name = '<img src=x onerror=alert(1)>\u202Eevil';
		const entry = readBatteryEntry(suiteText(name), `${name}.json`, 'added');
		expect(entry.ok && entry.suite.meta.name).toBe(name);
		expect(entry.sourceName).toBe(`${name}.json`);
	});
});

describe('mergeBatteryEntries', () => {
	it('lists the same text once and says which entry it duplicates', () => {
		const text = suiteText('Same');
		const first = readBatteryEntry(text, 'same.json', 'bundled');
		const merged = mergeBatteryEntries([first], [added(text, 'copy/same.json')]);
		expect(merged.entries).toEqual([first]);
		expect(merged.duplicates).toEqual([
			{ sourceName: 'copy/same.json', sameAs: 'Same', key: first.key },
		]);
	});

	it('lists the same text twice in one drop once', () => {
		const text = suiteText('Twice');
		const merged = mergeBatteryEntries([], [added(text, 'a.json'), added(text, 'b.json')]);
		expect(merged.entries.map((entry) => entry.sourceName)).toEqual(['a.json']);
		expect(merged.duplicates).toHaveLength(1);
	});

	it('replaces an added file when a file of the same path is added again', () => {
		const broken = brokenBatteryEntry('suite.json', 'added', 'invalid JSON');
		const fixed = added(suiteText('Fixed'), 'suite.json');
		const merged = mergeBatteryEntries([broken], [fixed]);
		expect(merged.entries).toEqual([fixed]);
	});

	it('does not replace a bundled suite by an added file of the same name', () => {
		const bundled = readBatteryEntry(suiteText('Bundled'), 'x.json', 'bundled');
		const other = added(suiteText('Other'), 'x.json');
		expect(mergeBatteryEntries([bundled], [other]).entries).toEqual([bundled, other]);
	});

	it('stops at the cap and counts what was left out', () => {
		const incoming = Array.from({ length: 7 }, (_, i) => added(suiteText(`S${i}`, 1), `${i}.json`));
		const merged = mergeBatteryEntries(incoming.slice(0, 2), incoming.slice(2), 5);
		expect(merged.entries).toHaveLength(5);
		expect(merged.overCap).toBe(2);
	});

	it('caps at 500 suites by default', () => {
		const incoming = Array.from({ length: MAX_BATTERY_SUITES + 3 }, (_, i) =>
			brokenBatteryEntry(`${i}.json`, 'added', 'x'),
		);
		const merged = mergeBatteryEntries([], incoming);
		expect(merged.entries).toHaveLength(500);
		expect(merged.overCap).toBe(3);
	});
});

describe('ordering, picking and totals', () => {
	it('orders added files by path, numbers by value', () => {
		const names = ['suites/b-10.json', 'suites/b-2.json', 'a.json', 'suites/B-1.json'];
		const ordered = orderBySourceName(names.map((sourceName) => ({ sourceName })));
		expect(ordered.map((entry) => entry.sourceName)).toEqual([
			'a.json',
			'suites/B-1.json',
			'suites/b-2.json',
			'suites/b-10.json',
		]);
	});

	it('picks readable suites only, in list order, and sums their items and sentences', () => {
		const a = added(suiteText('A', 4, 2), 'a.json');
		const broken = brokenBatteryEntry('broken.json', 'added', 'invalid JSON');
		const b = added(suiteText('B', 3, 3), 'b.json');
		const entries = [a, broken, b];
		expect(readableKeys(entries)).toEqual([a.key, b.key]);
		const picked = pickedEntries(entries, new Set([b.key, broken.key, 'unknown', a.key]));
		expect(picked.map((entry) => entry.sourceName)).toEqual(['a.json', 'b.json']);
		expect(batteryTotals(picked)).toEqual({ suites: 2, items: 7, sentences: 17 });
	});
});

describe('groupBatteries', () => {
	let nextId = 1;
	function run(
		batteryId: string | null,
		index: number,
		size: number,
		status: RunStatus,
		itemsDone: number,
		createdAt: number,
	): SuiteRun {
		return {
			id: nextId++,
			suiteSha256: 'a'.repeat(64),
			suiteName: `suite ${index}`,
			model: { source: 'bundled', id: 'gpt2-random-tiny', dtype: 'fp32', backend: 'wasm' },
			convention: 'reference',
			itemCount: 10,
			...(batteryId ? { battery: { id: batteryId, index, size } } : {}),
			appVersion: '0.0.0',
			createdAt,
			status,
			itemsDone,
			updatedAt: createdAt,
			scoringMs: 0,
			tokenCount: 0,
		};
	}

	it('groups runs by battery id, suites in order, newest battery first, lone runs left out', () => {
		const runs = [
			run('old', 1, 2, 'done', 10, 100),
			run(null, 0, 0, 'done', 10, 300),
			run('new', 1, 2, 'cancelled', 4, 201),
			run('old', 0, 2, 'done', 10, 100),
			run('new', 0, 2, 'done', 10, 200),
		];
		const batteries = groupBatteries(runs);
		expect(batteries.map((battery) => battery.id)).toEqual(['new', 'old']);
		const [fresh, old] = batteries;
		expect(fresh?.runs.map((r) => r.battery?.index)).toEqual([0, 1]);
		expect(fresh).toMatchObject({
			size: 2,
			suitesDone: 1,
			itemsDone: 14,
			itemsTotal: 20,
			status: 'cancelled',
			createdAt: 200,
		});
		expect(old).toMatchObject({ suitesDone: 2, itemsDone: 20, status: 'done' });
	});

	it('says running over failed over cancelled, and incomplete when suite runs are missing', () => {
		const status = (...runs: SuiteRun[]) => groupBatteries(runs)[0]?.status;
		expect(status(run('x', 0, 2, 'failed', 1, 1), run('x', 1, 2, 'running', 0, 1))).toBe('running');
		expect(status(run('x', 0, 2, 'failed', 1, 1), run('x', 1, 2, 'cancelled', 0, 1))).toBe(
			'failed',
		);
		expect(status(run('x', 0, 3, 'done', 10, 1), run('x', 1, 3, 'done', 10, 1))).toBe('incomplete');
		expect(status(run('x', 0, 1, 'done', 10, 1))).toBe('done');
	});
});
