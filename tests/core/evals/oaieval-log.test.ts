// The oaieval JSONL log: written as Python's json.dumps writes it (separators, floats), read back
// (the final_report line as upstream writes it, and older Benchtop lines with run_id), with located
// errors.
import { describe, expect, it } from 'vitest';
import {
	buildRunSpec,
	commandLine,
	formatFinalReport,
	formatLogEvent,
	readOaievalLog,
	shlexQuote,
	writeOaievalLog,
} from '../../../src/core/evals/oaieval-log';
import { readRegistry, registryFiles, resolveEval } from '../../../src/core/evals/registry';
import { runEval } from '../../../src/core/evals/run-eval';
import { scriptedModel } from './scripted-model';

const evalSpec = resolveEval(
	readRegistry(
		registryFiles([
			[
				'evals/t.yaml',
				't.dev.v0:\n  class: evals.elsuite.basic.fuzzy_match:FuzzyMatch\n  args:\n    samples_jsonl: s.jsonl\n',
			],
			[
				'data/s.jsonl',
				'{"input": "Capital?", "ideal": "Paris"}\n{"input": "Sea?", "ideal": "the Baltic"}\n',
			],
		]),
	),
	't.dev.v0',
);

describe('oaieval log', () => {
	it('event lines use Python separators, floats under float keys, 1-element expected unwrapped', async () => {
		const model = scriptedModel('m', (request) =>
			request.prompt.kind === 'chat' && request.prompt.messages[0]?.content === 'Sea?'
				? 'Baltic Sea'
				: 'Paris',
		);
		const result = await runEval(evalSpec, {
			policy: [model],
			runId: 'r1',
			now: () => new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
		});
		const lines = result.events.map(formatLogEvent);
		expect(lines[1]).toBe(
			'{"run_id": "r1", "event_id": 1, "sample_id": "t.dev.1", "type": "match", "data": {"correct": true, "expected": "the Baltic", "picked": ["Baltic Sea"]}, "created_by": "", "created_at": "2026-01-02 03:04:05+00:00"}',
		);
		expect(lines[2]).toContain('"data": {"accuracy": 1.0, "f1_score": 0.6666666666666666}');

		const spec = buildRunSpec({
			completionFns: ['replay:a.jsonl'],
			evalSpec,
			runId: 'r1',
			createdAt: '2026-01-02 03:04:05+00:00',
			seed: 20220722,
			command: 'oaieval replay:a.jsonl t',
		});
		const text = writeOaievalLog({ spec, events: result.events, finalReport: result.finalReport });
		const textLines = text.trimEnd().split('\n');
		expect(textLines).toHaveLength(1 + result.events.length + 1);
		expect(
			textLines[0]?.startsWith(
				'{"spec": {"completion_fns": ["replay:a.jsonl"], "eval_name": "t.dev.v0", "base_eval": "t", "split": "dev", ',
			),
		).toBe(true);
		expect(textLines.at(-1)).toBe(
			'{"final_report": {"accuracy": 1.0, "f1_score": 0.8333333333333333}}',
		);

		const back = readOaievalLog(text, 'log.jsonl');
		expect(back.spec).toEqual(JSON.parse(JSON.stringify(spec)));
		expect(back.events).toEqual(JSON.parse(JSON.stringify(result.events)));
		expect(back.finalReport).toEqual(result.finalReport);
	});

	it('reads NaN in a final report (1-sample bootstrap) and upstream final lines without run_id', () => {
		const text =
			'{"spec": {"run_id": "x", "eval_name": "a.b"}}\n{"final_report": {"accuracy": 1.0, "boostrap_std": NaN}}\n';
		expect(readOaievalLog(text, 'l.jsonl').finalReport).toEqual({ accuracy: 1, boostrap_std: NaN });
		const older = '{"spec": {"run_id": "x"}}\n{"final_report": {"accuracy": 0.5}, "run_id": "x"}\n';
		expect(readOaievalLog(older, 'l.jsonl').finalReport).toEqual({ accuracy: 0.5 });
	});

	it.each([
		{
			text: '{"run_id": "x", "type": "match", "data": {}}\n',
			message: /^l\.jsonl:1: the first line of an oaieval log must be \{"spec"/u,
		},
		{ text: '{"spec": {}}\n{"oops": 1}\n', message: /^l\.jsonl:2: neither a spec, an event/u },
		{ text: '{"spec": {}}\nnot json\n', message: /^l\.jsonl:2: not valid JSON/u },
	])('located errors: $message', ({ text, message }) => {
		expect(() => readOaievalLog(text, 'l.jsonl')).toThrow(message);
	});

	it('formatFinalReport prints key: value lines', () => {
		expect(formatFinalReport({ accuracy: 0.5, 'counts/Y': 2 }, (_k, v) => String(v))).toBe(
			'Final report:\naccuracy: 0.5\ncounts/Y: 2\n',
		);
	});
});

describe('oaieval log lines are checked by their schemas', () => {
	const SPEC = '{"spec": {"run_id": "x", "eval_name": "a.b"}}';

	it('a spec line missing fields reads them as empty (so a partial log still shows)', () => {
		const log = readOaievalLog(`${SPEC}\n`, 'l.jsonl');
		expect(log.spec).toEqual({
			completion_fns: [],
			eval_name: 'a.b',
			base_eval: '',
			split: '',
			run_config: {},
			created_by: '',
			run_id: 'x',
			created_at: '',
		});
	});

	it.each([
		{
			name: 'an event without sample_id',
			text: `${SPEC}\n{"type": "match", "data": {}}\n`,
			message: 'l.jsonl:2: /sample_id: required (an event needs sample_id, type and data)',
			field: '/sample_id',
		},
		{
			name: 'an event whose data is not an object',
			text: `${SPEC}\n{"sample_id": "a.b.0", "type": "sampling", "data": null}\n`,
			message: 'l.jsonl:2: /data: must be a JSON object',
			field: '/data',
		},
		{
			name: 'a report value that is not a number',
			text: `${SPEC}\n{"final_report": {"accuracy": "high"}}\n`,
			message: 'l.jsonl:2: final_report/accuracy: must be a number',
			field: 'final_report/accuracy',
		},
		{
			name: 'a spec whose completion_fns are not strings',
			text: '{"spec": {"completion_fns": [1]}}\n',
			message: 'l.jsonl:1: spec/completion_fns/0: must be a string',
			field: 'spec/completion_fns/0',
		},
		{
			name: 'an event before the spec',
			text: `{"sample_id": "a.b.0", "type": "match", "data": {}}\n${SPEC}\n`,
			message: 'l.jsonl:1: the first line of an oaieval log must be {"spec": ...}',
			field: undefined,
		},
	])('$name is an error at its line and field', ({ text, message, field }) => {
		let error: unknown;
		try {
			readOaievalLog(text, 'l.jsonl');
		} catch (caught) {
			error = caught;
		}
		expect((error as Error).message).toBe(message);
		expect((error as { location?: { field?: string } }).location?.field).toBe(field);
	});
});

describe('shlexQuote (Python shlex.quote)', () => {
	it.each([
		['', "''"],
		['capitals', 'capitals'],
		['replay:/tmp/a-b_c.jsonl', 'replay:/tmp/a-b_c.jsonl'],
		['--max_samples=5,x@y%z+', '--max_samples=5,x@y%z+'],
		['a b', "'a b'"],
		["it's", `'it'"'"'s'`],
		['a*b', "'a*b'"],
		['é', "'é'"],
	])('%j → %s', (word, quoted) => {
		expect(shlexQuote(word)).toBe(quoted);
	});

	it('commandLine joins the quoted words with spaces', () => {
		expect(commandLine(['oaieval', 'gpt-4o', 'my eval'])).toBe("oaieval gpt-4o 'my eval'");
	});
});
