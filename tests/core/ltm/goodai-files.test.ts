// GoodAI's file and line forms (issue 20 item 3): Python json.dump text (floats, ASCII escapes,
// indent=2), str(timedelta), str(datetime) with microseconds, master_log.jsonl events and
// runstats.json, from a real run of the scheduler. Expected texts are what CPython 3 prints.
import { describe, expect, it } from 'vitest';
import { runLtm, type LtmBenchmark, type LtmTestDefinition } from '../../../src/core/ltm';
import {
	asciiJsonText,
	goodaiMasterLogLines,
	goodaiRunstatsText,
	goodaiTestResultText,
	pythonJsonText,
} from '../../../src/core/ltm/goodai-files';
import {
	GOODAI_EVENT,
	isoToEpochMicros,
	isoWithMicros,
	pythonDatetimeText,
	pythonTimedeltaText,
	pythonTimestamp,
	waitText,
} from '../../../src/core/ltm/goodai-log';
import { buildLtmReport } from '../../../src/core/ltm/report';
import type {
	GenerateRequest,
	GenerationEvent,
	TextModel,
} from '../../../src/core/model/generation';

/** GoodAI reporting/generate.py's `formatted_log` pattern (asserted on every task_log line). */
const UPSTREAM_TASK_LOG = /^((Test|Agent) (\(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\))?:)/;

describe('Python JSON text', () => {
	it('writes json.dump(..., indent=2) with float scores and \\u escapes (DEL and astral included)', () => {
		const value = {
			task_log: ['Test (x): café ☕ 😀 \u007f'],
			score: 1,
			max_score: 1,
			e: [],
			d: {},
			n: [[1, 2], { a: 0.5 }],
		};
		expect(pythonJsonText(value, new Set(['score']), 2)).toBe(
			[
				'{',
				'  "task_log": [',
				'    "Test (x): caf\\u00e9 \\u2615 \\ud83d\\ude00 \\u007f"',
				'  ],',
				'  "score": 1.0,',
				'  "max_score": 1,',
				'  "e": [],',
				'  "d": {},',
				'  "n": [',
				'    [',
				'      1,',
				'      2',
				'    ],',
				'    {',
				'      "a": 0.5',
				'    }',
				'  ]',
				'}',
			].join('\n'),
		);
	});

	it('writes one-line json.dumps with Python float reprs', () => {
		expect(
			pythonJsonText(
				{ small: 1e-5, big: 1e16, sum: 0.1 + 0.2, zero: 0 },
				new Set(['small', 'big', 'sum', 'zero']),
			),
		).toBe('{"small": 1e-05, "big": 1e+16, "sum": 0.30000000000000004, "zero": 0.0}');
		expect(asciiJsonText('"naïve"')).toBe('"na\\u00efve"');
	});
});

describe('Python time forms', () => {
	it.each([
		[1800, '0:30:00'],
		[86405, '1 day, 0:00:05'],
		[1.5, '0:00:01.500000'],
		[172800, '2 days, 0:00:00'],
		[59, '0:00:59'],
	])('str(timedelta(seconds=%s)) is %s', (seconds, text) => {
		expect(pythonTimedeltaText(seconds)).toBe(text);
	});

	it('str(datetime) and timestamp() keep the microseconds; a zero fraction is left out', () => {
		const micros = isoToEpochMicros('2026-01-02T03:04:05.678901Z');
		expect(pythonDatetimeText(micros)).toBe('2026-01-02 03:04:05.678901');
		expect(pythonTimestamp(micros)).toBe('1767323045.678901');
		expect(pythonDatetimeText(isoToEpochMicros('2026-01-02T03:04:05Z'))).toBe(
			'2026-01-02 03:04:05',
		);
	});

	it('isoWithMicros keeps the sub-millisecond digits of a precise clock reading', () => {
		expect(isoWithMicros(Date.UTC(2026, 0, 2, 3, 4, 5, 678) + 0.901)).toBe(
			'2026-01-02T03:04:05.678901Z',
		);
		expect(isoToEpochMicros(isoWithMicros(1767323045678.901))).toBe(1767323045678901);
	});

	it("words waits as upstream's WAIT line", () => {
		expect(waitText('Jokes - 0', 120, 1800)).toBe(
			"Test 'Jokes - 0' WAITING for 120 TOKENS, 0:30:00 TIME.",
		);
		expect(waitText('Colours - 0', 0, 0)).toBe("Test 'Colours - 0' WAITING for .");
	});
});

function test(datasetName: string, script: string[], isQuestion: boolean[]): LtmTestDefinition {
	return {
		uniqueId: `${datasetName} - 0`,
		datasetName,
		exampleId: '0',
		description: '',
		script,
		isQuestion,
		waits: script.map((_, index) => (index < script.length - 1 ? { percentage_finished: 50 } : {})),
		expectedResponses: ['teal'],
		evaluator: 'colours',
		usesCallback: false,
		isTemporal: false,
		resetMessage: '',
	} as unknown as LtmTestDefinition;
}

/** Answers everything with a non-ASCII reply, and the colour question right. */
function agent(): TextModel {
	return {
		label: 'test:agent',
		abilities: { score: false, generate: true, chat: true },
		async *generate(request: GenerateRequest): AsyncGenerator<GenerationEvent> {
			if (request.prompt.kind !== 'chat') throw new Error('chat expected');
			const last = request.prompt.messages.at(-1)!.content;
			const completion = last.includes('?') ? 'Teal — sûr.' : 'Noté ☕.';
			yield { type: 'done', completion, finishReason: 'stop' };
		},
		countTokens: (text) => text.split(/\s+/).length,
	};
}

async function smallRun() {
	const benchmark: LtmBenchmark = {
		config: { runName: 'Tiny', memorySpan: 60, isolated: false },
		tests: [
			test(
				'Colours',
				['My favourite colour is teal.', 'What is my favourite colour?'],
				[false, true],
			),
		],
	} as unknown as LtmBenchmark;
	let clock = 0;
	return runLtm(benchmark, {
		agent: agent(),
		environment: { countTokens: (text) => text.split(/\s+/).length },
		startTime: '2026-01-02T03:04:05.678901Z',
		now: () => (clock += 7),
	});
}

describe('files of a run', () => {
	it('result text: task_log lines as upstream asserts them, float score, ASCII only', async () => {
		const state = await smallRun();
		const [result] = buildLtmReport(state).tests;
		const text = goodaiTestResultText(result!.result);
		expect(text).toMatch(/^[\x20-\x7e\n]*$/);
		expect(text).toMatch(/\n {2}"score": 1\.0,\n {2}"max_score": 1,\n/);
		const parsed = JSON.parse(text) as { task_log: string[]; full_log: string[] };
		expect(parsed.task_log.length).toBe(4);
		for (const line of parsed.task_log) expect(line).toMatch(UPSTREAM_TASK_LOG);
		expect(parsed.task_log[1]).toBe('Agent (2026-01-02 03:04:05.678901): Noté ☕.');
		// full_log: upstream's senders and system wording, up to (not with) the test's ENDS.
		expect(parsed.full_log[0]).toMatch(/^Test \(.+\): My favourite colour is teal\.$/);
		expect(
			parsed.full_log.some((line) =>
				/^SYSTEM \(.+\): Test 'Colours - 0' WAITING for \d+ TOKENS\.$/.test(line),
			),
		).toBe(true);
		expect(parsed.full_log.some((line) => /^System \(.+\): /.test(line))).toBe(true);
		expect(parsed.full_log.some((line) => line.includes('ENDS'))).toBe(false);
	});

	it('master_log.jsonl: one json.dumps event per upstream event, timestamps with microseconds', async () => {
		const state = await smallRun();
		const lines = goodaiMasterLogLines(state.startTime, state.log).trimEnd().split('\n');
		const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
		for (const [index, line] of lines.entries()) {
			expect(line).toMatch(
				/^\{"type": \d, "timestamp": \d+\.\d+, "test_id": "[^"]*", "data": \{.*\}\}$/,
			);
			expect(Object.keys(events[index]!)).toEqual(['type', 'timestamp', 'test_id', 'data']);
		}
		expect(lines[0]).toMatch(
			/^\{"type": 3, "timestamp": 1767323045\.678901, "test_id": "", "data": \{"message": ".+", "is_question": false\}\}$/,
		);
		const types = events.map((event) => event.type);
		expect(types.filter((type) => type === GOODAI_EVENT.BEGIN)).toHaveLength(1);
		expect(types.filter((type) => type === GOODAI_EVENT.END)).toHaveLength(1);
		expect(types.filter((type) => type === GOODAI_EVENT.SEND_MESSAGE)).toHaveLength(2);
		const wait = events.find((event) => event.type === GOODAI_EVENT.WAIT)!;
		expect(wait.data).toEqual({ tokens: expect.any(Number), time: 0, percentage_finished: 0 });
		expect(lines.find((line) => line.includes('"type": 6'))).toMatch(
			/"percentage_finished": 0\.0\}\}$/,
		);
		expect(lines.some((line) => line.includes('\\u2615'))).toBe(true);
	});

	it('runstats.json: the fields generate.py reads, Python floats for costs and duration', async () => {
		const state = await smallRun();
		const text = goodaiRunstatsText(state);
		expect(text).toMatch(
			/^\{"total_tokens": \d+, "agent_tokens": \d+, "agent_costs_usd": 0\.0, "managing_costs_usd": 0\.0, "duration": \d+\.\d+\}$/,
		);
		const stats = JSON.parse(text) as {
			agent_tokens: number;
			duration: number;
			total_tokens: number;
		};
		expect(stats.agent_tokens).toBe(state.agentTokens);
		expect(stats.total_tokens).toBe(state.totalTokens);
		// Every generated reply took 7 ms of the injected clock.
		expect(stats.duration).toBeGreaterThan(0);
	});
});
