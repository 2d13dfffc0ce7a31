// The sharer's Evals run as a share link carries it, shown before any re-run: models, accuracy
// (or a grader's choices counted) and each sample with its verdict, in sample order.
import { describe, expect, it } from 'vitest';
import {
	EVALS_SHARE_VERSION,
	type EvalsSharePayload,
} from '../../../src/core/evals/evals-share-payload';
import { summarizeSharedEvalsRun } from '../../../src/core/evals/shared-run-summary';

const MATCH: EvalsSharePayload = {
	v: EVALS_SHARE_VERSION,
	evalName: 'capitals',
	eval: {
		name: 'capitals.test.v1',
		requestedName: 'capitals',
		className: 'evals.elsuite.basic.match:Match',
		kind: 'match',
		args: { samples_jsonl: 'capitals/samples.jsonl' },
		file: 'evals/capitals.yaml',
		samples: [
			{
				input: [
					{ role: 'system', content: 'Answer.' },
					{ role: 'user', content: 'France?' },
				],
				ideal: 'Paris',
			},
			{ input: 'Spain?', ideal: ['Madrid', 'madrid'] },
			{ input: 'Italy?', ideal: 'Rome' },
		],
		fewShot: [],
		ignoreCase: false,
	},
	models: { policy: [{ source: 'bundled', id: 'gpt2-en-small', dtype: 'fp32', backend: 'wasm' }] },
	overrides: { policy: {}, grader: {} },
	replayTexts: {},
	seed: 20220722,
	verdicts: {
		'capitals.test.2': 'wrong',
		'capitals.test.0': 'correct',
		'capitals.test.1': 'correct',
	},
};

describe('summarizeSharedEvalsRun', () => {
	it('counts correct of correct + wrong and lists the samples in sample order', () => {
		const run = summarizeSharedEvalsRun(MATCH);
		expect(run.model).toBe('gpt2-en-small');
		expect(run.grader).toBeNull();
		expect(run.accuracy).toEqual({ correct: 2, total: 3 });
		expect(run.verdictCounts).toEqual([
			{ verdict: 'correct', count: 2 },
			{ verdict: 'wrong', count: 1 },
		]);
		expect(run.samples).toEqual([
			{
				sampleId: 'capitals.test.0',
				verdict: 'correct',
				input: 'system: Answer.\nuser: France?',
				ideal: 'Paris',
			},
			{
				sampleId: 'capitals.test.1',
				verdict: 'correct',
				input: 'Spain?',
				ideal: '["Madrid","madrid"]',
			},
			{ sampleId: 'capitals.test.2', verdict: 'wrong', input: 'Italy?', ideal: 'Rome' },
		]);
	});

	it('a model-graded run counts the grader choices and names the grader; no accuracy', () => {
		const graded: EvalsSharePayload = {
			...MATCH,
			eval: { ...MATCH.eval, kind: 'modelgraded' },
			models: {
				...MATCH.models,
				grader: { source: 'openai', model: 'judge', baseUrl: 'http://127.0.0.1:8000/v1' },
			},
			verdicts: { 'capitals.test.0': 'Y', 'capitals.test.1': 'N', 'capitals.test.2': 'Y' },
		};
		const run = summarizeSharedEvalsRun(graded);
		expect(run.accuracy).toBeNull();
		expect(run.grader).toBe('openai/judge@http://127.0.0.1:8000/v1');
		expect(run.verdictCounts).toEqual([
			{ verdict: 'Y', count: 2 },
			{ verdict: 'N', count: 1 },
		]);
	});
});
