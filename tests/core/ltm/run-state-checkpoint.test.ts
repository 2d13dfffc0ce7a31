// A state saved in parts (checkpoint, JSON Lines log, tests) reads back to the same state; a whole
// state of an earlier release still reads; damaged or hostile files are refused, located.
import { describe, expect, it } from 'vitest';
import { defaultWaits } from '../../../src/core/ltm/definitions';
import { runLtm } from '../../../src/core/ltm/run-ltm';
import {
	LtmStateReadError,
	checkpointOf,
	ltmLogLines,
	readSavedLtmLog,
	readSavedLtmState,
	readSavedLtmTests,
	stateFromCheckpoint,
} from '../../../src/core/ltm/run-state-checkpoint';
import type { LtmRunState } from '../../../src/core/ltm/scheduler';
import type { LtmBenchmark, LtmTestDefinition } from '../../../src/core/ltm/shared/types';
import type { GenerationEvent, TextModel } from '../../../src/core/model/generation';

const words = (text: string): number => text.split(/\s+/).filter((word) => word !== '').length;

function definition(datasetName: string, script: string[], expected: string): LtmTestDefinition {
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
		expectedResponses: [expected],
		isTemporal: false,
		usesCallback: false,
		canBeInterleaved: true,
		source: 'test',
	};
}

const BENCHMARK: LtmBenchmark = {
	config: { runName: 't', memorySpan: 60, incompatibilities: [], isolated: false },
	tests: [
		definition(
			'Colours',
			['My favourite colour is green.', 'What is my favourite colour?'],
			'green',
		),
		definition('Shades', ['My favourite shade is teal.', 'What is my favourite shade?'], 'teal'),
	],
};

const agent: TextModel = {
	label: 'test:agent',
	abilities: { score: false, generate: true, chat: true },
	async *generate(): AsyncGenerator<GenerationEvent> {
		yield { type: 'done', completion: 'green', finishReason: 'stop' };
	},
	countTokens: words,
};

async function finishedRun(): Promise<LtmRunState> {
	return runLtm(BENCHMARK, { agent, environment: { countTokens: words }, now: () => 0 });
}

/** The state saved as the CLI saves it and read back. */
function roundTrip(state: LtmRunState, extraLog = ''): LtmRunState {
	const saved = readSavedLtmState(JSON.stringify(checkpointOf(state)));
	if (saved.kind !== 'checkpoint') throw new Error('expected a checkpoint');
	const tests = readSavedLtmTests(JSON.stringify(state.tests));
	const log = readSavedLtmLog(ltmLogLines(state.log) + extraLog, saved.checkpoint.logLength);
	return stateFromCheckpoint(saved.checkpoint, tests, log);
}

describe('a state saved in parts', () => {
	it('reads back to the same state', async () => {
		const state = await finishedRun();
		expect(state.log.length).toBeGreaterThan(10);
		expect(roundTrip(state)).toStrictEqual(JSON.parse(JSON.stringify(state)));
	});

	it('the checkpoint holds neither log nor tests, and counts the log', async () => {
		const state = await finishedRun();
		const checkpoint = checkpointOf(state);
		expect(checkpoint).not.toHaveProperty('log');
		expect(checkpoint).not.toHaveProperty('tests');
		expect(checkpoint.logLength).toBe(state.log.length);
		expect(JSON.stringify(checkpoint).length).toBeLessThan(JSON.stringify(state).length / 2);
	});

	it('drops log lines past the checkpoint, even a line cut short', async () => {
		const state = await finishedRun();
		const extra = `${JSON.stringify(state.log[0])}\n{"role": "ag`;
		expect(roundTrip(state, extra)).toStrictEqual(JSON.parse(JSON.stringify(state)));
	});

	it('one entry a line, each ending with a newline', () => {
		const entry = {
			role: 'user',
			testId: '',
			text: 'a\nb',
			tokens: 2,
			clockS: 0,
			kind: 'intro',
		} as const;
		expect(ltmLogLines([entry, entry])).toBe(`${JSON.stringify(entry)}\n`.repeat(2));
		expect(ltmLogLines([])).toBe('');
	});

	it('reads a whole state of the earlier release (log and tests inside)', async () => {
		const state = await finishedRun();
		const saved = readSavedLtmState(JSON.stringify(state));
		expect(saved).toStrictEqual({ kind: 'whole', state: JSON.parse(JSON.stringify(state)) });
	});
});

describe('damaged or hostile saved files', () => {
	it('a log shorter than the checkpoint says', async () => {
		const state = await finishedRun();
		const lines = ltmLogLines(state.log.slice(0, 3));
		expect(() => readSavedLtmLog(lines, 5)).toThrow(
			/has 3 whole lines, but the saved state needs 5/,
		);
		expect(() =>
			stateFromCheckpoint(checkpointOf(state), state.tests, state.log.slice(0, 3)),
		).toThrow(LtmStateReadError);
	});

	it.each([
		['not JSON', '{"role"\n', /log line 1: not JSON/],
		[
			'an unknown role',
			'{"role":"root","testId":"","text":"","tokens":0,"clockS":0,"kind":"intro"}\n',
			/log line 1, at \/role/,
		],
		[
			'a key too many',
			'{"role":"user","testId":"","text":"","tokens":0,"clockS":0,"kind":"intro","x":1}\n',
			/log line 1/,
		],
		[
			'tokens as text',
			'{"role":"user","testId":"","text":"","tokens":"2","clockS":0,"kind":"intro"}\n',
			/log line 1, at \/tokens/,
		],
	])('a log line that is %s', (_name, text, message) => {
		expect(() => readSavedLtmLog(text, 1)).toThrow(LtmStateReadError);
		expect(() => readSavedLtmLog(text, 1)).toThrow(message);
	});

	it.each([
		['not JSON', '{', /the saved state: not JSON/],
		['null', 'null', /the saved state, at \/format/],
		['another format', '{"format":"ltm-run-state/9"}', /the saved state, at \/format/],
		['a negative log length', 'CHECKPOINT:logLength=-1', /\/logLength/],
		['a whole state without its log', 'WHOLE:log=', /\/log/],
		['progress of another shape', 'CHECKPOINT:progress="none"', /\/progress/],
	])('a state file that is %s', async (_name, text, message) => {
		const state = await finishedRun();
		let input = text;
		const [, kind, key, value] = /^(CHECKPOINT|WHOLE):(\w+)=(.*)$/.exec(text) ?? [];
		if (kind !== undefined) {
			const base: Record<string, unknown> =
				kind === 'WHOLE' ? JSON.parse(JSON.stringify(state)) : { ...checkpointOf(state) };
			if (value === '') delete base[key!];
			else base[key!] = JSON.parse(value!);
			input = JSON.stringify(base);
		}
		expect(() => readSavedLtmState(input)).toThrow(LtmStateReadError);
		expect(() => readSavedLtmState(input)).toThrow(message);
	});

	it('tests of another shape', () => {
		expect(() => readSavedLtmTests('[{"uniqueId": 3}]')).toThrow(
			/the saved tests, at \/0\/uniqueId/,
		);
		expect(() => readSavedLtmTests('{}')).toThrow(LtmStateReadError);
	});
});
