// `ltm run --out data/tests/<run>/results/<agent>` next to upstream's definitions (the peer copy,
// read at test time, never copied into the repo) leaves what GoodAI's reporting/generate.py reads:
// result files found by its glob and parsed as TestResult, task_log lines its regex accepts,
// runstats.json with agent_tokens / duration / agent_costs_usd. Also --base-url and the fit check.
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createLtmCommand, type OpenModel } from '../../src/cli/commands/ltm';
import type { GenerateRequest, GenerationEvent, TextModel } from '../../src/core/model/generation';
import { countCl100kTokens } from '../../src/providers/token-count';
import { runCliCommand } from './run-cli-command';

const PEER = fileURLToPath(
	new URL('../../../shared/peer/evals/ltm-benchmark/benchmark-3-1k-definitions/', import.meta.url),
);
const present = existsSync(`${PEER}config.yml`);
if (!present) {
	if (process.env.CI === 'true') throw new Error(`parity data missing under CI: ${PEER}`);
	console.warn(
		'parity data absent, skipping: ../shared/peer/evals/ltm-benchmark/benchmark-3-1k-definitions',
	);
}
const MEMORY_SUITES = new URL('../../suites/memory/', import.meta.url).pathname;

/** generate.py `formatted_log`'s pattern, which it asserts on every task_log line. */
const UPSTREAM_TASK_LOG = /^((Test|Agent) (\(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\))?:)/;
/** TestResult `_saved_attrs`: the keys `TestResult.load` reads. */
const SAVED_ATTRS = [
	'task_log',
	'actual_responses',
	'score',
	'max_score',
	'reasoning',
	'tokens',
	'characters',
	'full_log',
	'expected_responses',
];

/** An agent that takes a millisecond a reply and answers in non-ASCII words. */
function slowAgent(label = 'test:agent', maxPositions?: number): TextModel {
	const model: TextModel & { info?: { maxPositions: number } } = {
		label,
		abilities: { score: false, generate: true, chat: true },
		async *generate(request: GenerateRequest): AsyncGenerator<GenerationEvent> {
			if (request.prompt.kind !== 'chat') throw new Error('chat expected');
			await new Promise((resolve) => setTimeout(resolve, 1));
			yield { type: 'done', completion: 'Noté — d’accord.', finishReason: 'stop' };
		},
		countTokens: countCl100kTokens,
	};
	if (maxPositions !== undefined) model.info = { maxPositions };
	return model;
}

const temporary: string[] = [];
afterEach(async () => {
	await Promise.all(temporary.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
	const dir = await mkdtemp(join(tmpdir(), 'benchtop-goodai-'));
	temporary.push(dir);
	return dir;
}

/** generate.py's `gather_result_files` glob `<agent>/*\/*_*.json` and `parse_result_path`. */
async function gatherResultFiles(
	agentDir: string,
): Promise<{ path: string; dataset: string; exampleId: string; repetition: number }[]> {
	const found = [];
	for (const dataset of await readdir(agentDir)) {
		if (!(await stat(join(agentDir, dataset))).isDirectory()) continue;
		for (const name of await readdir(join(agentDir, dataset))) {
			if (!/^.*_.*\.json$/.test(name)) continue;
			const parts = name.replace(/\.json$/, '').split('_');
			const repetition = Number(parts.at(-1));
			expect(Number.isInteger(repetition)).toBe(true);
			found.push({
				path: join(agentDir, dataset, name),
				dataset,
				exampleId: parts.slice(0, -1).join('_'),
				repetition,
			});
		}
	}
	return found;
}

describe.skipIf(!present)('ltm run --out for GoodAI reporting', () => {
	it('leaves result files, runstats.json and master_log.jsonl as upstream reporting reads them', async () => {
		const data = await tempDir();
		const run = join(data, 'tests', 'Benchmark 3 - 1k');
		const definitions = join(run, 'definitions');
		await mkdir(definitions, { recursive: true });
		await cp(join(PEER, 'config.yml'), join(definitions, 'config.yml'));
		for (const dataset of ['Colours', 'NameList', 'Prospective_Memory'])
			await cp(join(PEER, dataset), join(definitions, dataset), { recursive: true });
		const agentDir = join(run, 'results', 'SlowAgent');
		const openModel: OpenModel = async () => ({
			model: slowAgent(),
			close: async () => undefined,
		});
		const result = await runCliCommand(
			createLtmCommand(openModel),
			['run', definitions, '--agent', 'slow', '--out', agentDir],
			'disk',
		);
		expect(result.exitCode).toBe(0);

		const files = await gatherResultFiles(agentDir);
		expect(files).toHaveLength(9);
		// Result folders carry the datasets' names (upstream `dataset_generator.name`, the keys of
		// its DATASETS_BY_NAME), not the definitions' folder names.
		expect(new Set(files.map((file) => file.dataset))).toEqual(
			new Set(['Colours', 'NameList', 'Prospective Memory']),
		);
		for (const file of files) {
			const text = await readFile(file.path, 'utf8');
			expect(text).toMatch(/^[\x20-\x7e\n]*$/);
			expect(text).toMatch(/\n {2}"score": \d+\.\d+,\n {2}"max_score": 1,\n/);
			const saved = JSON.parse(text) as Record<string, unknown>;
			for (const key of SAVED_ATTRS) expect(saved).toHaveProperty(key);
			for (const line of saved.task_log as string[]) expect(line).toMatch(UPSTREAM_TASK_LOG);
			expect(
				(saved.actual_responses as string[]).every((reply) => reply === 'Noté — d’accord.'),
			).toBe(true);
			expect(Number(saved.score) / Number(saved.max_score)).toBeGreaterThanOrEqual(0);
		}

		// get_summary_data: speed = len(results) / (duration / 3600), cost, verbosity.
		const runstats = JSON.parse(await readFile(join(agentDir, 'runstats.json'), 'utf8')) as Record<
			string,
			number
		>;
		expect(runstats.duration).toBeGreaterThan(0);
		expect(Number.isInteger(runstats.agent_tokens)).toBe(true);
		expect(runstats.agent_tokens).toBeGreaterThan(0);
		expect(typeof runstats.agent_costs_usd).toBe('number');

		const master = (await readFile(join(agentDir, 'master_log.jsonl'), 'utf8'))
			.trimEnd()
			.split('\n');
		const events = master.map((line) => JSON.parse(line) as { type: number; test_id: string });
		expect(
			events
				.filter((event) => event.type === 1)
				.map((event) => event.test_id)
				.sort(),
		).toEqual(files.map((file) => `${file.dataset} - ${file.exampleId}`).sort());
		expect(events.filter((event) => event.type === 2)).toHaveLength(9);
		// Ours stays beside them, outside the glob.
		expect(await readdir(agentDir)).toContain('summary.json');
	});
});

describe('ltm run --base-url and the fit check', () => {
	it('passes --base-url to the models it opens', async () => {
		const seen: unknown[] = [];
		const openModel: OpenModel = async (spec, options) => {
			seen.push([spec, options.baseUrl]);
			return { model: slowAgent(), close: async () => undefined };
		};
		const result = await runCliCommand(
			createLtmCommand(openModel),
			[
				'run',
				`${MEMORY_SUITES}classroom-basics.ltm-suite.json`,
				'--agent',
				'openai/a',
				'--judge',
				'openai/j',
				'--base-url',
				'http://127.0.0.1:9/v1',
			],
			'disk',
		);
		expect(result.exitCode).toBe(0);
		expect(seen).toEqual([
			['openai/a', 'http://127.0.0.1:9/v1'],
			['openai/j', 'http://127.0.0.1:9/v1'],
		]);
	});

	it('stops before the run when a prompt cannot fit, naming the model, the prompt and the fix', async () => {
		let generated = 0;
		const openModel: OpenModel = async (spec) => {
			const model = slowAgent(spec, 512);
			const generate = model.generate.bind(model);
			return {
				model: {
					...model,
					generate: (...args: Parameters<TextModel['generate']>) => {
						generated++;
						return generate(...args);
					},
				},
				close: async () => undefined,
			};
		};
		const args = [
			'run',
			`${MEMORY_SUITES}restaurant.ltm-suite.json`,
			'--agent',
			'small-agent',
			'--judge',
			'small-judge',
		];
		const first = await runCliCommand(createLtmCommand(openModel), args, 'disk');
		expect(first.exitCode).not.toBe(0);
		expect(first.stderr).toMatch(
			/The agent small-agent attends to 512 positions, but the whole conversation/,
		);
		expect(first.stderr).toMatch(/--context-tokens \d+/);
		const second = await runCliCommand(
			createLtmCommand(openModel),
			[...args, '--context-tokens', '300', '--max-message-tokens', '64'],
			'disk',
		);
		expect(second.exitCode).not.toBe(0);
		expect(second.stderr).not.toMatch(/The agent/);
		expect(second.stderr).toMatch(
			/The judge small-judge attends to 512 positions, but the first judge prompt of Restaurant - 0 .* use a judge that attends to more than \d+ positions/,
		);
		expect(generated).toBe(0);
	});
});
