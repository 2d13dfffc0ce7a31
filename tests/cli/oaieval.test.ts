// `oaieval` over the bundled example registry (suites/evals) with replay models: the final report
// as upstream prints it, the log's lines, the log read back, and registry errors (exit 2, located).
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { oaievalCommand } from '../../src/cli/commands/oaieval';
import { readOaievalLog } from '../../src/core/evals/oaieval-log';
import { shuffledSampleIndices } from '../../src/core/python/python-random';
import {
	listEvalNames,
	readRegistry,
	registryFiles,
	resolveEval,
} from '../../src/core/evals/registry';
import { BUNDLED_REGISTRY } from '../../src/cli/commands/oaieval';
import { readdirSync } from 'node:fs';
import { runCliCommand } from './run-cli-command';

const dir = mkdtempSync(join(tmpdir(), 'benchtop-oaieval-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, lines: readonly object[] | string): string {
	const path = join(dir, name);
	mkdirSync(join(path, '..'), { recursive: true });
	writeFileSync(
		path,
		typeof lines === 'string' ? lines : lines.map((line) => JSON.stringify(line)).join('\n'),
	);
	return path;
}

function readFolder(root: string, prefix = ''): [string, string][] {
	return readdirSync(join(root, prefix), { withFileTypes: true }).flatMap((entry) => {
		const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
		return entry.isDirectory()
			? readFolder(root, path)
			: [[path, readFileSync(join(root, path), 'utf8')] as [string, string]];
	});
}

describe('bundled example registry (suites/evals)', () => {
	const registry = readRegistry(registryFiles(readFolder(BUNDLED_REGISTRY)));
	it.each(listEvalNames(registry))('%s resolves, with 10–20 samples', (name) => {
		const evalSpec = resolveEval(registry, name);
		expect(evalSpec.samples.length).toBeGreaterThanOrEqual(10);
		expect(evalSpec.samples.length).toBeLessThanOrEqual(20);
	});

	it('covers the five templates', () => {
		const kinds = new Set(listEvalNames(registry).map((name) => resolveEval(registry, name).kind));
		expect([...kinds].sort()).toEqual([
			'fuzzy_match',
			'includes',
			'json_match',
			'match',
			'modelgraded',
		]);
	});
});

describe('oaieval', () => {
	it('Match with a replay model: report, log lines in Random(123) order, log reads back', async () => {
		const replay = write('capitals.jsonl', [
			{ when: 'capital of Norway?', completion: 'Oslo' },
			{ when: 'capital of Brazil?', completion: 'Brasilia' },
			{ when: 'capital of Vietnam?', completion: 'Hanoi is the capital.' },
			{ when: 'capital of Kenya?', completion: ' Nairobi' },
			{ when: 'capital of Canada?', completion: 'Ottawa' },
		]);
		const log = join(dir, 'capitals-log.jsonl');
		const run = await runCliCommand(
			oaievalCommand,
			[`replay:${replay}`, 'capitals', '--max_samples', '5', '--record_path', log],
			'disk',
		);
		expect(run.stderr).toContain('Running eval capitals.test.v1: 5 samples');
		expect(run.exitCode).toBe(0);
		expect(run.stdout).toMatch(/^Final report:\naccuracy: 0\.6\nboostrap_std: 0\.\d+\n$/u);

		const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
		expect(lines).toHaveLength(1 + 5 * 2 + 1);
		const spec = JSON.parse(lines[0] ?? '{}') as { spec: Record<string, unknown> };
		expect(spec.spec).toMatchObject({
			completion_fns: [`replay:${replay}`],
			eval_name: 'capitals.test.v1',
			base_eval: 'capitals',
			split: 'test',
		});
		const events = lines
			.slice(1, -1)
			.map(
				(line) =>
					JSON.parse(line) as { sample_id: string; type: string; data: Record<string, unknown> },
			);
		// Python: l = list(range(12)); random.Random(123).shuffle(l) → [7, 5, 9, 2, 3, ...]
		expect(
			events
				.filter((e) => e.type === 'match')
				.map((e) => [e.sample_id, e.data.correct, e.data.picked]),
		).toEqual([
			['capitals.test.7', true, 'Oslo'],
			['capitals.test.5', false, null],
			['capitals.test.9', true, 'Hanoi'],
			['capitals.test.2', false, null],
			['capitals.test.3', true, 'Ottawa'],
		]);
		expect(events[0]?.data).toEqual({
			prompt: [
				{ role: 'system', content: 'Reply with the name of the city only.' },
				{ role: 'user', content: 'What is the capital of Norway?' },
			],
			sampled: ['Oslo'],
			model: 'replay:capitals.jsonl',
			usage: null,
		});
		expect(lines[2]).toMatch(
			/^\{"run_id": "\w+", "event_id": 1, "sample_id": "capitals\.test\.7", "type": "match", "data": \{"correct": true, "expected": "Oslo", "picked": "Oslo", "sampled": "Oslo", "options": \["Oslo"\]\}, "created_by": "", "created_at": "\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{6})?\+00:00"\}$/u,
		);

		const back = readOaievalLog(readFileSync(log, 'utf8'), log);
		expect(back.events).toHaveLength(10);
		expect(back.finalReport?.accuracy).toBe(0.6);
		expect(lines.at(-1)).toMatch(
			/^\{"final_report": \{"accuracy": 0\.6, "boostrap_std": [\d.]+\}\}$/u,
		);
	});

	it('a model-graded eval: policy and grader replays, counts and score', async () => {
		const policy = write('policy.jsonl', [
			{ when: '', completion: 'Light bounces around; blue bounces most.' },
		]);
		const grader = write('grader.jsonl', [
			{
				sample_id: 'explain-clearly.test.8',
				role: 'grader',
				completion: 'It is short and right.\nY\nY',
			},
			{ sample_id: 'explain-clearly.test.7', role: 'grader', completion: 'It is off topic.\nN\nN' },
			{ sample_id: 'explain-clearly.test.5', role: 'grader', completion: 'I cannot decide.' },
		]);
		const log = join(dir, 'graded-log.jsonl');
		const run = await runCliCommand(
			oaievalCommand,
			[
				`replay:${policy},replay:${grader}`,
				'explain-clearly',
				'--max_samples',
				'3',
				'--record_path',
				log,
				'--inspect_log',
				join(dir, 'graded-inspect.json'),
			],
			'disk',
		);
		expect(run.stderr).not.toContain('error');
		expect(run.stdout).toBe(
			'Final report:\ncounts/Y: 1\ncounts/N: 1\ncounts/__invalid__: 1\nscore: 0.3333333333333333\n',
		);
		const back = readOaievalLog(readFileSync(log, 'utf8'), log);
		const inspect = JSON.parse(readFileSync(join(dir, 'graded-inspect.json'), 'utf8')) as {
			version: number;
			samples: { scores: { ModelBasedClassify: { value: string } } }[];
		};
		expect(inspect.version).toBe(2);
		expect(inspect.samples.map((s) => s.scores.ModelBasedClassify.value)).toEqual([
			'Y',
			'N',
			'__invalid__',
		]);
		const metrics = back.events.filter((e) => e.type === 'metrics').map((e) => e.data);
		expect(metrics).toEqual([
			{ choice: 'Y', score: 1 },
			{ choice: 'N', score: 0 },
			{ choice: '__invalid__', score: 0 },
		]);
		const graderSampling = back.events.filter((e) => e.type === 'sampling')[1]?.data as {
			prompt: { content: string }[];
		};
		expect(graderSampling.prompt[0]?.content).toContain(
			'Criterion:\nclarity: Would a twelve-year-old understand this explanation, and is it correct?',
		);
	});

	it.each([
		{
			name: 'an unknown class',
			files: {
				'evals/x.yaml':
					'x.dev.v0:\n  class: evals.elsuite.mine:Custom\n  args:\n    samples_jsonl: x.jsonl\n',
				'data/x.jsonl': '{"input": "a", "ideal": "b"}\n',
			},
			stderr: /^benchtop: evals\/x\.yaml:2: unsupported template evals\.elsuite\.mine:Custom/u,
		},
		{
			name: 'a bad samples line',
			files: {
				'evals/x.yaml':
					'x.dev.v0:\n  class: evals.elsuite.basic.match:Match\n  args:\n    samples_jsonl: x.jsonl\n',
				'data/x.jsonl': '{"input": "a", "ideal": "b"}\n{"input": \n',
			},
			stderr: /^benchtop: data\/x\.jsonl:2: not valid JSON/u,
		},
	])('$name exits 2 naming the file and line', async ({ name, files, stderr }) => {
		const root = join(dir, name.replace(/\W+/gu, '-'));
		for (const [path, text] of Object.entries(files))
			write(join(root.slice(dir.length + 1), path), text);
		const replay = write('any.jsonl', [{ when: '', completion: 'b' }]);
		const run = await runCliCommand(
			oaievalCommand,
			[`replay:${replay}`, 'x.dev.v0', '--registry_path', root],
			'disk',
		);
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toMatch(stderr);
	});

	it('--answer_prompts replaces the appended instruction; a malformed file exits 2 naming the key', async () => {
		const root = join(dir, 'answer-prompts-registry');
		write(
			'answer-prompts-registry/evals/g.yaml',
			'g.dev.v0:\n  class: evals.elsuite.modelgraded.classify:ModelBasedClassify\n  args:\n    samples_jsonl: g.jsonl\n    modelgraded_spec: fact\n    eval_type: classify\n',
		);
		write(
			'answer-prompts-registry/data/g.jsonl',
			'{"input": "Q?", "ideal": "A", "completion": "A"}\n',
		);
		const prompts = {
			classify: 'ONLY ONE OF {choices}',
			classify_cot: 'x {choices}',
			cot_classify: 'y {choices}',
			cot_classify_jp: 'z {choices}',
		};
		const answers = write('answers.json', JSON.stringify(prompts));
		const grader = write('grader-c.jsonl', [
			{ when: 'ONLY ONE OF "A" or "B" or "C" or "D" or "E"', completion: 'C' },
		]);
		const log = join(dir, 'answers-log.jsonl');
		const run = await runCliCommand(
			oaievalCommand,
			[
				`replay:${grader}`,
				'g.dev.v0',
				'--registry_path',
				root,
				'--answer_prompts',
				answers,
				'--record_path',
				log,
			],
			'disk',
		);
		expect(run.stdout).toBe('Final report:\ncounts/C: 1\n');
		const graderPrompt = readOaievalLog(readFileSync(log, 'utf8'), log).events[0]?.data as {
			prompt: { content: string }[];
		};
		expect(
			graderPrompt.prompt[0]?.content.endsWith('\n\nONLY ONE OF "A" or "B" or "C" or "D" or "E"'),
		).toBe(true);

		const bad = write('bad-answers.json', JSON.stringify({ ...prompts, classify: 3 }));
		const failed = await runCliCommand(
			oaievalCommand,
			[`replay:${grader}`, 'g.dev.v0', '--registry_path', root, '--answer_prompts', bad],
			'disk',
		);
		expect(failed.exitCode).toBe(2);
		expect(failed.stderr).toMatch(/bad-answers\.json: answer prompts key 'classify'/u);
	});

	it('the spec command is shell-quoted, created_at has microseconds, --concurrency and EVALS_THREADS are read', async () => {
		const replay = write("quoted dir/it's.jsonl", [{ when: '', completion: 'Oslo' }]);
		const log = join(dir, 'quoted-log.jsonl');
		const args = [`replay:${replay}`, 'capitals', '--max_samples', '4', '--concurrency', '2'];
		const run = await runCliCommand(oaievalCommand, [...args, '--record_path', log], 'disk');
		expect(run.exitCode).toBe(0);
		const back = readOaievalLog(readFileSync(log, 'utf8'), log);
		// Python: " ".join(map(shlex.quote, sys.argv))
		expect(back.spec.run_config.command).toBe(
			`oaieval 'replay:${replay.replace("'", `'"'"'`)}' capitals --max_samples 4 --concurrency 2 --record_path ${log}`,
		);
		expect(back.events).toHaveLength(8);
		const stamps = [back.spec.created_at, ...back.events.map((event) => event.created_at)];
		for (const stamp of stamps)
			expect(stamp).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{6})?\+00:00$/u);
		// a real microsecond part (Node's clock has one), not milliseconds padded with 000
		expect(stamps.some((stamp) => /\.\d{3}(?!000)\d{3}\+/u.test(stamp))).toBe(true);

		for (const bad of [
			['--concurrency', '0'],
			['--concurrency', 'many'],
		]) {
			const refused = await runCliCommand(oaievalCommand, [...args.slice(0, 2), ...bad], 'disk');
			expect(refused.exitCode).toBe(2);
			expect(refused.stderr).toContain('--concurrency must be');
		}
		const saved = process.env.EVALS_THREADS;
		process.env.EVALS_THREADS = 'lots';
		try {
			const refused = await runCliCommand(oaievalCommand, args.slice(0, 2), 'disk');
			expect(refused.exitCode).toBe(2);
			expect(refused.stderr).toContain('EVALS_THREADS must be an integer');
		} finally {
			if (saved === undefined) delete process.env.EVALS_THREADS;
			else process.env.EVALS_THREADS = saved;
		}
	});

	it('usage errors exit 2; --help prints the usage', async () => {
		expect((await runCliCommand(oaievalCommand, ['only-one-arg'], 'disk')).exitCode).toBe(2);
		const help = await runCliCommand(oaievalCommand, ['--help'], 'disk');
		expect(help.exitCode).toBe(0);
		expect(help.stdout).toMatch(/^usage: oaieval/u);
	});
});

describe('the log is written as the run goes (issue 18: nothing lost on failure)', () => {
	it('a run that fails leaves the spec and every event so far, readable, and says where', async () => {
		const root = join(dir, 'partial');
		write(
			'partial/evals/p.yaml',
			'p.dev.v0:\n  class: evals.elsuite.basic.match:Match\n  args:\n    samples_jsonl: p.jsonl\n',
		);
		write(
			'partial/data/p.jsonl',
			[0, 1, 2, 3].map((i) => ({ input: `question ${i}`, ideal: `answer ${i}` })),
		);
		// Answers for samples 0-2 only: sample 3 stops the run.
		const replay = write(
			'partial.jsonl',
			[0, 1, 2].map((i) => ({
				sample_id: `p.dev.${i}`,
				role: 'policy',
				completion: `answer ${i}`,
			})),
		);
		const log = join(dir, 'partial.log.jsonl');
		const run = await runCliCommand(
			oaievalCommand,
			[`replay:${replay}`, 'p.dev.v0', '--registry_path', root, '--record_path', log],
			'disk',
		);
		expect(run.exitCode).not.toBe(0);
		expect(run.stderr).toContain(`is in ${log}`);
		const partial = readOaievalLog(readFileSync(log, 'utf8'), log);
		expect(partial.spec.eval_name).toBe('p.dev.v0');
		expect(partial.finalReport).toBeUndefined();
		// Every sample evaluated before sample 3 (upstream's shuffled order) has its two events.
		const order = shuffledSampleIndices(4);
		const before = order.slice(0, order.indexOf(3)).map((i) => `p.dev.${i}`);
		expect(before.length).toBeGreaterThan(0);
		expect(partial.events.map((event) => `${event.sample_id} ${event.type}`)).toEqual(
			before.flatMap((id) => [`${id} sampling`, `${id} match`]),
		);
		expect(run.stderr).toContain(`(${partial.events.length} events)`);
	});
});
