/**
 * Grader prompts built by Benchtop from upstream's model-graded specs and answer prompts (read
 * from ../shared/peer/evals, never copied here) must be byte-identical to upstream's. Two checks
 * per case: the SHA-256 and length of the prompt that Python's str.format builds the upstream way
 * (tests/fixtures/evals/make-modelgraded-parity.py), and a string built in this test by plain
 * placeholder substitution from the peer files. Skipped when the peer folder is absent (fails
 * under CI).
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { parseAnswerPrompts } from '../../src/core/evals/answer-prompts';
import { readRegistry, registryFiles, resolveEval } from '../../src/core/evals/registry';
import { runEval } from '../../src/core/evals/run-eval';
import type { AnswerPromptType, JsonValue } from '../../src/core/evals/shared/types';
import { encodeUtf8, sha256Hex } from '../../src/core/hash/sha256';
import { promptText, scriptedModel } from '../core/evals/scripted-model';
import { describeWithPeer, peerPath } from './peer-data';

interface ParityCase {
	readonly name: string;
	readonly spec: 'fact' | 'closedqa' | 'battle';
	readonly registry_eval_type: AnswerPromptType | null;
	readonly spec_args: Record<string, string>;
	readonly policy_completion?: string;
	readonly sample: Record<string, JsonValue>;
}

const FIXTURES = new URL('../fixtures/evals/', import.meta.url);
const { cases } = JSON.parse(
	readFileSync(new URL('modelgraded-parity-cases.json', FIXTURES), 'utf8'),
) as {
	cases: ParityCase[];
};
const expected = JSON.parse(
	readFileSync(new URL('expected-modelgraded-prompts.json', FIXTURES), 'utf8'),
) as Record<string, { sha256: string; bytes: number }>;

const PEER_FILES = [
	'evals/answer-prompts.json',
	'evals/modelgraded/fact.yaml',
	'evals/modelgraded/closedqa.yaml',
	'evals/modelgraded/battle.yaml',
];

/** Plain substitution, independent of the code under test: `{{`/`}}` → braces, `{key}` → value. */
function substitute(template: string, values: Record<string, string>): string {
	return template.replace(/\{\{|\}\}|\{(\w+)\}/gu, (whole, key: string | undefined) => {
		if (whole === '{{') return '{';
		if (whole === '}}') return '}';
		const value = values[key ?? ''];
		if (value === undefined) throw new Error(`no value for ${whole}`);
		return value;
	});
}

/** A sample value as upstream prints it into the grader prompt; input fields have braces doubled. */
function asText(value: JsonValue, isInput: boolean): string {
	const scrub = (text: string): string =>
		isInput ? text.replace(/\{/gu, '{{').replace(/\}/gu, '}}') : text;
	if (typeof value === 'string') return scrub(value);
	if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
		return `[${value.map((item) => `'${String(item)}'`).join(', ')}]`;
	}
	const messages = value as { role: string; content: string }[];
	const prefix: Record<string, string> = { system: '', user: 'User: ', assistant: 'Assistant: ' };
	return messages.map((m) => `${prefix[m.role] ?? ''}${scrub(m.content)}\n`).join('');
}

describeWithPeer('model-graded grader prompts match upstream byte for byte', PEER_FILES, () => {
	const answerPromptsText = readFileSync(peerPath('evals/answer-prompts.json'), 'utf8');
	const answerPrompts = parseAnswerPrompts(answerPromptsText, 'answer-prompts.json');
	const specText = (name: string): string =>
		readFileSync(peerPath(`evals/modelgraded/${name}.yaml`), 'utf8');
	let bytesCompared = 0;

	it.each(cases)('$name', async (parityCase) => {
		const evalType = parityCase.registry_eval_type
			? `    eval_type: ${parityCase.registry_eval_type}\n`
			: '';
		const specArgs = Object.entries(parityCase.spec_args)
			.map(([key, value]) => `      ${key}: ${JSON.stringify(value)}\n`)
			.join('');
		const yaml = `p.parity.v0:\n  class: evals.elsuite.modelgraded.classify:ModelBasedClassify\n  args:\n    samples_jsonl: s.jsonl\n    modelgraded_spec: ${parityCase.spec}\n${evalType}${specArgs ? `    modelgraded_spec_args:\n${specArgs}` : ''}`;
		const files = registryFiles([
			['evals/p.yaml', yaml],
			['data/s.jsonl', `${JSON.stringify(parityCase.sample)}\n`],
			[`modelgraded/${parityCase.spec}.yaml`, specText(parityCase.spec)],
		]);
		const evalSpec = resolveEval(readRegistry(files), 'p.parity.v0');
		expect(evalSpec.modelGraded?.specFile).toBe(`modelgraded/${parityCase.spec}.yaml`);
		const policy = scriptedModel('policy', () => parityCase.policy_completion ?? 'unused');
		const grader = scriptedModel('grader', () => 'Y');
		await runEval(evalSpec, { policy: [policy], grader, answerPrompts });

		const prompt = grader.calls[0]?.request.prompt;
		if (prompt?.kind !== 'chat') throw new Error('the grader got no chat prompt');
		expect(prompt.messages).toHaveLength(1);
		expect(prompt.messages[0]?.role).toBe('user');
		const ours = promptText(grader.calls[0]?.request ?? { prompt, params: {} });

		const want = expected[parityCase.name];
		expect(
			want,
			`expected-modelgraded-prompts.json has no entry for ${parityCase.name}`,
		).toBeDefined();
		expect({ sha256: sha256Hex(ours), bytes: encodeUtf8(ours).length }).toEqual(want);

		const peerSpec = (
			parseYaml(specText(parityCase.spec), { version: '1.1' }) as Record<
				string,
				{ prompt: string; choice_strings: string | string[]; input_outputs: Record<string, string> }
			>
		)[parityCase.spec];
		if (!peerSpec) throw new Error(`no ${parityCase.spec} entry in the peer spec`);
		let template = peerSpec.prompt;
		if (parityCase.registry_eval_type) {
			const choices = Array.from(peerSpec.choice_strings)
				.map((choice) => `"${choice}"`)
				.join(' or ');
			template += `\n\n${JSON.parse(answerPromptsText)[parityCase.registry_eval_type].replace('{choices}', choices)}`;
		}
		const values: Record<string, string> = { ...parityCase.spec_args };
		for (const [key, value] of Object.entries(parityCase.sample))
			values[key] = asText(value, key in peerSpec.input_outputs);
		if (parityCase.policy_completion !== undefined)
			values.completion = parityCase.policy_completion;
		expect(ours).toBe(substitute(template, values));
		bytesCompared += encodeUtf8(ours).length;
	});

	it('reports the bytes compared', () => {
		expect(bytesCompared).toBe(
			Object.values(expected).reduce((sum, entry) => sum + entry.bytes, 0),
		);
		console.info(
			`evals model-graded parity: ${cases.length} grader prompts, ${bytesCompared} bytes identical`,
		);
	});
});
