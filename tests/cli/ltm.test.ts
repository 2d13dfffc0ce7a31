// `ltm run` end to end: definitions folder and ltm-suite.json, result files in upstream's layout,
// summary and table, located errors; agents are in-test TextModels or a real `replay:` file.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { createLtmCommand, ltmCommand, type OpenModel } from '../../src/cli/commands/ltm';
import { loadLtmSuite } from '../../src/core/ltm';
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
			'run-state.json',
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
			/^Test \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\): My favourite colour is teal\.$/,
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
			const state = JSON.parse(await readFile(join(out, 'run-state.json'), 'utf8')) as {
				log: { role: string; text: string; tokens: number }[];
			};
			const lines = state.log.filter((entry) => entry.role !== 'system');
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
