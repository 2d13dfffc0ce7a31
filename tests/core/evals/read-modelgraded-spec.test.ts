// Model-graded specs read from a registry (reference §1.1 fields, §1.6 choice rules): what is
// accepted, and errors that name the spec's file, line and field.
import { describe, expect, it } from 'vitest';
import { EvalsError } from '../../../src/core/evals/shared/errors';
import { parseModelGradedSpec } from '../../../src/core/evals/read-modelgraded-spec';
import type { JsonValue } from '../../../src/core/evals/shared/types';

const WHERE = { file: 'modelgraded/s.yaml', line: 3, name: 's' };
const BASE = { prompt: 'p {input}', choice_strings: 'YN', input_outputs: { input: 'completion' } };

describe('parseModelGradedSpec', () => {
	it('keeps the fields in upstream order; null reads as unset; other keys are ignored', () => {
		const spec = parseModelGradedSpec(
			{
				output_template: '{output}',
				choice_scores: { Y: 1, N: 0 },
				eval_type: 'cot_classify',
				...BASE,
				key: null,
				description: 'ignored',
			},
			WHERE,
		);
		expect(Object.keys(spec)).toEqual([
			'prompt',
			'choice_strings',
			'input_outputs',
			'eval_type',
			'choice_scores',
			'output_template',
		]);
		expect(parseModelGradedSpec({ ...BASE, eval_type: null, choice_scores: null }, WHERE)).toEqual(
			BASE,
		);
	});

	it('reads a chat prompt, choice lists, from_n and from_strings', () => {
		const spec = parseModelGradedSpec(
			{
				prompt: [{ role: 'user', content: '{input}', name: 'judge' }],
				choice_strings: 'from_n',
				choice_scores: 'from_strings',
				input_outputs: { input: 'completion' },
			},
			WHERE,
		);
		expect(spec.prompt).toEqual([{ role: 'user', content: '{input}', name: 'judge' }]);
		expect(spec.choice_strings).toBe('from_n');
		expect(spec.choice_scores).toBe('from_strings');
	});

	it.each<{ value: JsonValue; field: string; message: RegExp }>([
		{ value: [1], field: 'prompt', message: /the spec must be a mapping/u },
		{ value: { choice_strings: 'YN' }, field: 'prompt', message: /must be a string or a list/u },
		{
			value: { ...BASE, prompt: [{ role: 'user' }] },
			field: 'prompt',
			message: /list of \{role, content\}/u,
		},
		{
			value: { ...BASE, choice_strings: [true, false] },
			field: 'choice_strings',
			message: /quote Yes\/No/u,
		},
		{
			value: { ...BASE, choice_strings: ['Y.', 'N'] },
			field: 'choice_strings',
			message: /Y\. contains punctuation/u,
		},
		{
			value: { ...BASE, choice_strings: 'A,B' },
			field: 'choice_strings',
			message: /, contains punctuation/u,
		},
		{
			value: { ...BASE, input_outputs: ['completion'] },
			field: 'input_outputs',
			message: /must map input fields/u,
		},
		{ value: { ...BASE, eval_type: 3 }, field: 'eval_type', message: /must be a string/u },
		{
			value: { ...BASE, choice_scores: { Y: '1' } },
			field: 'choice_scores',
			message: /must map choices to numbers/u,
		},
		{
			value: { ...BASE, output_template: 4 },
			field: 'output_template',
			message: /must be a string/u,
		},
	])('$field: $message', ({ value, field, message }) => {
		let error: unknown;
		try {
			parseModelGradedSpec(value, WHERE);
		} catch (caught) {
			error = caught;
		}
		expect(error).toBeInstanceOf(EvalsError);
		expect((error as EvalsError).message).toMatch(
			new RegExp(`^modelgraded/s\\.yaml:3: modelgraded spec s\\.${field}: `, 'u'),
		);
		expect((error as EvalsError).message).toMatch(message);
		expect((error as EvalsError).location).toEqual({
			file: WHERE.file,
			line: 3,
			field: `s.${field}`,
		});
	});
});
