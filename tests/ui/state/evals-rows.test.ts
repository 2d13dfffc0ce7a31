import { describe, expect, it } from 'vitest';
import type { EvalEvent } from '../../../src/core/evals/types';
import {
	compareRuns,
	filterRows,
	isFailure,
	rowsFromEvents,
	samplesCsv,
	showWhitespace,
	verdictOf,
	type EvalsSampleRowView,
} from '../../../src/ui/state/evals-rows.svelte';

function event(sampleId: string, type: string, data: Record<string, unknown>): EvalEvent {
	return {
		run_id: 'r',
		event_id: 0,
		sample_id: sampleId,
		type,
		data,
		created_by: '',
		created_at: '',
	};
}

function row(overrides: Partial<EvalsSampleRowView>): EvalsSampleRowView {
	return {
		sampleId: 'e.dev.0',
		position: 0,
		calls: [],
		completion: '',
		ideals: [],
		picked: null,
		invalid: false,
		...overrides,
	};
}

describe('showWhitespace', () => {
	it.each([
		[' Paris', '⎵Paris'],
		['a\nb', 'a↵\nb'],
		['a\r\n', 'a↵\n'],
		['\tx', '→x'],
		['', ''],
	])('%j → %j', (text, shown) => {
		expect(showWhitespace(text)).toBe(shown);
	});
});

describe('rowsFromEvents', () => {
	it('reads a basic sample: completion, ideals, picked and verdict', () => {
		const [first] = rowsFromEvents([
			event('e.dev.3', 'sampling', {
				prompt: [{ role: 'system', content: 'Q?' }],
				sampled: [' Paris'],
			}),
			event('e.dev.3', 'match', {
				correct: false,
				expected: ['Paris', 'paris'],
				picked: null,
				sampled: ' Paris',
			}),
		]);
		expect(first).toMatchObject({
			sampleId: 'e.dev.3',
			completion: ' Paris',
			ideals: ['Paris', 'paris'],
			picked: null,
			correct: false,
			invalid: false,
		});
		expect(first?.calls[0]?.prompt).toEqual([{ role: 'system', content: 'Q?' }]);
	});

	it('reads a graded sample: the last call is the grader, the last line naming the choice decides', () => {
		const rows = rowsFromEvents([
			event('g.dev.0', 'sampling', { prompt: 'Q', sampled: ['answer'] }),
			event('g.dev.0', 'sampling', {
				prompt: 'grade',
				sampled: ['  Y is tempting\nreasoning\nY\n'],
			}),
			event('g.dev.0', 'metrics', { choice: 'Y', score: 1 }),
			event('g.dev.1', 'sampling', { prompt: 'grade', sampled: ['maybe'] }),
			event('g.dev.1', 'metrics', { choice: '__invalid__', score: 0 }),
		]);
		expect(rows[0]).toMatchObject({
			choice: 'Y',
			score: 1,
			decidingLine: 2,
			completion: 'answer',
			invalid: false,
		});
		expect(rows[0]?.calls.map((call) => call.role)).toEqual(['policy', 'grader']);
		expect(rows[1]).toMatchObject({ invalid: true, decidingLine: -1 });
	});
});

describe('filterRows', () => {
	const rows = [
		row({ sampleId: 'e.dev.10', position: 0, correct: true, completion: 'Paris' }),
		row({ sampleId: 'e.dev.2', position: 1, correct: false, completion: 'Lyon' }),
		row({ sampleId: 'e.dev.7', position: 2, invalid: true, choice: '__invalid__', score: 0 }),
	];
	it.each([
		['all', '', 'order', ['e.dev.10', 'e.dev.2', 'e.dev.7']],
		['failures', '', 'order', ['e.dev.2', 'e.dev.7']],
		['invalid', '', 'order', ['e.dev.7']],
		['all', 'LYON', 'order', ['e.dev.2']],
		['all', '', 'sample', ['e.dev.2', 'e.dev.7', 'e.dev.10']],
		['all', '', 'verdict', ['e.dev.2', 'e.dev.7', 'e.dev.10']],
	] as const)('filter %s, search %j, sort %s', (filter, search, sort, ids) => {
		expect(filterRows(rows, { filter, search, sort }).map((r) => r.sampleId)).toEqual(ids);
	});

	it('counts a zero score as a failure', () => {
		expect(isFailure(row({ choice: 'N', score: 0 }))).toBe(true);
		expect(isFailure(row({ choice: 'Y', score: 1 }))).toBe(false);
	});
});

describe('samplesCsv', () => {
	it('quotes fields with commas, quotes and line breaks', () => {
		const csv = samplesCsv([
			row({
				calls: [{ role: 'policy', prompt: [{ role: 'user', content: 'a, b' }], completion: 'x' }],
				completion: 'say "hi"\nthen',
				ideals: ['hi'],
				correct: true,
			}),
		]);
		const lines = csv.split('\r\n');
		expect(lines[0]).toBe(
			'sample_id,prompt,completion,ideal,picked,correct,f1_score,choice,score,grader_output',
		);
		expect(lines[1]).toBe('e.dev.0,"user: a, b","say ""hi""\nthen",hi,,true,,,,');
	});
});

describe('compareRuns', () => {
	it('matches samples by id, marks differing verdicts and completions, keeps one-sided samples', () => {
		const a = [
			row({ sampleId: 'e.dev.0', completion: 'Paris', correct: true }),
			row({ sampleId: 'e.dev.1', completion: 'Lyon', correct: false }),
			row({ sampleId: 'e.dev.2', completion: 'Rome', correct: true }),
		];
		const b = [
			row({ sampleId: 'e.dev.1', completion: 'Lima', correct: true }),
			row({ sampleId: 'e.dev.0', completion: 'Paris!', correct: true }),
			row({ sampleId: 'e.dev.9', completion: 'x', correct: false }),
		];
		expect(
			compareRuns(a, b).map((s) => [
				s.sampleId,
				s.a !== null,
				s.b !== null,
				s.verdictDiffers,
				s.completionDiffers,
			]),
		).toEqual([
			['e.dev.0', true, true, false, true],
			['e.dev.1', true, true, true, true],
			['e.dev.2', true, false, true, true],
			['e.dev.9', false, true, true, true],
		]);
	});

	it.each([
		[{ correct: true }, 'correct'],
		[{ correct: false }, 'wrong'],
		[{ choice: 'Y', correct: true }, 'Y'],
		[{}, '—'],
	])('verdictOf %j → %s', (fields, verdict) => {
		expect(verdictOf(row(fields))).toBe(verdict);
	});
});
