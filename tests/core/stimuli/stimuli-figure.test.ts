// The Stimuli figure's numbers: mean surprisal per condition and word position for one model,
// with a Student-t 95% interval, and the chart spec drawn from them.
import { describe, expect, it } from 'vitest';
import { readStimulusTable } from '../../../src/core/stimuli/read-stimulus-table';
import {
	stimuliCriticalFigureSpec,
	stimuliCriticalMeans,
	stimuliFigureSpec,
	stimuliHeatStrips,
	stimuliPositionMeans,
} from '../../../src/core/stimuli/stimuli-figure';
import type { StimuliWordRow } from '../../../src/core/stimuli/stimuli-run-kind';

const TABLE = readStimulusTable('item,condition,sentence\n1,a,x y\n2,a,x y\n3,b,x y\n', {
	source: 't.csv',
});

function word(row: number, wordIndex: number, bits: number, model = 0): StimuliWordRow {
	return {
		row,
		wordIndex,
		word: 'w',
		surprisalBits: bits,
		bowSurprisalBits: null,
		entropyBits: null,
		model,
	};
}

const WORDS = [
	word(0, 0, 2),
	word(0, 1, 4),
	word(1, 0, 4),
	word(1, 1, Number.NaN),
	word(2, 0, 10),
	word(2, 1, 12),
	word(0, 0, 99, 1),
];

describe('stimuliPositionMeans', () => {
	it('groups one model’s finite surprisals by condition and position', () => {
		const means = stimuliPositionMeans(TABLE, WORDS, 0, 'condition');
		expect(
			means.map(({ condition, position, count, mean }) => [condition, position, count, mean]),
		).toEqual([
			['a', 1, 2, 3],
			['a', 2, 1, 4],
			['b', 1, 1, 10],
			['b', 2, 1, 12],
		]);
		// Two words, 2 and 4: sd √2, t(0.975, 1) = 12.706: 3 ± 12.706 · √2 / √2.
		expect(means[0]?.low).toBeCloseTo(3 - 12.7062, 3);
		expect(means[0]?.high).toBeCloseTo(3 + 12.7062, 3);
		expect(means[1]?.low).toBeNull();
	});

	it('puts every row in one series without a condition column', () => {
		const means = stimuliPositionMeans(TABLE, WORDS, 0, null);
		expect(means.map((m) => [m.condition, m.position, m.count])).toEqual([
			['all', 1, 3],
			['all', 2, 2],
		]);
	});

	it('draws positions on the x axis, one series per condition', () => {
		const spec = stimuliFigureSpec(stimuliPositionMeans(TABLE, WORDS, 0, 'condition'), 'm');
		expect(spec.labels).toEqual(['1', '2']);
		expect(spec.series.map((s) => [s.label, s.values])).toEqual([
			['a', [3, 4]],
			['b', [10, 12]],
		]);
	});
});

describe('stimuliCriticalMeans', () => {
	// Four texts; the critical cell names the word by position (2), by itself ("Cat."), by a
	// position past the row's words (9: unmatched) or not at all.
	const table = readStimulusTable(
		'condition,critical,sentence\na,2,The dog ran far\na,cat,A big cat. sat\nb,9,x y\nb,,p q\n',
		{ source: 't.csv' },
	);
	const texts = [
		['The', 'dog', 'ran', 'far'],
		['A', 'big', 'cat.', 'sat'],
		['x', 'y'],
		['p', 'q'],
	];
	// Surprisal 10·row + index, so each value says where it came from.
	const rows = texts.flatMap((words, row) =>
		words.map((text, index): StimuliWordRow => ({
			...word(row, index, 10 * row + index),
			word: text,
		})),
	);

	it('averages the critical word and its neighbours in the same text, by condition', () => {
		const result = stimuliCriticalMeans(table, rows, 0, 'condition', 'critical', false);
		expect(result.criticalWords).toBe(2);
		expect(result.unmatchedRows).toEqual([2]);
		// Row 0: critical "dog" (index 1): offsets −1..2 are 0, 1, 2, 3. Row 1: "cat." (index 2):
		// offsets −2..1 are 10, 11, 12, 13.
		expect(result.means.map((m) => [m.condition, m.position, m.count, m.mean])).toEqual([
			['a', -2, 1, 10],
			['a', -1, 2, (0 + 11) / 2],
			['a', 0, 2, (1 + 12) / 2],
			['a', 1, 2, (2 + 13) / 2],
			['a', 2, 1, 3],
		]);
	});

	it('never reaches into the next text for a neighbour', () => {
		const lastWord = readStimulusTable('critical,sentence\n2,x y\n,p q\n', { source: 't.csv' });
		const words = [word(0, 0, 1), word(0, 1, 2), word(1, 0, 30), word(1, 1, 40)];
		const result = stimuliCriticalMeans(lastWord, words, 0, null, 'critical', false);
		expect(result.means.map((m) => [m.position, m.mean])).toEqual([
			[-1, 1],
			[0, 2],
		]);
	});

	it('one word per row: a flag marks the critical word’s own row', () => {
		const perWord = readStimulusTable('flag,word\n,The\nTRUE,dog\n,ran\n', { source: 't.csv' });
		const words = [word(0, 0, 1), word(1, 1, 5), word(2, 2, 7)];
		const result = stimuliCriticalMeans(perWord, words, 0, null, 'flag', true);
		expect(result.criticalWords).toBe(1);
		expect(result.means.map((m) => [m.position, m.mean])).toEqual([
			[-1, 1],
			[0, 5],
			[1, 7],
		]);
	});

	it('draws the offsets around the critical word on the x axis', () => {
		const { means } = stimuliCriticalMeans(table, rows, 0, 'condition', 'critical', false);
		const spec = stimuliCriticalFigureSpec(means, 'm', 'critical');
		expect(spec.labels).toEqual([
			'critical − 2',
			'critical − 1',
			'critical',
			'critical + 1',
			'critical + 2',
		]);
		expect(spec.series.map((s) => s.label)).toEqual(['a']);
		expect(spec.series[0]?.values).toEqual([10, 5.5, 6.5, 7.5, 3]);
	});
});

describe('stimuliHeatStrips', () => {
	it('cuts one model’s words into texts at each first word, up to the limit', () => {
		const table = readStimulusTable('condition,sentence\na,x y\nb,p q r\nc,s\n', {
			source: 't.csv',
		});
		const words = [
			{ ...word(0, 0, 1), word: 'x', tokens: ['x'] },
			{ ...word(0, 1, 2), word: 'y', tokens: ['Ġy'] },
			{ ...word(1, 0, 3), word: 'p' },
			{ ...word(1, 1, 4), word: 'q' },
			{ ...word(1, 2, 5), word: 'r' },
			{ ...word(2, 0, 6), word: 's' },
			{ ...word(0, 0, 9, 1), word: 'x' },
		];
		const strips = stimuliHeatStrips(table, words, 0, 'condition', 2);
		expect(strips.map((s) => [s.line, s.condition, s.words.map((w) => w.word)])).toEqual([
			[2, 'a', ['x', 'y']],
			[3, 'b', ['p', 'q', 'r']],
		]);
		expect(strips[0]?.words[1]).toEqual({ word: 'y', tokens: 'Ġy', surprisalBits: 2 });
		expect(stimuliHeatStrips(table, words, 1, null).map((s) => s.words.length)).toEqual([1]);
	});
});
