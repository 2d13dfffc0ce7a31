import { describe, expect, it } from 'vitest';
import type { GenerateRequest, ModelCall } from '../../../src/core/model/generation';
import {
	findReplayAnswer,
	parseReplayFile,
	ReplayFileError,
	ReplayMissError,
} from '../../../src/core/model/replay-file';

const FILE = [
	'{"sample_id": "arith.dev.0", "role": "policy", "completion": "4"}',
	'',
	'{"sample_id": "arith.dev.0", "role": "grader", "completion": "Y"}',
	'{"sample_id": "arith.dev.0", "role": "grader", "completion": "N"}',
	'{"when": "capital of France", "completion": "Paris"}',
	'{"when": "capital", "completion": "somewhere"}',
].join('\n');

const chat = (content: string): GenerateRequest => ({
	prompt: { kind: 'chat', messages: [{ role: 'user', content }] },
	params: {},
});
const call = (sampleId: string, role: ModelCall['role'], callIndex?: number): ModelCall => ({
	runId: 'r',
	sampleId,
	role,
	...(callIndex !== undefined ? { callIndex } : {}),
});

describe('findReplayAnswer', () => {
	const file = parseReplayFile(FILE, 'answers.jsonl');
	it.each([
		['sample and role', chat('2+2?'), call('arith.dev.0', 'policy'), '4'],
		['first grader call', chat('grade'), call('arith.dev.0', 'grader'), 'Y'],
		['second grader call', chat('grade'), call('arith.dev.0', 'grader', 1), 'N'],
		['first matching when', chat('What is the capital of France?'), call('x', 'policy'), 'Paris'],
		['a later when', chat('The capital of Peru'), call('x', 'policy'), 'somewhere'],
		[
			'when in a text prompt',
			{ prompt: { kind: 'text', text: 'capital of France' }, params: {} } as GenerateRequest,
			call('x', 'grader'),
			'Paris',
		],
	])('%s', (_what, request, modelCall, completion) => {
		expect(findReplayAnswer(file, request, modelCall, 'answers.jsonl').completion).toBe(completion);
	});

	it('matches only the last message: an earlier question in the conversation answers nothing', () => {
		const conversation: GenerateRequest = {
			prompt: {
				kind: 'chat',
				messages: [
					{ role: 'user', content: 'What is the capital of France?' },
					{ role: 'assistant', content: 'Paris' },
					{ role: 'user', content: 'And the capital of Peru?' },
				],
			},
			params: {},
		};
		expect(findReplayAnswer(file, conversation, call('x', 'policy'), 'a.jsonl').completion).toBe(
			'somewhere',
		);
		const unrelated: GenerateRequest = {
			prompt: {
				kind: 'chat',
				messages: [
					{ role: 'user', content: 'What is the capital of France?' },
					{ role: 'user', content: 'Tell me a joke' },
				],
			},
			params: {},
		};
		expect(() => findReplayAnswer(file, unrelated, call('x', 'policy'), 'a.jsonl')).toThrow(
			/the message "Tell me a joke"/,
		);
	});

	it('"when": "" answers everything', () => {
		const all = parseReplayFile('{"when": "", "completion": "ok"}', 'all.jsonl');
		expect(
			findReplayAnswer(all, chat('anything'), call('s', 'policy'), 'all.jsonl').completion,
		).toBe('ok');
	});

	it('names the sample and the message when no line answers', () => {
		expect(() =>
			findReplayAnswer(file, chat('Tell me a joke'), call('jokes.0', 'policy'), 'answers.jsonl'),
		).toThrow(
			/answers\.jsonl answers neither sample 'jokes\.0' \(policy\) nor the message "Tell me a joke"/,
		);
		expect(() =>
			findReplayAnswer(file, chat('grade'), call('arith.dev.0', 'grader', 2), 'answers.jsonl'),
		).toThrow(ReplayMissError);
	});
});

describe('parseReplayFile', () => {
	it.each([
		['not JSON', '{"when": "a", "completion": "b"}\n{oops', 2, /answers\.jsonl:2: not valid JSON/],
		[
			'a number completion',
			'{"sample_id": "s", "completion": 3}',
			1,
			/answers\.jsonl:1: a line is/,
		],
		['an unknown key', '\n\n{"when": "a", "completion": "b", "extra": 1}', 3, /answers\.jsonl:3/],
		['neither form', '{"completion": "b"}', 1, /answers\.jsonl:1/],
	])('rejects %s with its line number', (_what, text, line, message) => {
		let error: unknown;
		try {
			parseReplayFile(text, 'answers.jsonl');
		} catch (e) {
			error = e;
		}
		expect(error).toBeInstanceOf(ReplayFileError);
		expect((error as ReplayFileError).line).toBe(line);
		expect((error as Error).message).toMatch(message);
	});
});
