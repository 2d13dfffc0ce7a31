import { describe, expect, it } from 'vitest';
import {
	shownRunOfLog,
	shownRunOfStored,
	type OaievalLog,
	type StoredEvalsRun,
} from '../../../src/core/evals';
import type { ResolvedEval, SampleResult } from '../../../src/core/evals/shared/types';
import { describeModelSpec, type TextModelSpec } from '../../../src/core/model/model-spec';

const MATCH: ResolvedEval = {
	name: 'capitals.dev.v0',
	requestedName: 'capitals',
	className: 'evals.elsuite.basic.match:Match',
	kind: 'match',
	args: { samples_jsonl: 'capitals.jsonl' },
	file: 'evals/capitals.yaml',
	samples: [{ input: 'Q', ideal: 'Paris' }],
	fewShot: [],
	ignoreCase: false,
};
const TINY: TextModelSpec = {
	source: 'bundled',
	id: 'gpt2-random-tiny',
	dtype: 'fp32',
	backend: 'wasm',
};
const REPLAY: TextModelSpec = { source: 'replay', file: 'grader.jsonl', sha256: 'cd'.repeat(32) };

function record(fields: Partial<StoredEvalsRun>): StoredEvalsRun {
	return {
		id: 7,
		evalName: 'capitals',
		spec: { eval: MATCH },
		models: { policy: [TINY] },
		overrides: { policy: { max_tokens: 4 }, grader: {} },
		seed: 20220722,
		runId: '261124053000ABCDEFGH',
		status: 'done',
		createdAt: Date.UTC(2026, 10, 24, 5, 30, 0),
		...fields,
	};
}

const RESULT: SampleResult = {
	sampleId: 'capitals.dev.v0.0',
	index: 0,
	sample: { input: 'Q', ideal: 'Paris' },
	calls: [],
	completion: 'Paris',
	correct: true,
};

describe('shownRunOfStored', () => {
	it.each<[string, StoredEvalsRun, Partial<ReturnType<typeof shownRunOfStored>>]>([
		[
			'a finished run: title, models, report, parameters sent',
			record({ report: { accuracy: 1 } }),
			{
				source: 'run',
				title: `capitals on ${describeModelSpec(TINY)}`,
				evalName: 'capitals.dev.v0',
				kind: 'match',
				models: [describeModelSpec(TINY)],
				report: { accuracy: 1 },
				seed: 20220722,
				paramsSent: [
					{
						role: 'model under test',
						params: { temperature: 0, max_tokens: 4 },
						maxTokens: { value: 4, source: 'override', template: null },
					},
				],
				parityMarks: [],
				runRecordId: 7,
				status: 'done',
			},
		],
		[
			'a run with a grader lists it after the model under test; no report yet',
			record({ models: { policy: [TINY], grader: REPLAY }, status: 'running' }),
			{
				title: `capitals on ${describeModelSpec(TINY)}, ${describeModelSpec(REPLAY)}`,
				models: [describeModelSpec(TINY), describeModelSpec(REPLAY)],
				report: null,
				status: 'running',
			},
		],
		[
			'a Match run without a max_tokens setting: the app default, marked',
			record({ overrides: { policy: {}, grader: {} } }),
			{
				paramsSent: [
					{
						role: 'model under test',
						params: { temperature: 0, max_tokens: 256 },
						maxTokens: { value: 256, source: 'app default', template: null },
					},
				],
				parityMarks: ['parity: provider default replaced'],
			},
		],
	])('%s', (_what, stored, expected) => {
		expect(shownRunOfStored(stored, [])).toMatchObject(expected);
	});

	it('shows the samples as rows and their events in order; the spec says how it ran', () => {
		const event = {
			run_id: 'r',
			event_id: 0,
			sample_id: 'capitals.dev.v0.0',
			type: 'match',
			data: {},
			created_by: '',
			created_at: '',
		};
		const shown = shownRunOfStored(record({ maxSamples: 1 }), [
			{ position: 0, result: RESULT, events: [event] },
		]);
		expect(shown.rows.map((row) => [row.sampleId, row.position, row.correct])).toEqual([
			['capitals.dev.v0.0', 0, true],
		]);
		expect(shown.events).toEqual([event]);
		expect(shown.spec).toMatchObject({
			eval_name: 'capitals.dev.v0',
			run_id: '261124053000ABCDEFGH',
			created_at: '2026-11-24 05:30:00+00:00',
			created_by: 'benchtop',
			run_config: {
				seed: 20220722,
				max_samples: 1,
				command: `oaieval ${describeModelSpec(TINY)} capitals`,
			},
		});
	});
});

describe('shownRunOfLog', () => {
	const log = (runConfig: Record<string, unknown>, finalReport?: Record<string, number>) =>
		({
			spec: {
				completion_fns: ['gpt-3.5-turbo'],
				eval_name: 'capitals.dev.v0',
				base_eval: 'capitals',
				split: 'dev',
				run_config: runConfig,
				created_by: '',
				run_id: 'r',
				created_at: '',
			},
			events: [],
			...(finalReport ? { finalReport } : {}),
		}) as unknown as OaievalLog;

	it.each<[string, OaievalLog, Partial<ReturnType<typeof shownRunOfLog>>]>([
		[
			'a finished log with a seed',
			log({ seed: 20220722 }, { accuracy: 0.5 }),
			{
				source: 'log',
				title: 'capitals.dev.v0 (log run.jsonl)',
				evalName: 'capitals.dev.v0',
				kind: null,
				models: ['gpt-3.5-turbo'],
				report: { accuracy: 0.5 },
				seed: 20220722,
				paramsSent: [],
				parityMarks: [],
				rows: [],
			},
		],
		['a log without a numeric seed nor a report', log({ seed: 'x' }), { seed: null, report: null }],
	])('%s', (_what, read, expected) => {
		expect(shownRunOfLog(read, 'run.jsonl')).toMatchObject(expected);
	});
});
