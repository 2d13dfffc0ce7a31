// The Stimuli figure's numbers: mean surprisal per condition and word position for one model,
// with a Student-t 95% interval, and the chart spec drawn from them.
import { describe, expect, it } from 'vitest';
import { readStimulusTable } from '../../../src/core/stimuli/read-stimulus-table';
import { stimuliFigureSpec, stimuliPositionMeans } from '../../../src/core/stimuli/stimuli-figure';
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
