// What a new Memory run stores: the given files' hashes, the agent's parameters and context
// limits (a local agent's, else the user's), the specs, replay texts, span and isolation as
// loaded; and a re-run of a shared run with everything as shared.
import { describe, expect, it } from 'vitest';
import { defaultWaits } from '../../../src/core/ltm/definitions';
import {
	buildLtmRunDraft,
	definitionsFileHashes,
	ltmAgentParams,
	ltmContextLimits,
	ltmRunDraftOfShare,
	type LtmRunSetup,
} from '../../../src/core/ltm/ltm-run-draft';
import { ltmScoresFingerprint, type LtmSharePayload } from '../../../src/core/ltm/share-payload';
import type { LtmBenchmark } from '../../../src/core/ltm/shared/types';
import type { TextModelSpec } from '../../../src/core/model/model-spec';

const SHA_ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
const SHA_EMPTY = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

const BENCHMARK: LtmBenchmark = {
	config: { runName: 'Colours run', memorySpan: 300, incompatibilities: [], isolated: true },
	tests: [
		{
			uniqueId: 'Colours - 0',
			datasetName: 'Colours',
			exampleId: '0',
			configName: 'colours',
			evaluator: 'colours',
			description: '',
			resetMessage: '',
			script: ['My favourite colour is red.', 'What is my favourite colour?'],
			isQuestion: [false, true],
			waits: defaultWaits(2),
			expectedResponses: ['red'],
			isTemporal: false,
			usesCallback: false,
			canBeInterleaved: true,
			source: 'test',
		},
	],
};

const BUNDLED: TextModelSpec = {
	source: 'bundled',
	id: 'gpt2-en-small',
	dtype: 'fp32',
	backend: 'wasm',
};
const ENDPOINT: TextModelSpec = {
	source: 'openai',
	model: 'm',
	baseUrl: 'http://127.0.0.1:8000/v1',
};
const JUDGE: TextModelSpec = { source: 'replay', file: 'judge.jsonl', sha256: 'ab'.repeat(32) };
const LIMITS = { maxNewTokens: 32, maxContextTokens: 380, maxMessageTokens: 150 };

function setup(overrides: Partial<LtmRunSetup> = {}): LtmRunSetup {
	return {
		benchmark: BENCHMARK,
		files: { 'x.ltm-suite.json': SHA_ABC },
		agent: ENDPOINT,
		judge: null,
		replayTexts: {},
		localLimits: null,
		maxNewTokens: null,
		contextTokens: null,
		createdAt: 1_700_000_000_000,
		...overrides,
	};
}

describe('definitionsFileHashes', () => {
	it('hashes each text by its path, and a zip by its name', () => {
		const texts = new Map([
			['Colours/0.def.json', 'abc'],
			['config.yml', ''],
		]);
		expect(definitionsFileHashes({ kind: 'texts', files: texts })).toEqual({
			'Colours/0.def.json': SHA_ABC,
			'config.yml': SHA_EMPTY,
		});
		const bytes = new Uint8Array([0x61, 0x62, 0x63]);
		expect(definitionsFileHashes({ kind: 'zip', name: 'defs.zip', bytes })).toEqual({
			'defs.zip': SHA_ABC,
		});
		expect(definitionsFileHashes({ kind: 'texts', files: new Map() })).toEqual({});
	});
});

describe('agent parameters and context limits', () => {
	it.each([
		// local limits, user's max new tokens → parameters
		[LIMITS, null, { temperature: 0, max_tokens: 32 }],
		[LIMITS, 200, { temperature: 0, max_tokens: 32 }],
		[null, 64, { max_tokens: 64 }],
		[null, null, {}],
	])('local %o, max new %s → %o', (limits, maxNewTokens, expected) => {
		expect(ltmAgentParams(limits, maxNewTokens)).toEqual(expected);
	});

	it.each([
		// local limits, user's context tokens → history kept and largest message
		[LIMITS, 1000, { maxContextTokens: 380, maxMessageTokens: 150 }],
		[null, 101, { maxContextTokens: 101, maxMessageTokens: 50 }],
		[null, null, {}],
	])('local %o, context %s → %o', (limits, contextTokens, expected) => {
		expect(ltmContextLimits(limits, contextTokens)).toEqual(expected);
	});
});

describe('buildLtmRunDraft', () => {
	it('stores a local agent greedy within its limits, with span and isolation as loaded', () => {
		const draft = buildLtmRunDraft(
			setup({ agent: BUNDLED, localLimits: LIMITS, maxNewTokens: 500, contextTokens: 64 }),
		);
		expect(draft).toEqual({
			runName: 'Colours run',
			definitions: { files: { 'x.ltm-suite.json': SHA_ABC }, benchmark: BENCHMARK },
			models: { agent: BUNDLED },
			agentParams: { temperature: 0, max_tokens: 32 },
			maxContextTokens: 380,
			maxMessageTokens: 150,
			replayTexts: {},
			memorySpan: 300,
			isolated: true,
			createdAt: 1_700_000_000_000,
		});
	});

	it('stores an endpoint agent with the user settings, and the judge with its replay text', () => {
		const replayTexts = { ['ab'.repeat(32)]: 'judge lines' };
		const draft = buildLtmRunDraft(
			setup({ judge: JUDGE, replayTexts, maxNewTokens: 48, contextTokens: 200 }),
		);
		expect(draft.models).toEqual({ agent: ENDPOINT, judge: JUDGE });
		expect(draft.agentParams).toEqual({ max_tokens: 48 });
		expect(draft.maxContextTokens).toBe(200);
		expect(draft.maxMessageTokens).toBe(100);
		expect(draft.replayTexts).toEqual(replayTexts);
	});

	it('leaves the limits out when the whole conversation is kept', () => {
		const draft = buildLtmRunDraft(setup());
		expect('maxContextTokens' in draft).toBe(false);
		expect('maxMessageTokens' in draft).toBe(false);
		expect('judge' in draft.models).toBe(false);
		expect(draft.agentParams).toEqual({});
	});

	it('leaves its input as it was', () => {
		const given = setup({ agent: BUNDLED, judge: JUDGE, localLimits: LIMITS });
		const before = JSON.stringify(given);
		const draft = buildLtmRunDraft(given);
		expect(JSON.stringify(given)).toBe(before);
		expect(draft.definitions.benchmark).toBe(BENCHMARK);
	});
});

describe('ltmRunDraftOfShare', () => {
	const scores = { 'Colours - 0': 1 };
	const shared: LtmSharePayload = {
		v: 1,
		runName: 'shared run',
		benchmark: BENCHMARK,
		models: { agent: ENDPOINT, judge: JUDGE },
		agentParams: { max_tokens: 16 },
		maxContextTokens: 120,
		maxMessageTokens: 60,
		replayTexts: { ['ab'.repeat(32)]: 'judge lines' },
		memorySpan: 250,
		isolated: false,
		scores,
		fingerprint: ltmScoresFingerprint(scores),
	};

	it('re-runs the shared definitions, models and settings (no files of its own)', () => {
		expect(ltmRunDraftOfShare(shared, 42)).toEqual({
			runName: 'shared run',
			definitions: { files: {}, benchmark: BENCHMARK },
			models: { agent: ENDPOINT, judge: JUDGE },
			agentParams: { max_tokens: 16 },
			maxContextTokens: 120,
			maxMessageTokens: 60,
			replayTexts: { ['ab'.repeat(32)]: 'judge lines' },
			memorySpan: 250,
			isolated: false,
			createdAt: 42,
		});
	});

	it('leaves out limits the share does not have', () => {
		const { maxContextTokens: _context, maxMessageTokens: _message, ...bare } = shared;
		const draft = ltmRunDraftOfShare(bare, 42);
		expect('maxContextTokens' in draft).toBe(false);
		expect('maxMessageTokens' in draft).toBe(false);
	});
});
