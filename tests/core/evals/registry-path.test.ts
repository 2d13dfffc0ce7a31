import { describe, expect, it } from 'vitest';
import { registryPathOf } from '../../../src/core/evals';

describe('registryPathOf', () => {
	it.each([
		['reg/evals/capitals.yaml', 'a: 1', 'evals/capitals.yaml'],
		['my-registry/data/capitals/samples.jsonl', '{}', 'data/capitals/samples.jsonl'],
		['x/modelgraded/fact.yaml', 'fact: {}', 'modelgraded/fact.yaml'],
		['capitals.yaml', 'capitals: {id: capitals.dev.v0}', 'evals/capitals.yaml'],
		['grading.yaml', 'g:\n  choice_strings: AB\n', 'modelgraded/grading.yaml'],
		['samples.jsonl', '{}', 'data/samples.jsonl'],
		['evals', '{}', 'data/evals'],
		['reg\\evals\\a.yml', 'a: 1', 'evals/a.yml'],
		['./b.YML', 'b: 1', 'evals/b.YML'],
	])('%s → %s', (path, text, expected) => {
		expect(registryPathOf(path, text)).toBe(expected);
	});
});
