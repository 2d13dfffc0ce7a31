// Small hand-made runs of every kind (suite, Evals, LTM) for the storage tests.
import { readFileSync } from 'node:fs';
import type { ResolvedEval, SampleResult } from '../../src/core/evals/shared/types';
import { loadLtmSuite, type LtmBenchmark } from '../../src/core/ltm';
import type {
	GenerateRequest,
	GenerationEvent,
	ModelCall,
	TextModel,
} from '../../src/core/model/generation';
import type { ItemResult, RunDraft } from '../../src/core/syntaxgym/run/suite-run';
import type { EvalsRunDraft } from '../../src/storage/evals/evals-runs-repository';
import type { LtmRunDraft } from '../../src/storage/ltm/ltm-runs-repository';

export const SUITE_TEXT = JSON.stringify({
	meta: { name: 'tiny agreement', metric: 'sum' },
	region_meta: { '1': 'subject', '2': 'verb' },
	predictions: [{ type: 'formula', formula: '(2;%bad%) > (2;%good%)' }],
	items: [],
});

export function runDraft(overrides: Partial<RunDraft> = {}): RunDraft {
	return {
		suiteSha256: 'a'.repeat(64),
		suiteName: 'tiny agreement',
		model: { source: 'bundled', id: 'gpt2-random-tiny', dtype: 'fp32', backend: 'wasm' },
		convention: 'reference',
		itemCount: 3,
		appVersion: '0.1.0',
		createdAt: 1_700_000_000_000,
		...overrides,
	};
}

export function itemResult(itemNumber: number): ItemResult {
	return {
		itemNumber,
		sentences: [
			{
				conditionName: 'good',
				text: 'The dog runs',
				tokens: [
					{ token: 'The', surprisalBits: 0, start: 0, end: 3 },
					{ token: 'Ġdog', surprisalBits: 7.25 + itemNumber, start: 3, end: 7 },
					{ token: 'Ġruns', surprisalBits: 11.5, start: 7, end: 12 },
				],
			},
			{
				conditionName: 'bad',
				text: 'The dog run',
				tokens: [
					{ token: '<|endoftext|>', surprisalBits: 0, start: 0, end: 0, special: true },
					{ token: 'The', surprisalBits: 3.125 },
					{ token: 'Ġdog', surprisalBits: 7.25 },
					{ token: 'Ġrun', surprisalBits: 14.75 },
				],
			},
		],
	};
}

export const EVAL: ResolvedEval = {
	name: 'capitals.dev.v0',
	requestedName: 'capitals',
	className: 'evals.elsuite.basic.match:Match',
	kind: 'match',
	args: { samples_jsonl: 'capitals.jsonl' },
	file: 'evals/capitals.yaml',
	samples: [
		{ input: 'Capital of France?', ideal: 'Paris' },
		{ input: 'Capital of Peru?', ideal: 'Lima' },
	],
	fewShot: [],
	ignoreCase: false,
};

export function evalsRunDraft(overrides: Partial<EvalsRunDraft> = {}): EvalsRunDraft {
	return {
		evalName: 'capitals',
		spec: { registryFiles: { 'evals/capitals.yaml': 'a'.repeat(64) }, eval: EVAL },
		models: {
			policy: [{ source: 'openai', model: 'm', baseUrl: 'http://127.0.0.1:8000/v1' }],
		},
		overrides: { policy: {}, grader: {} },
		replayTexts: {},
		seed: 20220722,
		runId: '261124041600ABCDEFGH',
		createdAt: 100,
		total: 2,
		...overrides,
	};
}

export function sampleResult(index: number, completion: string, correct: boolean): SampleResult {
	return {
		sampleId: `capitals.dev.${index}`,
		index,
		sample: EVAL.samples[index] ?? {},
		calls: [
			{
				role: 'policy',
				prompt: [{ role: 'system', content: 'Capital?' }],
				params: { temperature: 0 },
				completion,
				modelLabel: 'm',
			},
		],
		completion,
		correct,
		expected: 'Paris',
		picked: correct ? 'Paris' : null,
	};
}

const SUITE_PATH = 'suites/memory/classroom-basics.ltm-suite.json';

export function ltmBenchmark(): LtmBenchmark {
	const loaded = loadLtmSuite(SUITE_PATH, readFileSync(SUITE_PATH, 'utf8'));
	if (!loaded.ok) throw new Error(JSON.stringify(loaded.diagnostics));
	return loaded.benchmark;
}

export function ltmRunDraft(overrides: Partial<LtmRunDraft> = {}): LtmRunDraft {
	const loaded = ltmBenchmark();
	return {
		runName: loaded.config.runName,
		definitions: { files: { [SUITE_PATH]: 'a'.repeat(64) }, benchmark: loaded },
		models: {
			agent: { source: 'openai', model: 'm', baseUrl: 'http://127.0.0.1:8000/v1' },
		},
		agentParams: { temperature: 0 },
		replayTexts: {},
		memorySpan: loaded.config.memorySpan,
		isolated: false,
		createdAt: 1000,
		...overrides,
	};
}

/** An agent whose reply depends on the number of messages it sees (so a wrong history shows). */
export function countingAgent(): TextModel & { calls: number } {
	const agent = {
		label: 'counting',
		calls: 0,
		abilities: { score: false, generate: true, chat: true },
		async *generate(request: GenerateRequest, _call: ModelCall): AsyncGenerator<GenerationEvent> {
			agent.calls++;
			const seen = request.prompt.kind === 'chat' ? request.prompt.messages.length : 0;
			const completion = `Reply after ${seen} messages.`;
			yield { type: 'token', text: completion };
			yield { type: 'done', completion, finishReason: 'stop' };
		},
		countTokens: (text: string) => Math.ceil(text.length / 4),
	};
	return agent;
}
