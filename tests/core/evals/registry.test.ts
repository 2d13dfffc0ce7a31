// The registry and samples readers over virtual file maps: aliases, data/ paths, folders,
// few-shot, model-graded specs, and the bad inputs of issue 10 (bad line, missing file, alias
// loop, unknown class) with their locations.
import { describe, expect, it } from 'vitest';
import { EvalsError } from '../../../src/core/evals/shared/errors';
import {
	listEvalNames,
	readRegistry,
	registryFiles,
	resolveEval,
} from '../../../src/core/evals/registry';
import { registryPathOf } from '../../../src/core/evals/registry-path';
import { parseSamplesJsonl } from '../../../src/core/evals/samples-jsonl';

const MATCH_YAML = `arith:
  id: arith.dev.v0
  description: sums
  metrics: [accuracy]
arith.dev.v0:
  class: evals.elsuite.basic.match:Match
  args:
    samples_jsonl: arith/samples.jsonl
`;

const SAMPLES = '{"input": "1+1=", "ideal": "2"}\n{"input": "2+2=", "ideal": ["4", "four"]}\n';

function registry(files: Record<string, string>) {
	return readRegistry(registryFiles(Object.entries(files)));
}

function errorOf(run: () => unknown): EvalsError {
	try {
		run();
	} catch (error) {
		if (error instanceof EvalsError) return error;
		throw error;
	}
	throw new Error('expected an EvalsError');
}

describe('parseSamplesJsonl', () => {
	it('reads one object per line; CRLF and a missing final newline are fine', () => {
		expect(parseSamplesJsonl('{"a": 1}\r\n{"a": 2}', 's.jsonl')).toEqual([{ a: 1 }, { a: 2 }]);
		expect(parseSamplesJsonl('', 's.jsonl')).toEqual([]);
	});

	it.each([
		{
			name: 'a bad line',
			text: '{"a": 1}\n{"a": \n',
			line: 2,
			message: /s\.jsonl:2: not valid JSON/u,
		},
		{
			name: 'a blank interior line',
			text: '{"a": 1}\n\n{"a": 2}\n',
			line: 2,
			message: /s\.jsonl:2: blank line/u,
		},
		{ name: 'a blank line at the end', text: '{"a": 1}\n\n', line: 2, message: /blank line/u },
		{
			name: 'a line that is not an object',
			text: '[1, 2]\n',
			line: 1,
			message: /must be a JSON object/u,
		},
		{ name: 'a byte-order mark', text: '\ufeff{"a": 1}\n', line: 1, message: /byte-order mark/u },
	])('$name is an error at its line', ({ text, line, message }) => {
		const error = errorOf(() => parseSamplesJsonl(text, 's.jsonl'));
		expect(error.message).toMatch(message);
		expect(error.location).toEqual({ file: 's.jsonl', line });
	});
});

describe('resolveEval', () => {
	it('follows an alias to its spec and reads samples relative to data/', () => {
		const evalSpec = resolveEval(
			registry({ 'evals/arith.yaml': MATCH_YAML, 'data/arith/samples.jsonl': SAMPLES }),
			'arith',
		);
		expect(evalSpec.name).toBe('arith.dev.v0');
		expect(evalSpec.requestedName).toBe('arith');
		expect(evalSpec.kind).toBe('match');
		expect(evalSpec.samples).toHaveLength(2);
		expect(evalSpec.maxTokens).toBe(500);
	});

	it('a bare-string entry is an alias too; a YAML anchor is resolved', () => {
		const yaml = `a: b.dev.v1\nb.dev.v1:\n  class: evals.elsuite.basic.includes:Includes\n  args: &common\n    samples_jsonl: s.jsonl\n    ignore_case: yes\nc.dev.v1:\n  class: evals.elsuite.basic.includes:Includes\n  args: *common\n`;
		const files = { 'evals/x.yaml': yaml, 'data/s.jsonl': SAMPLES };
		expect(resolveEval(registry(files), 'a').name).toBe('b.dev.v1');
		const c = resolveEval(registry(files), 'c.dev.v1');
		expect(c.ignoreCase).toBe(true);
	});

	it('reads numbers as PyYAML does: `e1` and `1e3` are names, `1.5e+3` a float', () => {
		// PyYAML's float needs a dot (and a signed exponent); YAML 1.1 in the yaml library
		// read `e1` as NaN and `1e3` as 1000, so these evals were listed as "NaN" and "1000".
		const spec = (id: string) =>
			`  id: ${id}\n${id}:\n  class: evals.elsuite.basic.match:Match\n  args:\n    samples_jsonl: s.jsonl\n`;
		const yaml = `e1:\n${spec('e1.dev.v0')}1e3:\n${spec('n.dev.v0')}f.dev.v0:\n  class: evals.elsuite.basic.match:Match\n  args:\n    samples_jsonl: s.jsonl\n    max_tokens: 1.5e+3\n`;
		const read = registry({ 'evals/x.yaml': yaml, 'data/s.jsonl': SAMPLES });
		expect(listEvalNames(read)).toEqual(expect.arrayContaining(['e1', '1e3']));
		expect(listEvalNames(read)).not.toContain('NaN');
		expect(resolveEval(read, 'e1').name).toBe('e1.dev.v0');
		expect(resolveEval(read, '1e3').name).toBe('n.dev.v0');
		expect(resolveEval(read, 'f.dev.v0').maxTokens).toBe(1500);
	});

	it('a folder of JSONL files is their concatenation, in name order', () => {
		const yaml = `f.test.v0:\n  class: evals.elsuite.basic.fuzzy_match:FuzzyMatch\n  args:\n    samples_jsonl: parts\n    max_tokens: 7\n`;
		const evalSpec = resolveEval(
			registry({
				'evals/f.yaml': yaml,
				'data/parts/b.jsonl': '{"input": "b", "ideal": "b"}\n',
				'data/parts/a.jsonl': '{"input": "a", "ideal": "a"}\n',
				'data/parts/notes.txt': 'ignored',
			}),
			'f.test.v0',
		);
		expect(evalSpec.samples.map((s) => s.input)).toEqual(['a', 'b']);
		expect(evalSpec.sampleLocations).toEqual([
			{ file: 'data/parts/a.jsonl', line: 1 },
			{ file: 'data/parts/b.jsonl', line: 1 },
		]);
		expect(evalSpec.maxTokens).toBe(7);
	});

	it('files picked one by one (no folders): the samples file is found by its name, and said', () => {
		const yaml = MATCH_YAML.replace('arith/samples.jsonl', 'colours/samples.jsonl');
		// As the page places picked files: a lone YAML under evals/, a lone JSONL under data/.
		const files = Object.fromEntries(
			[
				['colours.yaml', yaml],
				['samples.jsonl', SAMPLES],
			].map(([name, text]) => [registryPathOf(name!, text!), text!]),
		);
		expect(Object.keys(files)).toEqual(['evals/colours.yaml', 'data/samples.jsonl']);
		const evalSpec = resolveEval(registry(files), 'arith');
		expect(evalSpec.samples).toHaveLength(2);
		expect(evalSpec.sampleLocations?.[0]).toEqual({ file: 'data/samples.jsonl', line: 1 });
		expect(evalSpec.notes).toEqual([
			"samples_jsonl 'colours/samples.jsonl': the registry has no data/colours/samples.jsonl, so data/samples.jsonl was used (the only file named samples.jsonl)",
		]);
		// Found where the YAML says: no note.
		const laidOut = resolveEval(
			registry({ 'evals/arith.yaml': MATCH_YAML, 'data/arith/samples.jsonl': SAMPLES }),
			'arith',
		);
		expect(laidOut.notes).toBeUndefined();
	});

	it('two files of the samples name and none at its path: a located error naming both', () => {
		const yaml = MATCH_YAML.replace('arith/samples.jsonl', 'colours/samples.jsonl');
		const error = errorOf(() =>
			resolveEval(
				registry({
					'evals/colours.yaml': yaml,
					'data/samples.jsonl': SAMPLES,
					'data/shapes/samples.jsonl': SAMPLES,
				}),
				'arith',
			),
		);
		expect(error.message).toBe(
			"evals/colours.yaml:8: samples_jsonl 'colours/samples.jsonl' not found (looked for data/colours/samples.jsonl in the registry), and 2 files are named samples.jsonl: data/samples.jsonl, data/shapes/samples.jsonl; keep one, or add the folders (data/colours/samples.jsonl)",
		);
		expect(error.location).toMatchObject({ file: 'evals/colours.yaml', line: 8 });
	});

	it('few_shot_jsonl: the first num_few_shot samples', () => {
		const yaml = `m.dev.v0:\n  class: evals.elsuite.basic.match:Match\n  args:\n    samples_jsonl: s.jsonl\n    few_shot_jsonl: fs.jsonl\n    num_few_shot: 1\n`;
		const fewShot =
			'{"sample": [{"role": "system", "name": "example_user", "content": "1+1"}, {"role": "system", "name": "example_assistant", "content": "2"}]}\n{"sample": [{"role": "user", "content": "unused"}]}\n';
		const evalSpec = resolveEval(
			registry({ 'evals/m.yaml': yaml, 'data/s.jsonl': SAMPLES, 'data/fs.jsonl': fewShot }),
			'm.dev.v0',
		);
		expect(evalSpec.fewShot).toEqual([
			[
				{ role: 'system', name: 'example_user', content: '1+1' },
				{ role: 'system', name: 'example_assistant', content: '2' },
			],
		]);
	});

	it('ModelBasedClassify finds a registry spec, else Benchtop’s own by name', () => {
		const yaml = `g.dev.v0:\n  class: evals.elsuite.modelgraded.classify:ModelBasedClassify\n  args:\n    samples_jsonl: s.jsonl\n    modelgraded_spec: closedqa\n    modelgraded_spec_args:\n      criteria: "relevance: on topic?"\n`;
		const own = resolveEval(
			registry({ 'evals/g.yaml': yaml, 'data/s.jsonl': SAMPLES }),
			'g.dev.v0',
		);
		expect(own.modelGraded?.specFile).toBe('builtin:closedqa');
		expect(own.modelGraded?.args.modelgraded_spec_args).toEqual({
			criteria: 'relevance: on topic?',
		});
		expect(own.modelGraded?.args.match_fn).toBe('starts_or_endswith');
		const spec = `closedqa:\n  prompt: "Task {input} / {completion} / {criteria}"\n  eval_type: cot_classify\n  choice_strings: "YN"\n  choice_scores:\n    "Y": 1.0\n    "N": 0.0\n  input_outputs:\n    input: completion\n`;
		const theirs = resolveEval(
			registry({
				'evals/g.yaml': yaml,
				'data/s.jsonl': SAMPLES,
				'modelgraded/closedqa.yaml': spec,
			}),
			'g.dev.v0',
		);
		expect(theirs.modelGraded?.specFile).toBe('modelgraded/closedqa.yaml');
		expect(theirs.modelGraded?.spec.prompt).toBe('Task {input} / {completion} / {criteria}');
		expect(theirs.modelGraded?.spec.choice_scores).toEqual({ Y: 1, N: 0 });
	});

	it.each([
		{
			name: 'an unknown class',
			files: {
				'evals/u.yaml':
					'u.dev.v0:\n  class: evals.elsuite.custom:Mine\n  args:\n    samples_jsonl: s.jsonl\n',
			},
			evalName: 'u.dev.v0',
			message: /^evals\/u\.yaml:2: unsupported template evals\.elsuite\.custom:Mine/u,
			location: { file: 'evals/u.yaml', line: 2, field: 'u.dev.v0.class' },
		},
		{
			name: 'an alias loop',
			files: { 'evals/l.yaml': 'a:\n  id: b\nb:\n  id: a\n' },
			evalName: 'a',
			message: /alias loop a → b → a/u,
			location: { file: 'evals/l.yaml', line: 3, field: 'b.id' },
		},
		{
			name: 'a missing samples file',
			files: { 'evals/arith.yaml': MATCH_YAML },
			evalName: 'arith',
			message: /^evals\/arith\.yaml:8: samples_jsonl 'arith\/samples\.jsonl' not found/u,
			location: { file: 'evals/arith.yaml', line: 8, field: 'samples_jsonl' },
		},
		{
			name: 'a bad samples line',
			files: {
				'evals/arith.yaml': MATCH_YAML,
				'data/arith/samples.jsonl': '{"input": "x", "ideal": "y"}\n{oops}\n',
			},
			evalName: 'arith',
			message: /^data\/arith\/samples\.jsonl:2: not valid JSON/u,
			location: { file: 'data/arith/samples.jsonl', line: 2 },
		},
		{
			name: 'an unknown arg',
			files: {
				'evals/j.yaml':
					'j.dev.v0:\n  class: evals.elsuite.basic.json_match:JsonMatch\n  args:\n    samples_jsonl: s.jsonl\n    temperature: 0.5\n',
				'data/s.jsonl': SAMPLES,
			},
			evalName: 'j.dev.v0',
			message: /^evals\/j\.yaml:5: j\.dev\.v0 args\.temperature: unknown arg/u,
			location: { file: 'evals/j.yaml', line: 5, field: 'j.dev.v0.args.temperature' },
		},
		{
			name: 'a name without a split',
			files: {
				'evals/n.yaml':
					'n:\n  class: evals.elsuite.basic.match:Match\n  args:\n    samples_jsonl: s.jsonl\n',
				'data/s.jsonl': SAMPLES,
			},
			evalName: 'n',
			message: /must at least have <base_eval>\.<split>/u,
			location: { file: 'evals/n.yaml', line: 1, field: 'n' },
		},
		{
			name: 'an unknown model-graded spec',
			files: {
				'evals/g.yaml':
					'g.dev.v0:\n  class: evals.elsuite.modelgraded.classify:ModelBasedClassify\n  args:\n    samples_jsonl: s.jsonl\n    modelgraded_spec: vibes\n',
				'data/s.jsonl': SAMPLES,
			},
			evalName: 'g.dev.v0',
			message: /modelgraded spec vibes not found/u,
			location: { file: 'evals/g.yaml', line: 5, field: 'g.dev.v0.args.modelgraded_spec' },
		},
		{
			name: 'a model-graded eval with no eval_type anywhere',
			files: {
				'evals/g.yaml':
					'g.dev.v0:\n  class: evals.elsuite.modelgraded.classify:ModelBasedClassify\n  args:\n    samples_jsonl: s.jsonl\n    modelgraded_spec: fact\n',
				'data/s.jsonl': SAMPLES,
			},
			evalName: 'g.dev.v0',
			message: /neither the registry nor the spec fact sets eval_type/u,
			location: { file: 'evals/g.yaml', line: 1, field: 'g.dev.v0.args.eval_type' },
		},
	])('$name is a located error', ({ files, evalName, message, location }) => {
		const error = errorOf(() => resolveEval(registry(files), evalName));
		expect(error.message).toMatch(message);
		expect(error.location).toEqual(location);
	});

	it('an eval name that is not there names close ones', () => {
		const error = errorOf(() =>
			resolveEval(registry({ 'evals/arith.yaml': MATCH_YAML }), 'arithm'),
		);
		expect(error.message).toBe("eval 'arithm' not found in the registry");
		expect(
			errorOf(() => resolveEval(registry({ 'evals/arith.yaml': MATCH_YAML }), 'arith.x')).message,
		).toMatch(/close names: arith, arith\.dev\.v0/u);
	});

	it('duplicate names across files and YAML syntax errors are located', () => {
		expect(() =>
			registry({ 'evals/a.yaml': 'x.dev.v0: a\n', 'evals/b.yaml': '\nx.dev.v0: b\n' }),
		).toThrow(
			/^evals\/b\.yaml:2: duplicate entry 'x\.dev\.v0' \(first defined at evals\/a\.yaml:1\)/u,
		);
		expect(() => registry({ 'evals/a.yaml': 'x:\n  id: [unclosed\n' })).toThrow(
			/^evals\/a\.yaml:\d+: YAML error/u,
		);
		expect(() => registry({ 'evals/a.yaml': 'x.dev.v0:\n  class: c\n  key: k\n' })).toThrow(
			/'key' is a reserved keyword/u,
		);
	});

	it('PyYAML reads single letters Y / N as strings (choices), yes / off as booleans', () => {
		const r = registry({ 'modelgraded/a.yaml': 'a:\n  c: [Y, N, y, n, yes, Off, on]\n' });
		expect(r.modelgraded.get('a')?.value).toEqual({ c: ['Y', 'N', 'y', 'n', true, false, true] });
	});

	it('YAML 1.1 as PyYAML: unquoted Yes/No choices are booleans, so the spec is rejected with a hint', () => {
		const yaml =
			'g.dev.v0:\n  class: evals.elsuite.modelgraded.classify:ModelBasedClassify\n  args:\n    samples_jsonl: s.jsonl\n    modelgraded_spec: yn\n    eval_type: classify\n';
		const spec =
			'yn:\n  prompt: "{input} {completion}"\n  choice_strings: [Yes, No]\n  input_outputs:\n    input: completion\n';
		const error = errorOf(() =>
			resolveEval(
				registry({ 'evals/g.yaml': yaml, 'data/s.jsonl': SAMPLES, 'modelgraded/yn.yaml': spec }),
				'g.dev.v0',
			),
		);
		expect(error.message).toMatch(
			/^modelgraded\/yn\.yaml:1: modelgraded spec yn\.choice_strings: .*quote Yes\/No/u,
		);
	});
});

describe('registry args are checked by the template argsSchema', () => {
	const entry = (cls: string, args: string): string =>
		`x.dev.v0:\n  class: evals.elsuite.${cls}\n  args:\n    samples_jsonl: s.jsonl\n${args}`;
	it.each([
		{
			name: 'a fractional num_few_shot',
			yaml: entry('basic.match:Match', '    num_few_shot: 1.5\n'),
			message: /^evals\/x\.yaml:5: x\.dev\.v0 args\.num_few_shot: must be an integer, not 1\.5$/u,
			location: { file: 'evals/x.yaml', line: 5, field: 'x.dev.v0.args.num_few_shot' },
		},
		{
			name: 'a quoted max_tokens',
			yaml: entry('basic.fuzzy_match:FuzzyMatch', '    max_tokens: "5"\n'),
			message: /^evals\/x\.yaml:5: x\.dev\.v0 args\.max_tokens: must be an integer, not "5"$/u,
			location: { file: 'evals/x.yaml', line: 5, field: 'x.dev.v0.args.max_tokens' },
		},
		{
			name: 'a numeric ignore_case',
			yaml: entry('basic.includes:Includes', '    ignore_case: 1\n'),
			message: /^evals\/x\.yaml:5: x\.dev\.v0 args\.ignore_case: must be true or false$/u,
			location: { file: 'evals/x.yaml', line: 5, field: 'x.dev.v0.args.ignore_case' },
		},
		{
			name: 'an unknown match_fn',
			yaml: entry(
				'modelgraded.classify:ModelBasedClassify',
				'    modelgraded_spec: fact\n    eval_type: classify\n    match_fn: fuzzy\n',
			),
			message: /^evals\/x\.yaml:7: x\.dev\.v0 args\.match_fn: must be one of include, exact/u,
			location: { file: 'evals/x.yaml', line: 7, field: 'x.dev.v0.args.match_fn' },
		},
		{
			name: 'an unknown arg next to a wrong one (the unknown arg is reported, as upstream)',
			yaml: entry('basic.match:Match', '    num_few_shot: x\n    temperature: 0\n'),
			message: /^evals\/x\.yaml:6: x\.dev\.v0 args\.temperature: unknown arg/u,
			location: { file: 'evals/x.yaml', line: 6, field: 'x.dev.v0.args.temperature' },
		},
		{
			name: 'a missing samples_jsonl',
			yaml: 'x.dev.v0:\n  class: evals.elsuite.basic.match:Match\n  args:\n    max_tokens: 3\n',
			message: /^evals\/x\.yaml:1: x\.dev\.v0 args\.samples_jsonl: required: a path under data\//u,
			location: { file: 'evals/x.yaml', line: 1, field: 'x.dev.v0.args.samples_jsonl' },
		},
	])('$name names the eval, the file and the field', ({ yaml, message, location }) => {
		const error = errorOf(() =>
			resolveEval(registry({ 'evals/x.yaml': yaml, 'data/s.jsonl': SAMPLES }), 'x.dev.v0'),
		);
		expect(error.message).toMatch(message);
		expect(error.location).toEqual(location);
	});

	it('a few-shot line that is not a chat names the few-shot file arg', () => {
		const yaml = entry('basic.match:Match', '    few_shot_jsonl: fs.jsonl\n    num_few_shot: 2\n');
		const error = errorOf(() =>
			resolveEval(
				registry({
					'evals/x.yaml': yaml,
					'data/s.jsonl': SAMPLES,
					'data/fs.jsonl':
						'{"sample": [{"role": "user", "content": "c"}]}\n{"sample": [{"role": 1}]}\n',
				}),
				'x.dev.v0',
			),
		);
		expect(error.message).toBe(
			'evals/x.yaml:5: x.dev.v0 args.few_shot_jsonl: line 2 must be {"sample": [chat messages]}',
		);
	});
});
