// `ltm run` end to end: definitions folder and ltm-suite.json, result files in upstream's layout,
// summary and table, located errors; agents are in-test TextModels or a real `replay:` file.
import {
	appendFile,
	mkdir,
	mkdtemp,
	readdir,
	readFile,
	rename,
	rm,
	symlink,
	writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { createLtmCommand, ltmCommand, type OpenModel } from '../../src/cli/commands/ltm';
import { readLtmRunFiles } from '../../src/cli/shared/ltm-run-files';
import { buildLtmReport, loadLtmSuite, type LtmRunState } from '../../src/core/ltm';
import type {
	ChatMessage,
	GenerateRequest,
	GenerationEvent,
	TextModel,
} from '../../src/core/model/generation';
import { countCl100kTokens } from '../../src/providers/token-count';
import { runCliCommand } from './run-cli-command';

const FIXTURES = new URL('../fixtures/ltm/', import.meta.url).pathname;
const MEMORY_SUITES = new URL('../../suites/memory/', import.meta.url).pathname;

/** An agent that remembers: answers the fixture's questions right (quote in its 2nd reply after the quote question). */
function rememberingAgent(): TextModel {
	const answer = (messages: readonly ChatMessage[]): string => {
		const last = messages.at(-1)!.content;
		const asked = messages.findIndex(
			(m) => m.role === 'user' && m.content.startsWith('Please append the quote'),
		);
		const repliesSinceAsked =
			asked === -1 ? -1 : messages.slice(asked).filter((m) => m.role === 'assistant').length;
		let reply =
			last === 'What is my favourite colour?'
				? 'Amber.'
				: last === 'What is my name?'
					? 'Orla.'
					: 'OK.';
		if (repliesSinceAsked === 1) reply += ' Slow is smooth and smooth is fast.';
		return reply;
	};
	return {
		label: 'test:remembering',
		abilities: { score: false, generate: true, chat: true },
		async *generate(request: GenerateRequest): AsyncGenerator<GenerationEvent> {
			if (request.prompt.kind !== 'chat') throw new Error('chat expected');
			yield { type: 'done', completion: answer(request.prompt.messages), finishReason: 'stop' };
		},
		countTokens: countCl100kTokens,
	};
}

const opened: string[] = [];
const openModel: OpenModel = async (spec) => {
	opened.push(spec);
	return { model: rememberingAgent(), close: async () => undefined };
};

const temporary: string[] = [];
afterEach(async () => {
	opened.length = 0;
	await Promise.all(temporary.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function outDir(): Promise<string> {
	const dir = await mkdtemp(join(tmpdir(), 'benchtop-ltm-'));
	temporary.push(dir);
	return dir;
}

describe('ltm run', () => {
	it('runs a definitions folder and writes <Dataset Name>/<id>_0.json and summary.json', async () => {
		const out = await outDir();
		const run = await runCliCommand(
			createLtmCommand(openModel),
			['run', `${FIXTURES}tiny-definitions`, '--agent', 'remembering', '--out', out],
			'disk',
		);
		expect(run.stderr).not.toMatch(/error/);
		expect(run.exitCode).toBe(0);
		expect(opened).toEqual(['remembering']);
		expect((await readdir(out)).sort()).toEqual([
			'Colours',
			'Names',
			'Prospective Memory',
			'master_log.jsonl',
			'run-log.jsonl',
			'run-models.json',
			'run-state.json',
			'run-tests.json',
			'runstats.json',
			'summary.json',
		]);
		const colours = JSON.parse(await readFile(join(out, 'Colours', '0_0.json'), 'utf8'));
		expect(Object.keys(colours).sort()).toEqual(
			[
				'actual_responses',
				'characters',
				'expected_responses',
				'full_log',
				'max_score',
				'needles',
				'reasoning',
				'score',
				'task_log',
				'tokens',
			].sort(),
		);
		expect(colours).toMatchObject({
			score: 1,
			max_score: 1,
			needles: 2,
			expected_responses: ['amber'],
			actual_responses: ['Amber.'],
		});
		expect(colours.tokens).toBeGreaterThanOrEqual(108);
		expect(colours.task_log[0]).toMatch(
			/^Test \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}\): My favourite colour is teal\.$/,
		);
		const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8'));
		expect(summary).toMatchObject({
			run_name: 'Tiny LTM fixture',
			memory_span: 120,
			score: 3,
			accuracy: 100,
			skipped: [],
		});
		expect(summary.datasets['Prospective Memory']).toEqual({ mean: 1, std: 0, tests: 1 });
		expect(summary.divergences.length).toBeGreaterThan(0);
		expect(run.stdout).toMatch(/^dataset\s+tests\s+mean\s+std\n/);
		expect(run.stdout).toMatch(/score 3\.000 \/ 3 .* accuracy 100\.0 %/);
	});

	it('--resume continues from run-state.json after a failure, to the same results', async () => {
		const out = await outDir();
		let calls = 0;
		const flaky: OpenModel = async () => {
			const agent = rememberingAgent();
			return {
				model: {
					...agent,
					async *generate(request, call, signal): AsyncGenerator<GenerationEvent> {
						if (++calls === 5) throw new Error('connection reset');
						yield* agent.generate(request, call, signal);
					},
				},
				close: async () => undefined,
			};
		};
		const args = ['run', `${FIXTURES}tiny-definitions`, '--agent', 'a', '--out', out];
		const failed = await runCliCommand(createLtmCommand(flaky), args, 'disk');
		expect(failed.exitCode).toBe(1);
		expect(failed.stderr).toMatch(/connection reset/);
		const resumed = await runCliCommand(createLtmCommand(openModel), [...args, '--resume'], 'disk');
		expect(resumed.exitCode).toBe(0);
		const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8'));
		expect(summary).toMatchObject({ score: 3, accuracy: 100 });
	});

	it('--trivia fills the gaps from an upstream-format trivia file', async () => {
		const out = await outDir();
		const run = await runCliCommand(
			createLtmCommand(openModel),
			[
				'run',
				`${FIXTURES}tiny-definitions`,
				'--agent',
				'a',
				'--trivia',
				`${FIXTURES}trivia-small.json`,
				'--out',
				out,
			],
			'disk',
		);
		expect(run.exitCode).toBe(0);
		const names = JSON.parse(await readFile(join(out, 'Names', '0_0.json'), 'utf8'));
		const log = names.full_log.join('\n');
		expect(log).toContain('Q: Which made-up planet has three rings in our fixture?, A: Orvel');
		// Filler replies are canned: the Python repr of the answers.
		expect(log).toMatch(/Agent \([^)]*\): \['(Orvel|6)'(, '(Orvel|6)')*\]/);
	});

	it('--isolated and --memory-span change the run', async () => {
		const out = await outDir();
		const run = await runCliCommand(
			createLtmCommand(openModel),
			[
				'run',
				`${FIXTURES}tiny-definitions`,
				'--agent',
				'a',
				'--isolated',
				'--memory-span',
				'300',
				'--out',
				out,
			],
			'disk',
		);
		expect(run.exitCode).toBe(0);
		const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8'));
		expect(summary).toMatchObject({
			run_name: 'Tiny LTM fixture (isolated)',
			memory_span: 300,
			isolated: true,
		});
	});

	it('a real replay: agent runs offline; a judge-free run skips nothing here', async () => {
		const run = await runCliCommand(
			ltmCommand,
			['run', `${FIXTURES}tiny-definitions`, '--agent', `replay:${FIXTURES}always-ok.replay.jsonl`],
			'disk',
		);
		expect(run.exitCode).toBe(0);
		expect(run.stdout).toMatch(/Colours\s+1\s+0\.000/);
		expect(run.stdout).toMatch(/score 0\.000 \/ 3/);
	});

	it('bad definitions are located errors with exit code 2', async () => {
		const run = await runCliCommand(
			createLtmCommand(openModel),
			['run', `${FIXTURES}tiny-definitions`, '--agent', 'a', '--memory-span', '20'],
			'disk',
		);
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toMatch(
			/Colours\/0\.def\.json#\/script: error: the script takes \d+ tokens, which does not fit the memory span of 20/,
		);
		expect(opened).toEqual([]);
	});

	const usage: [string, string[], RegExp][] = [
		['no agent', ['run', `${FIXTURES}tiny-definitions`], /--agent <model> is required/],
		[
			'bad span',
			['run', `${FIXTURES}tiny-definitions`, '--agent', 'a', '--memory-span', 'lots'],
			/--memory-span must be a positive whole number/,
		],
		['missing input', ['run', `${FIXTURES}nothing-here`, '--agent', 'a'], /no such file or folder/],
		['unknown subcommand', ['walk'], /expected 'ltm run/],
	];
	it.each(usage)('%s: exit 2 with what to do', async (_name, args, message) => {
		const run = await runCliCommand(createLtmCommand(openModel), args, 'disk');
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toMatch(message);
	});
});

/** The remembering agent, failing on its `failAt`-th generation (a dropped connection). */
function flakyOpener(failAt: number): OpenModel {
	let calls = 0;
	return async () => {
		const agent = rememberingAgent();
		return {
			model: {
				...agent,
				async *generate(request, call, signal): AsyncGenerator<GenerationEvent> {
					if (++calls === failAt) throw new Error('connection reset');
					yield* agent.generate(request, call, signal);
				},
			},
			close: async () => undefined,
		};
	};
}

/** What a run said and was told, without the clock: equal for the same conversation. */
const conversation = (state: LtmRunState) =>
	state.log.map(({ role, testId, text, tokens, kind }) => ({ role, testId, text, tokens, kind }));

async function logLines(out: string): Promise<string[]> {
	return (await readFile(join(out, 'run-log.jsonl'), 'utf8')).split('\n').filter(Boolean);
}

/** Every file under `root`, relative to it. */
async function filesUnder(root: string): Promise<string[]> {
	const entries = await readdir(root, { recursive: true, withFileTypes: true });
	return entries
		.filter((entry) => !entry.isDirectory())
		.map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1))
		.sort();
}

describe('ltm run: the saved state grows linearly and resumes', () => {
	const definitions = `${FIXTURES}tiny-definitions`;

	it('writes a small checkpoint, the tests once and the log as JSON Lines; they join to the end state', async () => {
		const out = await outDir();
		const run = await runCliCommand(
			createLtmCommand(openModel),
			['run', definitions, '--agent', 'a', '--out', out],
			'disk',
		);
		expect(run.exitCode).toBe(0);
		const checkpoint = JSON.parse(await readFile(join(out, 'run-state.json'), 'utf8'));
		expect(checkpoint.format).toBe('ltm-run-checkpoint/1');
		expect(checkpoint).not.toHaveProperty('log');
		expect(checkpoint).not.toHaveProperty('tests');
		expect(checkpoint.logLength).toBe((await logLines(out)).length);
		const tests = JSON.parse(await readFile(join(out, 'run-tests.json'), 'utf8'));
		expect(tests.map((test: { uniqueId: string }) => test.uniqueId)).toEqual([
			'Colours - 0',
			'Names - 0',
			'Prospective Memory - 0',
		]);
		const state = await readLtmRunFiles(out);
		const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8'));
		expect(JSON.parse(JSON.stringify(buildLtmReport(state).summary))).toEqual(summary);
		expect((await readdir(out)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
	});

	it('resumes a run-state.json written by the earlier release (the whole state, log inside)', async () => {
		const whole = await outDir();
		await runCliCommand(
			createLtmCommand(openModel),
			['run', definitions, '--agent', 'a', '--out', whole],
			'disk',
		);
		const out = await outDir();
		const args = ['run', definitions, '--agent', 'a', '--out', out];
		expect((await runCliCommand(createLtmCommand(flakyOpener(5)), args, 'disk')).exitCode).toBe(1);
		const stopped = await readLtmRunFiles(out);
		const wholeState = await readLtmRunFiles(whole);
		expect(stopped.log.length).toBeGreaterThan(4);
		expect(stopped.log.length).toBeLessThan(wholeState.log.length);
		// The earlier release kept one file: JSON.stringify of the whole state.
		await writeFile(join(out, 'run-state.json'), JSON.stringify(stopped));
		await rm(join(out, 'run-log.jsonl'));
		await rm(join(out, 'run-tests.json'));
		const resumed = await runCliCommand(createLtmCommand(openModel), [...args, '--resume'], 'disk');
		expect(resumed.exitCode).toBe(0);
		const end = await readLtmRunFiles(out);
		expect(conversation(end)).toEqual(conversation(wholeState));
		expect(end.log.slice(0, stopped.log.length)).toEqual(stopped.log);
		expect(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8'))).toMatchObject({
			score: 3,
			accuracy: 100,
		});
	});

	it('drops log lines appended after the last checkpoint (a crash between the two writes)', async () => {
		const whole = await outDir();
		await runCliCommand(
			createLtmCommand(openModel),
			['run', definitions, '--agent', 'a', '--out', whole],
			'disk',
		);
		const out = await outDir();
		const args = ['run', definitions, '--agent', 'a', '--out', out];
		await runCliCommand(createLtmCommand(flakyOpener(4)), args, 'disk');
		const saved = await logLines(out);
		await appendFile(join(out, 'run-log.jsonl'), `${saved.at(-1)}\n{"role": "ag`);
		const resumed = await runCliCommand(createLtmCommand(openModel), [...args, '--resume'], 'disk');
		expect(resumed.exitCode).toBe(0);
		const end = await readLtmRunFiles(out);
		expect(conversation(end)).toEqual(conversation(await readLtmRunFiles(whole)));
		expect(await logLines(out)).toHaveLength(end.log.length);
	});

	it('resumes from run-state.json.tmp when a run stopped between removing the old state and renaming the new', async () => {
		const whole = await outDir();
		await runCliCommand(
			createLtmCommand(openModel),
			['run', definitions, '--agent', 'a', '--out', whole],
			'disk',
		);
		const out = await outDir();
		const args = ['run', definitions, '--agent', 'a', '--out', out];
		await runCliCommand(createLtmCommand(flakyOpener(4)), args, 'disk');
		await rename(join(out, 'run-state.json'), join(out, 'run-state.json.tmp'));
		const resumed = await runCliCommand(createLtmCommand(openModel), [...args, '--resume'], 'disk');
		expect(resumed.exitCode).toBe(0);
		expect(conversation(await readLtmRunFiles(out))).toEqual(
			conversation(await readLtmRunFiles(whole)),
		);
		expect((await readdir(out)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
	});

	it.each([
		['a checkpoint that names more log lines than there are', { logLength: 10_000 }, /needs 10000/],
		['a checkpoint of another shape', { totalTokens: 'many' }, /run-state\.json: .*\/totalTokens/],
	])('refuses %s, naming the file (exit 2)', async (_name, change, message) => {
		const out = await outDir();
		const args = ['run', definitions, '--agent', 'a', '--out', out];
		await runCliCommand(createLtmCommand(openModel), args, 'disk');
		const checkpoint = JSON.parse(await readFile(join(out, 'run-state.json'), 'utf8'));
		await writeFile(join(out, 'run-state.json'), JSON.stringify({ ...checkpoint, ...change }));
		const resumed = await runCliCommand(createLtmCommand(openModel), [...args, '--resume'], 'disk');
		expect(resumed.exitCode).toBe(2);
		expect(resumed.stderr).toMatch(message);
	});

	it('--resume in a folder without a saved run says so (exit 2)', async () => {
		const out = await outDir();
		const resumed = await runCliCommand(
			createLtmCommand(openModel),
			['run', definitions, '--agent', 'a', '--out', out, '--resume'],
			'disk',
		);
		expect(resumed.exitCode).toBe(2);
		expect(resumed.stderr).toMatch(/run-state\.json: no such file/);
	});
});

describe('ltm: nothing is written outside --out', () => {
	const hostileSuite = (name: string) =>
		JSON.stringify({
			format: 'ltm-suite/1',
			config: { run_name: 'hostile', memory_span: 120 },
			datasets: [
				{
					name,
					evaluator: 'colours',
					examples: [
						{
							script: ['My favourite colour is amber.', 'What is my favourite colour?'],
							is_question: [false, true],
							expected_responses: ['amber'],
						},
					],
				},
			],
		});

	it.each([
		['../../escaped', '..%2F..%2Fescaped'],
		['/tmp/absolute', '%2Ftmp%2Fabsolute'],
		['..\\..\\windows', '..%5C..%5Cwindows'],
		['C:', 'C%3A'],
		['NUL', '%4EUL'],
		['..', '%2E%2E'],
		['Colours', 'Colours'],
	])('the dataset %j writes its results to <out>/%s/', async (name, folder) => {
		const root = await outDir();
		const out = join(root, 'a', 'b', 'out');
		const suite = join(root, 'suite.ltm-suite.json');
		await writeFile(suite, hostileSuite(name));
		const run = await runCliCommand(
			createLtmCommand(openModel),
			['run', suite, '--agent', 'a', '--out', out],
			'disk',
		);
		expect(run.exitCode).toBe(0);
		const outside = (await filesUnder(root)).filter((path) => !path.startsWith('a/b/out/'));
		expect(outside).toEqual(['suite.ltm-suite.json']);
		expect(await readdir(join(out, folder))).toEqual(['0_0.json']);
	});

	it('refuses to write through a folder inside --out that links outside it', async () => {
		const root = await outDir();
		const out = join(root, 'out');
		const elsewhere = join(root, 'elsewhere');
		await mkdir(out);
		await mkdir(elsewhere);
		await symlink(elsewhere, join(out, 'Colours'));
		const run = await runCliCommand(
			createLtmCommand(openModel),
			['run', `${FIXTURES}tiny-definitions`, '--agent', 'a', '--out', out],
			'disk',
		);
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toMatch(/refused to write Colours\/0_0\.json/);
		expect(await readdir(elsewhere)).toEqual([]);
	});

	it('ltm generate --dataset with a path in it writes one folder inside --out', async () => {
		const root = await outDir();
		const promptPath = join(root, 'prompt.json');
		await writeFile(
			promptPath,
			JSON.stringify({ content: 'Invent facts.', question: 'Ask.', answer: 'Answer.' }),
		);
		const generator: OpenModel = async () => ({
			model: {
				...rememberingAgent(),
				async *generate(): AsyncGenerator<GenerationEvent> {
					yield {
						type: 'done',
						completion:
							'{"content": ["Zed has glass moons."], "question": ["Moons?"], "answer": ["glass"]}',
						finishReason: 'stop',
					};
				},
			},
			close: async () => undefined,
		});
		const out = join(root, 'a', 'defs');
		const run = await runCliCommand(
			createLtmCommand(generator),
			['generate', promptPath, '--generator', 'g', '--out', out, '--dataset', '../../escaped'],
			'disk',
		);
		expect(run.exitCode).toBe(0);
		expect(await filesUnder(root)).toEqual(['a/defs/..%2F..%2Fescaped/0.def.json', 'prompt.json']);
		expect(run.stdout).toContain(join(out, '..%2F..%2Fescaped', '0.def.json'));
	});
});

describe('ltm generate', () => {
	it('freezes generated tests to <Dataset Name>/<i>.def.json that ltm run loads', async () => {
		const out = await outDir();
		const promptPath = join(out, '1-1_delayed_recall.json');
		await writeFile(
			promptPath,
			JSON.stringify({
				content: 'Invent facts.',
				question: 'Ask about them.',
				answer: 'Answer them.',
			}),
		);
		const generator: OpenModel = async () => ({
			model: {
				label: 'test:generator',
				abilities: { score: false, generate: true, chat: true },
				async *generate(): AsyncGenerator<GenerationEvent> {
					yield {
						type: 'done',
						completion:
							'{"content": ["Zed has glass moons."], "question": ["What are the moons of Zed made of?"], "answer": ["glass"]}',
						finishReason: 'stop',
					};
				},
				countTokens: countCl100kTokens,
			},
			close: async () => undefined,
		});
		const definitions = join(out, 'defs');
		const run = await runCliCommand(
			createLtmCommand(generator),
			['generate', promptPath, '--generator', 'g', '--out', definitions, '--examples', '2'],
			'disk',
		);
		expect(run.exitCode).toBe(0);
		expect((await readdir(join(definitions, 'Delayed Recall'))).sort()).toEqual([
			'0.def.json',
			'1.def.json',
		]);
		const check = await runCliCommand(
			createLtmCommand(openModel),
			['run', definitions, '--agent', 'a'],
			'disk',
		);
		expect(check.exitCode).toBe(0);
		expect(check.stdout).toMatch(/skipped Delayed Recall - 0: needs a judge/);
	});
});

describe('bundled memory suites (suites/memory)', () => {
	it('every ltm-suite.json there loads and runs to a summary', async () => {
		const files = (await readdir(MEMORY_SUITES)).filter((file) => file.endsWith('.ltm-suite.json'));
		expect(files.length).toBeGreaterThan(0);
		for (const file of files) {
			const loaded = loadLtmSuite(file, await readFile(join(MEMORY_SUITES, file), 'utf8'), {
				countTokens: countCl100kTokens,
			});
			expect(loaded.diagnostics).toEqual([]);
			const run = await runCliCommand(
				createLtmCommand(openModel),
				['run', join(MEMORY_SUITES, file), '--agent', 'a'],
				'disk',
			);
			expect(run.exitCode).toBe(0);
			expect(run.stdout).toMatch(/accuracy/);
		}
	});
});

describe('ltm-suite.json config.tokenizer', () => {
	const suite = (tokenizer: string) =>
		JSON.stringify({
			format: 'ltm-suite/1',
			config: { run_name: 'tokenizer', memory_span: 120, tokenizer },
			datasets: [
				{
					name: 'Colours',
					evaluator: 'colours',
					examples: [
						{
							script: ['My favourite colour is amber.', 'What is my favourite colour?'],
							is_question: [false, true],
							expected_responses: ['amber'],
						},
					],
				},
			],
		});
	/** The remembering agent, counting one token per character. */
	const charsModel: OpenModel = async () => ({
		model: { ...rememberingAgent(), countTokens: (text: string) => text.length },
		close: async () => undefined,
	});

	for (const tokenizer of ['agent', 'cl100k'] as const) {
		it(`"${tokenizer}" counts the conversation with ${tokenizer === 'agent' ? "the agent's tokenizer" : 'cl100k_base'}`, async () => {
			const out = await outDir();
			const file = join(out, 'suite.ltm-suite.json');
			await writeFile(file, suite(tokenizer));
			const run = await runCliCommand(
				createLtmCommand(charsModel),
				['run', file, '--agent', 'chars', '--out', out],
				'disk',
			);
			expect(run.exitCode).toBe(0);
			const log = (await readFile(join(out, 'run-log.jsonl'), 'utf8'))
				.trimEnd()
				.split('\n')
				.map((line) => JSON.parse(line) as { role: string; text: string; tokens: number });
			const lines = log.filter((entry) => entry.role !== 'system');
			expect(lines.length).toBeGreaterThan(4);
			const count = tokenizer === 'agent' ? (text: string) => text.length : countCl100kTokens;
			expect(lines.map((entry) => entry.tokens)).toEqual(lines.map((entry) => count(entry.text)));
		});
	}
});

describe('ltm run with a zip of definitions', () => {
	it('runs the zipped tiny definitions to the same results as the folder', async () => {
		const root = `${FIXTURES}tiny-definitions`;
		const files: Record<string, Uint8Array> = {};
		for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
			if (!entry.isFile()) continue;
			const path = join(entry.parentPath, entry.name);
			files[`tiny/${path.slice(root.length + 1)}`] = strToU8(await readFile(path, 'utf8'));
		}
		const zipOut = await outDir();
		const zipPath = join(zipOut, 'tiny.zip');
		await writeFile(zipPath, zipSync(files));
		const fromZip = await runCliCommand(
			createLtmCommand(openModel),
			['run', zipPath, '--agent', 'a', '--out', join(zipOut, 'out')],
			'disk',
		);
		expect(fromZip.exitCode).toBe(0);
		const folderOut = await outDir();
		const fromFolder = await runCliCommand(
			createLtmCommand(openModel),
			['run', root, '--agent', 'a', '--out', folderOut],
			'disk',
		);
		const summary = async (dir: string) =>
			(JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8')) as { datasets: unknown })
				.datasets;
		expect(fromFolder.exitCode).toBe(0);
		expect(await summary(join(zipOut, 'out'))).toEqual(await summary(folderOut));
		expect(fromZip.stdout).toMatch(/accuracy/);
	});

	it('a broken zip is a located input error', async () => {
		const dir = await outDir();
		const zipPath = join(dir, 'broken.zip');
		await writeFile(zipPath, 'not a zip');
		const run = await runCliCommand(
			createLtmCommand(openModel),
			['run', zipPath, '--agent', 'a'],
			'disk',
		);
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toMatch(/broken\.zip: error: not a readable zip/);
	});
});
