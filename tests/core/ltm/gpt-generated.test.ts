// GPT-generated tests frozen to .def.json: prompt file checks, retries until JSON parses, layout.
import { describe, expect, it } from 'vitest';
import { loadLtmDefinitions } from '../../../src/core/ltm/definitions';
import {
	definitionFromGenerated,
	generateDefinition,
	readGenerationPrompt,
} from '../../../src/core/ltm/gpt-generated';

const PROMPT = {
	content: 'Invent three facts about a made-up island.',
	question: 'Ask one question per fact.',
	answer: 'Answer each question.',
};

describe('readGenerationPrompt', () => {
	it('reads {content, question, answer}', () => {
		expect(readGenerationPrompt('p.json', JSON.stringify(PROMPT))).toEqual(PROMPT);
	});
	const bad: [string, RegExp][] = [
		['{', /p\.json: not valid JSON/],
		[JSON.stringify({ content: 'x', question: 'y' }), /p\.json#\/answer: /],
		[JSON.stringify({ ...PROMPT, extra: 1 }), /p\.json#\/extra: /],
	];
	it.each(bad)('%s is a located error', (text, message) => {
		expect(() => readGenerationPrompt('p.json', text)).toThrow(message);
	});
});

describe('generateDefinition', () => {
	it('retries until the reply parses, then writes line 0 = content, one line per question', async () => {
		const replies = [
			'Sure! Here are some facts.',
			'```json\n{"content": ["Isla has red sand.", "Isla has two moons."], "question": ["What colour is the sand?", "How many moons?"], "answer": ["red", "two"]}\n```',
		];
		let calls = 0;
		const definition = await generateDefinition(PROMPT, async (messages, params) => {
			expect(messages[0]!.role).toBe('system');
			expect(messages[1]!.content).toContain(PROMPT.content);
			expect(params.temperature).toBe(1);
			return replies[calls++]!;
		});
		expect(calls).toBe(2);
		expect(definition).toMatchObject({
			script: [
				'Isla has red sand.\nIsla has two moons.',
				'What colour is the sand?',
				'How many moons?',
			],
			is_question: [false, true, true],
			waits: [],
			expected_responses: ['red', 'two'],
		});
		const loaded = loadLtmDefinitions({ 'Delayed Recall/0.def.json': JSON.stringify(definition) });
		expect(loaded.ok && loaded.benchmark.tests[0]!.waits).toEqual([
			{ percentage_finished: 45 },
			{ percentage_finished: 90 },
			{},
		]);
	});

	it('gives up after the attempts with the last reply named', async () => {
		await expect(generateDefinition(PROMPT, async () => 'no json', 3)).rejects.toThrow(
			/no usable JSON in 3 attempts.*"no json"/,
		);
	});

	it('questions and answers must pair up', () => {
		expect(
			definitionFromGenerated({ content: ['a'], question: ['q1', 'q2'], answer: ['x'] }),
		).toBeUndefined();
	});
});
