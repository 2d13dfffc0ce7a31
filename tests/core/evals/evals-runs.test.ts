import { describe, expect, it, vi } from 'vitest';
import { decodeEvalsShare, encodeEvalsShare } from '../../../src/core/evals/evals-share-payload';
import {
	evalRunSettings,
	evalsRunProblem,
	evalsSharePayloadOf,
	eventTokens,
	newEvalsRun,
	registryHashes,
	reproducedMessage,
	rerunOf,
	sharedRunOpenedMessage,
	storedAnswerEntries,
	type EvalsRunReadiness,
} from '../../../src/core/evals/evals-runs';
import { registryFiles } from '../../../src/core/evals/registry';
import { rowFromResult } from '../../../src/core/evals/sample-rows';
import type {
	EvalEvent,
	ResolvedEval,
	SampleCall,
	SampleResult,
} from '../../../src/core/evals/shared/types';
import { sha256Hex } from '../../../src/core/hash/sha256';
import type { EvalsRunRecord } from '../../../src/core/kinds/run-record';
import { responseCacheKey } from '../../../src/core/model/cache-key';
import type { TextModelSpec } from '../../../src/core/model/model-spec';

const MATCH = {
	name: 'capitals.dev.v0',
	requestedName: 'capitals',
	className: 'evals.elsuite.basic.match:Match',
	kind: 'match',
	args: { samples_jsonl: 'capitals.jsonl' },
	file: 'evals/capitals.yaml',
	samples: [
		{ input: 'Q1', ideal: 'Paris' },
		{ input: 'Q2', ideal: 'Rome' },
		{ input: 'Q3', ideal: 'Lima' },
	],
	fewShot: [],
	ignoreCase: false,
} as ResolvedEval;
const TINY: TextModelSpec = {
	source: 'bundled',
	id: 'gpt2-random-tiny',
	dtype: 'fp32',
	backend: 'wasm',
};
const REPLAY: TextModelSpec = { source: 'replay', file: 'answers.jsonl', sha256: 'cd'.repeat(32) };

const RECORD: EvalsRunRecord = {
	id: 7,
	kind: 'evals',
	title: 'capitals',
	evalName: 'capitals',
	spec: { registryFiles: { 'evals/capitals.yaml': 'ab'.repeat(32) }, eval: MATCH },
	models: { policy: [TINY], grader: REPLAY },
	overrides: { policy: { max_tokens: 4 }, grader: { temperature: 0.5 } },
	replayTexts: { [REPLAY.sha256]: '{"completion": "Y"}\n' },
	seed: 42,
	maxSamples: 2,
	runId: '261124053000ABCDEFGH',
	status: 'cancelled',
	progress: { done: 1, total: 2, tokens: 9, elapsedMs: 120 },
	createdAt: Date.UTC(2026, 10, 24, 5, 30),
	updatedAt: Date.UTC(2026, 10, 24, 5, 31),
};

function sampleResult(index: number, completion: string, correct: boolean): SampleResult {
	return {
		sampleId: `capitals.dev.v0.${index}`,
		index,
		sample: MATCH.samples[index]!,
		calls: [],
		completion,
		correct,
	};
}

function sampling(sampleId: string, usage: Record<string, unknown> | undefined): EvalEvent {
	return {
		run_id: 'RUN',
		event_id: 0,
		sample_id: sampleId,
		type: 'sampling',
		data: usage ? { usage } : {},
		created_by: '',
		created_at: '',
	};
}

describe('evalsRunProblem', () => {
	const ready: EvalsRunReadiness = {
		running: false,
		selected: 'capitals',
		resolved: MATCH,
		policyProblem: () => null,
		graderProblem: null,
		maxSamples: null,
	};

	it.each<[string, Partial<EvalsRunReadiness>, string | null]>([
		['ready', {}, null],
		['a run going on', { running: true }, 'A run is going on.'],
		['nothing picked', { selected: null, resolved: null }, 'Pick an eval.'],
		['an eval that does not resolve', { resolved: null }, 'This eval has a problem (see above).'],
		[
			'the model under test not ready',
			{ policyProblem: () => 'Pick a replay file (JSONL).' },
			'Model under test: Pick a replay file (JSONL).',
		],
		[
			'the grader not ready',
			{ graderProblem: () => 'Reading the replay file…' },
			'Grader: Reading the replay file…',
		],
		['a grader that is ready', { graderProblem: () => null }, null],
		['max samples 2', { maxSamples: 2 }, null],
		...[0, -1, 1.5, Number.NaN].map((maxSamples): [string, Partial<EvalsRunReadiness>, string] => [
			`max samples ${maxSamples}`,
			{ maxSamples },
			'Max samples must be a whole number of 1 or more (or empty for all).',
		]),
	])('%s', (_, change, problem) => {
		expect(evalsRunProblem({ ...ready, ...change })).toBe(problem);
	});

	it('asks the models only once the eval is picked and no run goes on', () => {
		const policyProblem = vi.fn(() => 'not ready');
		const graderProblem = vi.fn(() => null);
		evalsRunProblem({ ...ready, running: true, policyProblem, graderProblem });
		evalsRunProblem({ ...ready, resolved: null, policyProblem, graderProblem });
		expect(policyProblem).not.toHaveBeenCalled();
		expect(evalsRunProblem({ ...ready, policyProblem, graderProblem })).toBe(
			'Model under test: not ready',
		);
		expect(graderProblem).not.toHaveBeenCalled();
	});
});

describe('registryHashes', () => {
	it('hashes each file by path, taking hashes computed already', () => {
		const files = registryFiles([
			['evals/a.yaml', 'a: 1\n'],
			['data/a.jsonl', '{}\n'],
		]);
		expect(registryHashes(files)).toEqual({
			'evals/a.yaml': sha256Hex('a: 1\n'),
			'data/a.jsonl': sha256Hex('{}\n'),
		});
		expect(registryHashes(files, { 'data/a.jsonl': 'known' })).toEqual({
			'evals/a.yaml': sha256Hex('a: 1\n'),
			'data/a.jsonl': 'known',
		});
	});
});

describe('newEvalsRun / rerunOf', () => {
	const createdAt = Date.UTC(2026, 10, 25, 17, 50, 41);
	const input = {
		evalName: 'capitals',
		resolved: MATCH,
		registryHashes: { 'evals/capitals.yaml': 'h' },
		policy: { spec: REPLAY, replayText: 'answers' },
		grader: null,
		overrides: { policy: { temperature: 1 }, grader: {} },
		seed: 7,
		maxSamples: null,
		createdAt,
	};

	it('stores what ran, on which models, every sample by default', () => {
		const run = newEvalsRun(input);
		expect(run).toMatchObject({
			evalName: 'capitals',
			spec: { registryFiles: { 'evals/capitals.yaml': 'h' }, eval: MATCH },
			models: { policy: [REPLAY] },
			overrides: { policy: { temperature: 1 }, grader: {} },
			replayTexts: { [REPLAY.sha256]: 'answers' },
			seed: 7,
			createdAt,
			total: 3,
		});
		expect('maxSamples' in run).toBe(false);
		expect('grader' in run.models).toBe(false);
		// Upstream's run id: the UTC time, then 8 base-32 characters.
		expect(run.runId).toMatch(/^261125175041[A-Z2-7]{8}$/u);
	});

	it.each([
		[1, 1],
		[3, 3],
		[10, 3],
	])('max samples %d: %d samples to run', (maxSamples, total) => {
		const run = newEvalsRun({ ...input, maxSamples });
		expect(run.maxSamples).toBe(maxSamples);
		expect(run.total).toBe(total);
	});

	it('names the grader, and keeps replay text of replay models only', () => {
		const run = newEvalsRun({
			...input,
			policy: { spec: TINY },
			grader: { spec: REPLAY, replayText: 'grades' },
		});
		expect(run.models).toEqual({ policy: [TINY], grader: REPLAY });
		expect(run.replayTexts).toEqual({ [REPLAY.sha256]: 'grades' });
	});

	it('re-runs a stored run as it ran, under a new run id and time', () => {
		const again = rerunOf(RECORD, createdAt);
		expect(again).toEqual({
			evalName: RECORD.evalName,
			spec: RECORD.spec,
			models: RECORD.models,
			overrides: RECORD.overrides,
			replayTexts: RECORD.replayTexts,
			seed: 42,
			maxSamples: 2,
			runId: again.runId,
			createdAt,
			total: 2,
		});
		expect(again.runId).not.toBe(RECORD.runId);
		const { maxSamples: _all, ...everySample } = RECORD;
		expect('maxSamples' in rerunOf(everySample, createdAt)).toBe(false);
	});
});

describe('evalRunSettings', () => {
	it('runs with the record’s seed, samples and run id, one sample at a time', () => {
		expect(evalRunSettings(RECORD)).toEqual({
			seed: 42,
			maxSamples: 2,
			runId: RECORD.runId,
			createdBy: 'benchtop',
			concurrency: 1,
		});
	});
});

describe('evalsSharePayloadOf', () => {
	it('carries the run and each sample’s verdict, and survives the link', () => {
		const samples = [
			{
				sampleId: 'capitals.dev.v0.1',
				position: 1,
				result: sampleResult(1, 'Milan', false),
				events: [],
			},
			{
				sampleId: 'capitals.dev.v0.0',
				position: 0,
				result: sampleResult(0, 'Paris', true),
				events: [],
			},
		];
		const payload = evalsSharePayloadOf(RECORD, samples);
		expect(payload).toMatchObject({
			v: 1,
			evalName: 'capitals',
			eval: MATCH,
			models: RECORD.models,
			overrides: RECORD.overrides,
			replayTexts: RECORD.replayTexts,
			seed: 42,
			maxSamples: 2,
		});
		expect(payload.verdicts).toEqual({
			'capitals.dev.v0.0': 'correct',
			'capitals.dev.v0.1': 'wrong',
		});
		expect(decodeEvalsShare(encodeEvalsShare(payload))).toEqual(payload);
	});
});

describe('eventTokens', () => {
	it('adds the total tokens the events report, skipping events without a count', () => {
		expect(eventTokens([])).toBe(0);
		expect(
			eventTokens([
				sampling('s', { total_tokens: 5 }),
				sampling('s', undefined),
				sampling('s', { total_tokens: '7' }),
				sampling('s', { total_tokens: 2 }),
			]),
		).toBe(7);
	});
});

describe('storedAnswerEntries', () => {
	const policyCall: SampleCall = {
		role: 'policy',
		prompt: 'Q1',
		params: { temperature: 0 },
		completion: 'Paris',
		modelLabel: 'tiny',
	};
	const graderCall: SampleCall = {
		...policyCall,
		role: 'grader',
		prompt: 'grade',
		completion: 'Y',
	};
	const sample = {
		sampleId: 'capitals.dev.v0.0',
		position: 0,
		result: { ...sampleResult(0, 'Paris', true), calls: [policyCall, graderCall] },
		events: [
			sampling('capitals.dev.v0.0', { prompt_tokens: 3, completion_tokens: 1 }),
			sampling('capitals.dev.v0.0', undefined),
		],
	};
	const createdAt = '2026-11-25T17:50:41.000Z';

	it('keys each answer of the role as the response cache looks it up', () => {
		const entries = storedAnswerEntries([sample], TINY, 'policy', { max_tokens: 4 }, createdAt);
		const request = {
			prompt: { kind: 'text' as const, text: 'Q1' },
			params: { temperature: 0, max_tokens: 4 },
		};
		expect(entries).toEqual([
			{
				key: responseCacheKey(
					TINY,
					request,
					{ sampleId: sample.sampleId, role: 'policy', callIndex: 0 },
					undefined,
				),
				model: expect.stringContaining('gpt2-random-tiny'),
				request,
				completion: 'Paris',
				finishReason: 'stop',
				usage: { promptTokens: 3, completionTokens: 1 },
				createdAt,
			},
		]);
	});

	it('gives a grader answer as call 0 of its sample, and nothing for no samples', () => {
		const [entry, ...rest] = storedAnswerEntries([sample], REPLAY, 'grader', {}, createdAt);
		expect(rest).toEqual([]);
		expect(entry?.completion).toBe('Y');
		expect(entry?.key).toBe(
			responseCacheKey(
				REPLAY,
				entry!.request,
				{ sampleId: sample.sampleId, role: 'grader', callIndex: 0 },
				undefined,
			),
		);
		expect(storedAnswerEntries([], TINY, 'policy', {}, createdAt)).toEqual([]);
	});
});

describe('shared run messages', () => {
	it('says how many verdicts a link carries, and how many a re-run reproduced', () => {
		const verdicts = { 'capitals.dev.v0.0': 'correct', 'capitals.dev.v0.1': 'wrong' };
		const payload = { ...evalsSharePayloadOf(RECORD, []), verdicts };
		expect(sharedRunOpenedMessage(payload)).toBe(
			'Opened a shared run of capitals (2 verdicts). Run it to see whether it reproduces.',
		);
		const rows = [
			rowFromResult(sampleResult(0, 'Paris', true), 0),
			rowFromResult(sampleResult(1, 'Paris', true), 1),
		];
		// Sample 0 repeats `correct`; sample 1 is now correct, not `wrong`.
		expect(reproducedMessage(verdicts, rows)).toBe(
			'Reproduced: 1/2 verdicts identical to the shared run.',
		);
		expect(reproducedMessage(verdicts, [])).toBe(
			'Reproduced: 0/2 verdicts identical to the shared run.',
		);
	});
});
