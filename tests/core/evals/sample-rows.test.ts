import { describe, expect, it } from 'vitest';
import {
	INVALID_CHOICE,
	filterRows,
	isFailure,
	rowFromResult,
	rowsFromEvents,
	samplesCsv,
	showWhitespace,
	verdictOf,
	type EvalsRowFilter,
	type EvalsRowSort,
	type EvalsSampleRowView,
} from '../../../src/core/evals';
import type { EvalEvent, SampleResult } from '../../../src/core/evals/shared/types';
import { HOSTILE_CELLS } from '../formats/hostile-cells';

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

const policyCall = {
	role: 'policy',
	prompt: [{ role: 'user', content: 'Capital of France?' }],
	params: { temperature: 0 },
	completion: ' Paris',
	modelLabel: 'tiny',
} as const;

function result(overrides: Partial<SampleResult>): SampleResult {
	return {
		sampleId: 'e.dev.0',
		index: 0,
		sample: { input: 'Capital of France?', ideal: 'Paris' },
		calls: [policyCall],
		completion: ' Paris',
		...overrides,
	};
}

describe('rowFromResult', () => {
	it.each<[string, SampleResult, Partial<EvalsSampleRowView>]>([
		[
			'a basic verdict: ideals from `expected`, a picked list joined',
			result({ correct: true, expected: ['Paris', 'paris'], picked: ['Paris'] }),
			{ ideals: ['Paris', 'paris'], picked: 'Paris', correct: true, invalid: false },
		],
		[
			'no `expected`: the ideal of the sample; nothing picked',
			result({ correct: false, picked: null }),
			{ ideals: ['Paris'], picked: null, correct: false, invalid: false },
		],
		[
			'an empty picked list is nothing picked; an F1 score is kept',
			result({ picked: [], f1Score: 0.5, expected: 'Paris' }),
			{ ideals: ['Paris'], picked: null, f1: 0.5 },
		],
		[
			'a JSON ideal is shown as JSON',
			result({ sample: { input: 'q', ideal: { a: 1 } } }),
			{ ideals: ['{"a":1}'] },
		],
		[
			'a grader choice with its score, metascore and deciding line',
			result({
				graded: {
					choice: 'Y',
					score: 1,
					metascore: true,
					graderPrompt: [],
					graderOutput: 'reasoning\nY',
					decidingLine: 1,
				},
			}),
			{
				choice: 'Y',
				score: 1,
				metascore: true,
				graderOutput: 'reasoning\nY',
				decidingLine: 1,
				invalid: false,
			},
		],
		[
			'an invalid grader choice',
			result({
				graded: {
					choice: INVALID_CHOICE,
					score: null,
					graderPrompt: [],
					graderOutput: 'maybe',
					decidingLine: -1,
				},
			}),
			{ choice: INVALID_CHOICE, score: null, invalid: true, decidingLine: -1 },
		],
	])('%s', (_what, sample, expected) => {
		const shown = rowFromResult(sample, 4);
		expect(shown).toMatchObject({ ...expected, sampleId: 'e.dev.0', position: 4 });
		expect(shown.calls).toEqual([
			{ role: 'policy', prompt: policyCall.prompt, completion: ' Paris', modelLabel: 'tiny' },
		]);
	});

	it('leaves out what the result does not have', () => {
		const shown = rowFromResult(result({}), 0);
		for (const key of ['correct', 'f1', 'choice', 'score', 'metascore', 'graderOutput']) {
			expect(shown).not.toHaveProperty(key);
		}
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

	it('groups events by sample id in the order samples first appear', () => {
		const rows = rowsFromEvents([
			event('e.dev.1', 'sampling', { prompt: 'a', sampled: ['x'] }),
			event('e.dev.0', 'sampling', { prompt: 'b', sampled: ['y'] }),
			event('e.dev.1', 'match', { correct: true, expected: 'x', picked: 'x', sampled: 'x' }),
		]);
		expect(rows.map((r) => [r.sampleId, r.position, r.completion, r.correct])).toEqual([
			['e.dev.1', 0, 'x', true],
			['e.dev.0', 1, 'y', undefined],
		]);
	});
});

describe('filterRows', () => {
	const rows = [
		row({ sampleId: 'e.dev.10', position: 0, correct: true, completion: 'Paris', f1: 0.9 }),
		row({ sampleId: 'e.dev.2', position: 1, correct: false, completion: 'Lyon', f1: 0.2 }),
		row({ sampleId: 'e.dev.7', position: 2, invalid: true, choice: '__invalid__', score: 0 }),
	];
	it.each<[EvalsRowFilter, string, EvalsRowSort, string[]]>([
		['all', '', 'order', ['e.dev.10', 'e.dev.2', 'e.dev.7']],
		['failures', '', 'order', ['e.dev.2', 'e.dev.7']],
		['invalid', '', 'order', ['e.dev.7']],
		['all', 'LYON', 'order', ['e.dev.2']],
		['all', '  lyon ', 'order', ['e.dev.2']],
		['all', 'nowhere', 'order', []],
		['all', '', 'sample', ['e.dev.2', 'e.dev.7', 'e.dev.10']],
		['all', '', 'verdict', ['e.dev.2', 'e.dev.7', 'e.dev.10']],
		['all', '', 'f1', ['e.dev.7', 'e.dev.2', 'e.dev.10']],
	])('filter %s, search %j, sort %s', (filter, search, sort, ids) => {
		expect(filterRows(rows, { filter, search, sort }).map((r) => r.sampleId)).toEqual(ids);
	});

	it('searches the prompts and outputs of the calls', () => {
		const withCall = row({
			sampleId: 'e.dev.5',
			calls: [
				{ role: 'policy', prompt: [{ role: 'user', content: 'Which river?' }], completion: '' },
			],
		});
		expect(
			filterRows([withCall], { filter: 'all', search: 'RIVER', sort: 'order' }).map(
				(r) => r.sampleId,
			),
		).toEqual(['e.dev.5']);
	});
});

describe('isFailure', () => {
	it.each<[Partial<EvalsSampleRowView>, boolean]>([
		[{ correct: false }, true],
		[{ correct: true }, false],
		[{ invalid: true, choice: '__invalid__', score: 0 }, true],
		[{ choice: 'N', score: 0 }, true],
		[{ choice: 'Y', score: 1 }, false],
		[{ choice: 'Y', score: null }, false],
		[{}, false],
	])('%j → %s', (fields, failed) => {
		expect(isFailure(row(fields))).toBe(failed);
	});
});

describe('verdictOf', () => {
	it.each<[Partial<EvalsSampleRowView>, string]>([
		[{ correct: true }, 'correct'],
		[{ correct: false }, 'wrong'],
		[{ choice: 'Y', correct: true }, 'Y'],
		[{}, '—'],
	])('%j → %s', (fields, verdict) => {
		expect(verdictOf(row(fields))).toBe(verdict);
	});
});

describe('samplesCsv', () => {
	const HEADER =
		'sample_id,prompt,completion,ideal,picked,correct,f1_score,choice,score,grader_output';
	it.each<[string, EvalsSampleRowView, string]>([
		[
			'fields with commas, quotes and line breaks are quoted',
			row({
				calls: [{ role: 'policy', prompt: [{ role: 'user', content: 'a, b' }], completion: 'x' }],
				completion: 'say "hi"\nthen',
				ideals: ['hi'],
				correct: true,
			}),
			'e.dev.0,"user: a, b","say ""hi""\nthen",hi,,true,,,,',
		],
		[
			'a text prompt, several ideals, picked and F1',
			row({
				calls: [{ role: 'policy', prompt: 'Q:', completion: 'x' }],
				completion: 'x',
				ideals: ['x', 'y'],
				picked: 'x',
				correct: true,
				f1: 0.5,
			}),
			'e.dev.0,Q:,x,x | y,x,true,0.5,,,',
		],
		[
			'a graded row: the prompt is the policy call, a message name over its role',
			row({
				calls: [
					{
						role: 'policy',
						prompt: [{ role: 'system', name: 'example_user', content: 'hi' }],
						completion: 'a',
					},
					{ role: 'grader', prompt: 'grade', completion: 'Y' },
				],
				completion: 'a',
				choice: 'Y',
				score: 1,
				graderOutput: 'Y',
			}),
			'e.dev.0,example_user: hi,a,,,,,Y,1,Y',
		],
		['no calls, no score', row({ choice: 'N', score: null }), 'e.dev.0,,,,,,,N,,'],
	])('%s', (_what, shown, line) => {
		expect(samplesCsv([shown])).toBe(`${HEADER}\r\n${line}\r\n`);
	});

	it('is only the header for no rows', () => {
		expect(samplesCsv([])).toBe(`${HEADER}\r\n`);
	});

	it.each(HOSTILE_CELLS)(
		'a sample id, prompt, answer, ideal, choice or grader output %j is written inert; a negative score stays',
		(cell, written) => {
			const shown = row({
				sampleId: cell,
				calls: [{ role: 'policy', prompt: cell, completion: cell }],
				completion: cell,
				ideals: [cell],
				picked: cell,
				f1: -0.25,
				choice: cell,
				score: -3.5,
				graderOutput: cell,
			});
			const w = written;
			expect(samplesCsv([shown])).toBe(
				`${HEADER}\r\n${w},${w},${w},${w},${w},,-0.25,${w},-3.5,${w}\r\n`,
			);
		},
	);
});
