// A small LTM run finished by runLtm on a scripted agent (one test answered right, one wrong),
// and its stored record, for the tests of what the Memory page does with a run.
import { defaultWaits } from '../../../src/core/ltm/definitions';
import type { LtmRunRecord } from '../../../src/core/kinds/run-record';
import { buildLtmSummary } from '../../../src/core/ltm/report';
import { runLtm } from '../../../src/core/ltm/run-ltm';
import type { LtmRunState } from '../../../src/core/ltm/scheduler';
import type { LtmBenchmark, LtmTestDefinition } from '../../../src/core/ltm/shared/types';
import type {
	GenerateRequest,
	GenerationEvent,
	TextModel,
} from '../../../src/core/model/generation';

const words = (text: string): number => text.split(/\s+/).filter((word) => word !== '').length;

function colours(exampleId: string, colour: string): LtmTestDefinition {
	const script = [`My favourite colour is ${colour}.`, 'What is my favourite colour?'];
	return {
		uniqueId: `Colours - ${exampleId}`,
		datasetName: 'Colours',
		exampleId,
		configName: 'colours',
		evaluator: 'colours',
		description: '',
		resetMessage: '',
		script,
		isQuestion: [false, true],
		waits: defaultWaits(script.length),
		expectedResponses: [colour],
		isTemporal: false,
		usesCallback: false,
		canBeInterleaved: true,
		source: 'test',
	};
}

export const BENCHMARK: LtmBenchmark = {
	config: { runName: 'colours', memorySpan: 200, incompatibilities: [], isolated: false },
	tests: [colours('0', 'green'), colours('1', 'blue')],
};

const lastUser = (request: GenerateRequest): string =>
	request.prompt.kind === 'chat'
		? (request.prompt.messages.at(-1)?.content ?? '')
		: request.prompt.text;

/** Answers every colour question "green" (right for test 0, wrong for test 1). */
export const AGENT: TextModel = {
	label: 'agent',
	abilities: { score: false, generate: true, chat: true },
	async *generate(request): AsyncGenerator<GenerationEvent> {
		const completion = lastUser(request).includes('colour?') ? 'green' : 'OK';
		yield { type: 'token', text: completion.slice(0, 2) };
		yield { type: 'token', text: completion.slice(2) };
		yield { type: 'done', completion, finishReason: 'stop' };
	},
	countTokens: words,
};

export function finishedState(): Promise<LtmRunState> {
	return runLtm(BENCHMARK, { agent: AGENT, environment: { countTokens: words } });
}

/** The stored record of the finished run (`status` done, with its summary). */
export function finishedRecord(state: LtmRunState, id = 7): LtmRunRecord {
	return {
		id,
		kind: 'ltm',
		title: 'colours',
		runName: 'colours',
		definitions: { files: { 'colours.ltm-suite.json': 'ab'.repeat(32) }, benchmark: BENCHMARK },
		models: {
			agent: { source: 'openai', model: 'm', baseUrl: 'http://127.0.0.1:8000/v1' },
			judge: { source: 'replay', file: 'judge.jsonl', sha256: 'cd'.repeat(32) },
		},
		agentParams: { max_tokens: 16 },
		maxContextTokens: 300,
		maxMessageTokens: 150,
		replayTexts: { ['cd'.repeat(32)]: 'judge lines' },
		memorySpan: 200,
		isolated: false,
		status: 'done',
		progress: { testsDone: 2, testsTotal: 2, tokens: state.totalTokens, elapsedMs: 900 },
		createdAt: Date.UTC(2026, 10, 25, 9, 0),
		updatedAt: Date.UTC(2026, 10, 25, 9, 1),
		summary: buildLtmSummary(state),
	};
}
