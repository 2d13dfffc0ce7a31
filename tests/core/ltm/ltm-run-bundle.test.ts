// The LTM run bundle: a finished run (run by runLtm on scripted models) round-trips with its
// report; refused inputs name where they are wrong.
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultWaits } from '../../../src/core/ltm/definitions';
import {
	LTM_RUN_BUNDLE_FORMAT,
	buildLtmRunBundle,
	readLtmRunBundle,
	serializeLtmRunBundle,
	type PortableLtmRun,
} from '../../../src/core/ltm/ltm-run-bundle';
import { buildLtmReport } from '../../../src/core/ltm/report';
import { runLtm } from '../../../src/core/ltm/run-ltm';
import type { LtmRunState } from '../../../src/core/ltm/scheduler';
import type { LtmBenchmark, LtmTestDefinition } from '../../../src/core/ltm/shared/types';
import type {
	GenerateRequest,
	GenerationEvent,
	TextModel,
} from '../../../src/core/model/generation';
import type { TextModelSpec } from '../../../src/core/model/model-spec';

const words = (text: string): number => text.split(/\s+/).filter((word) => word !== '').length;

function definition(datasetName: string, script: string[], expected: string[]): LtmTestDefinition {
	return {
		uniqueId: `${datasetName} - 0`,
		datasetName,
		exampleId: '0',
		configName: datasetName.toLowerCase(),
		evaluator: 'colours',
		description: '',
		resetMessage: '',
		script,
		isQuestion: script.map((_, index) => index === script.length - 1),
		waits: defaultWaits(script.length),
		expectedResponses: expected,
		isTemporal: false,
		usesCallback: false,
		canBeInterleaved: true,
		source: 'test',
	};
}

const BENCHMARK: LtmBenchmark = {
	config: { runName: 't', memorySpan: 80, incompatibilities: [], isolated: false },
	tests: [
		definition(
			'Colours',
			['My favourite colour is green.', 'What is my favourite colour?'],
			['green'],
		),
	],
};

const lastUser = (request: GenerateRequest): string =>
	request.prompt.kind === 'chat'
		? (request.prompt.messages.at(-1)?.content ?? '')
		: request.prompt.text;

const AGENT: TextModel = {
	label: 'agent',
	abilities: { score: false, generate: true, chat: true },
	async *generate(request): AsyncGenerator<GenerationEvent> {
		yield {
			type: 'done',
			completion: lastUser(request).includes('colour') ? 'green' : 'OK',
			finishReason: 'stop',
		};
	},
	countTokens: words,
};

const AGENT_SPEC = {
	source: 'openai',
	model: 'm',
	baseUrl: 'http://127.0.0.1:8000/v1',
	apiKey: 'sk-secret',
};

let state: LtmRunState;
let run: PortableLtmRun & { id: number; replayTexts: Record<string, string> };

beforeAll(async () => {
	state = await runLtm(BENCHMARK, { agent: AGENT, environment: { countTokens: words } });
	run = {
		id: 4,
		replayTexts: { ab: 'replay text' },
		runName: 't',
		definitions: { files: { 'Colours/0.def.json': 'ab'.repeat(32) }, benchmark: BENCHMARK },
		models: { agent: AGENT_SPEC as TextModelSpec },
		agentParams: { temperature: 0 },
		memorySpan: 80,
		isolated: false,
		status: 'done',
		progress: { testsDone: 1, testsTotal: 1, tokens: state.totalTokens, elapsedMs: 50 },
		createdAt: Date.UTC(2026, 10, 24, 5, 30),
		updatedAt: Date.UTC(2026, 10, 24, 5, 31),
		summary: buildLtmReport(state).summary,
	};
});

// A bundle's JSON as the tests edit it (any shape, to write refused inputs).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** A bundle's JSON to edit: without its results' SHA-256 (an edited bundle opens only without
 * it), so a refusal below is the schema's. */
function bundleJson(): Json {
	const { resultsSha256: _sealed, ...json } = JSON.parse(
		serializeLtmRunBundle(buildLtmRunBundle(run, state)),
	) as Json;
	return json;
}

describe('LTM run bundle', () => {
	it('round-trips a finished run: record, state, per-test results, summary; no key, id or replay text', () => {
		const text = serializeLtmRunBundle(buildLtmRunBundle(run, state));
		expect(text).not.toContain('sk-secret');
		expect(text).not.toContain('replay text');
		const read = readLtmRunBundle(text);
		if (!read.ok) throw new Error(`${read.pointer}: ${read.message}`);
		const { bundle } = read;
		expect(bundle).toMatchObject({ format: 'benchtop-run/2', kind: 'ltm' });
		expect(JSON.parse(text)).toMatchObject({ format: 'benchtop-run/2', kind: 'ltm' });
		expect(bundle.run.models.agent).toEqual({
			source: 'openai',
			model: 'm',
			baseUrl: 'http://127.0.0.1:8000/v1',
		});
		expect('id' in bundle.run).toBe(false);
		expect(bundle.state).toEqual(state);
		expect(bundle.results.map((r) => [r.path, r.result.score])).toEqual([['Colours/0_0.json', 1]]);
		expect(bundle.summary).toEqual(buildLtmReport(state).summary);
		// The report rebuilt from the imported state is the one of the run.
		expect(buildLtmReport(bundle.state!)).toEqual(buildLtmReport(state));
	});

	it('a run that never stepped travels without state or results', () => {
		const read = readLtmRunBundle(serializeLtmRunBundle(buildLtmRunBundle(run, null)));
		if (!read.ok) throw new Error(read.message);
		expect(read.bundle.state).toBeNull();
		expect(read.bundle.results).toEqual([]);
		expect(read.bundle.summary).toEqual(run.summary);
	});

	it('reads a bundle of 0.1.0 (benchtop-ltm-run/1) as the same run', () => {
		const { kind: _kind, ...body } = bundleJson();
		const release = readLtmRunBundle(JSON.stringify({ ...body, format: LTM_RUN_BUNDLE_FORMAT }));
		expect(release).toEqual(readLtmRunBundle(JSON.stringify(bundleJson())));
		expect(release.ok).toBe(true);
	});

	it('names a bundle of another kind and the page that opens it', () => {
		const read = readLtmRunBundle(JSON.stringify({ ...bundleJson(), kind: 'evals' }));
		expect(read).toMatchObject({ ok: false, pointer: '/kind' });
		expect(!read.ok && read.message).toContain(
			'a bundle of another kind of run ("evals"), not an LTM run bundle: import it in the Library, which opens runs of every kind',
		);
	});

	it.each<[string, (json: Json) => unknown, string, RegExp]>([
		[
			'an Evals bundle',
			(j) => ({ ...j, format: 'benchtop-evals-run/1' }),
			'/format',
			/not an LTM run bundle/,
		],
		['a newer format', (j) => ({ ...j, format: 'benchtop-ltm-run/2' }), '/format', /newer/],
		['a top-level string', () => 'run', '', /object/],
		['no run name', (j) => ({ ...j, run: { ...j.run, runName: null } }), '/run/runName', /./],
		[
			'an agent spec with an unknown source',
			(j) => ({ ...j, run: { ...j.run, models: { agent: { source: 'gguf' } } } }),
			'/run/models/agent/source',
			/./,
		],
		[
			'a benchmark config without its memory span',
			(j) => ({
				...j,
				run: {
					...j.run,
					definitions: {
						...j.run.definitions,
						benchmark: {
							...j.run.definitions.benchmark,
							config: { runName: 't', isolated: false },
						},
					},
				},
			}),
			'/run/definitions/benchmark/config/memorySpan',
			/./,
		],
		[
			'an unknown status',
			(j) => ({ ...j, run: { ...j.run, status: 'completed' } }),
			'/run/status',
			/./,
		],
		[
			'a state of another format',
			(j) => ({ ...j, state: { ...j.state, format: 'ltm-run-state/9' } }),
			'/state/format',
			/./,
		],
		[
			'an outcome without its score',
			(j) => ({
				...j,
				state: {
					...j.state,
					outcomes: {
						'Colours - 0': {
							...j.state.outcomes['Colours - 0'],
							evaluation: { ...j.state.outcomes['Colours - 0'].evaluation, score: 'full' },
						},
					},
				},
			}),
			'/state/outcomes/Colours - 0/evaluation/score',
			/./,
		],
		[
			'a log line of an unknown role',
			(j) => ({ ...j, state: { ...j.state, log: [{ ...j.state.log[0], role: 'judge' }] } }),
			'/state/log/0/role',
			/./,
		],
		[
			'a creation time past what a date holds (8.65e15)',
			(j) => ({ ...j, run: { ...j.run, createdAt: 8.65e15 } }),
			'/run/createdAt',
			/within the years 0000 to 9999/,
		],
		[
			'an update time of the year 10000',
			(j) => ({ ...j, run: { ...j.run, updatedAt: 253_402_300_800_000 } }),
			'/run/updatedAt',
			/within the years 0000 to 9999/,
		],
		[
			'a start time that is not an ISO time',
			(j) => ({ ...j, state: { ...j.state, startTime: 'yesterday' } }),
			'/state/startTime',
			/expected an ISO time/,
		],
		[
			'a log clock past what a date holds',
			(j) => ({ ...j, state: { ...j.state, log: [{ ...j.state.log[0], clockS: 1e16 }] } }),
			'/state/log/0/clockS',
			/./,
		],
		[
			'a result without its score',
			(j) => ({
				...j,
				results: [{ ...j.results[0], result: { ...j.results[0].result, score: undefined } }],
			}),
			'/results/0/result/score',
			/./,
		],
		[
			'a summary without its score',
			(j) => ({ ...j, summary: { ...j.summary, score: '1' } }),
			'/summary/score',
			/./,
		],
	])('refuses %s, pointing at it', (_name, edit, pointer, message) => {
		const read = readLtmRunBundle(JSON.stringify(edit(bundleJson())));
		expect(read.ok).toBe(false);
		if (read.ok) return;
		expect(read.pointer).toBe(pointer);
		expect(read.message).toMatch(message);
	});
});
