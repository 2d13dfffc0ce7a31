// MemorySession: bundled example cards, dropped definitions (an ltm-suite.json with located
// errors, a zip of upstream definitions), a run on a replay agent stored step by step with its
// report, and a cancelled run resumed by a new session (a "reload") to the same end.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { beforeEach, describe, expect, it } from 'vitest';
import {
	getLtmRun,
	getLtmState,
	listLtmRuns,
} from '../../../../src/storage/ltm/ltm-runs-repository';
import { EndpointSettings } from '../../../../src/ui/state/shared/endpoint-settings.svelte';
import { MemorySession } from '../../../../src/ui/state/ltm/memory-session.svelte';
import { FakeEngine } from '../../../../src/worker/fake-engine';
import { createInThreadClient } from '../../../../src/worker/inference-client';
import { clearDatabase } from '../../../storage/clear-database';
import { watchRunEndWrites } from '../../../support/run-end-writes';

beforeEach(clearDatabase);

const REPLAY_PATH = 'tests/fixtures/memory-ui/classroom-agent.replay.jsonl';
const EXAMPLE = 'classroom-basics.ltm-suite.json';

function session(): MemorySession {
	return new MemorySession({
		client: createInThreadClient(new FakeEngine()),
		endpoint: new EndpointSettings({ storage: null }),
		countTokens: () => Promise.resolve((text: string) => Math.ceil(text.length / 4)),
	});
}

function replayAgent(memory: MemorySession): void {
	memory.agent.kind = 'replay';
	memory.agent.replay = {
		name: 'classroom-agent.replay.jsonl',
		text: readFileSync(REPLAY_PATH, 'utf8'),
	};
}

describe('MemorySession definitions', () => {
	it('lists the bundled examples as cards and loads one', async () => {
		const memory = session();
		await memory.loadBundled();
		const card = memory.cards.find((entry) => entry.path === EXAMPLE);
		expect(card?.name).toBe('Classroom basics');
		expect(card?.testCount).toBe(5);
		await memory.selectCard(EXAMPLE);
		expect(memory.benchmark?.tests).toHaveLength(5);
		expect(memory.runProblem).toBeNull();
	});

	it('locates an error of a dropped ltm-suite.json by file and pointer', async () => {
		const memory = session();
		const suite = JSON.parse(readFileSync(`suites/memory/${EXAMPLE}`, 'utf8')) as {
			datasets: { examples: { is_question: unknown }[] }[];
		};
		suite.datasets[0]!.examples[0]!.is_question = 'yes';
		await memory.loadFiles([new File([JSON.stringify(suite)], 'broken.ltm-suite.json')]);
		expect(memory.benchmark).toBeNull();
		const located = memory.diagnostics.find((entry) => entry.severity === 'error');
		expect(located?.path).toBe('broken.ltm-suite.json');
		expect(located?.pointer).toContain('/datasets/0/examples/0');
		expect(memory.runProblem).toContain('errors');
	});

	it('reads a zip of upstream definitions (dataset folders and config.yml)', async () => {
		const root = 'tests/fixtures/ltm/tiny-definitions';
		const entries: Record<string, Uint8Array> = {};
		const walk = (folder: string): void => {
			for (const entry of readdirSync(folder, { withFileTypes: true })) {
				const path = join(folder, entry.name);
				if (entry.isDirectory()) walk(path);
				else entries[`tiny/${path.slice(root.length + 1)}`] = strToU8(readFileSync(path, 'utf8'));
			}
		};
		walk(root);
		const memory = session();
		await memory.loadFiles([new File([zipSync(entries)], 'tiny.zip')]);
		expect(memory.diagnostics.filter((entry) => entry.severity === 'error')).toEqual([]);
		const datasets = new Set(memory.benchmark?.tests.map((test) => test.datasetName));
		expect([...datasets].sort()).toEqual(['Colours', 'Names', 'Prospective Memory']);
	});

	it('names a broken zip (the core loadLtmZip reads it) and asks for a zip on its own', async () => {
		const memory = session();
		await memory.loadFiles([new File(['not a zip'], 'broken.zip')]);
		expect(memory.benchmark).toBeNull();
		expect(memory.diagnostics[0]?.path).toBe('broken.zip');
		expect(memory.diagnostics[0]?.message).toContain('not a readable zip');
		await memory.loadFiles([
			new File([zipSync({})], 'a.zip'),
			new File(['{}'], 'b.ltm-suite.json'),
		]);
		expect(memory.diagnostics[0]?.message).toContain('drop a zip on its own');
	});

	it('says when nothing dropped is a definition', async () => {
		const memory = session();
		await memory.loadFiles([new File(['hello'], 'notes.txt')]);
		expect(memory.benchmark).toBeNull();
		expect(memory.diagnostics[0]?.message).toContain('no definitions found');
	});
});

describe('MemorySession runs', () => {
	it('runs the example on a replay agent, stores it done with its summary, and exports', async () => {
		const memory = session();
		await memory.selectCard(EXAMPLE);
		replayAgent(memory);
		const ends = watchRunEndWrites(() => memory.running);
		await memory.run();
		ends.stop();
		expect(memory.message).toBeNull();
		const [stored] = await listLtmRuns();
		expect(stored?.status).toBe('done');
		// The end is stored while the page still reads as running (the Library refreshes when it
		// turns idle, and would read the run as interrupted before).
		expect(ends.writes).toEqual([{ status: 'done', runningAtWrite: true }]);
		expect(stored?.models.agent.source).toBe('replay');
		const report = memory.report;
		const score = (dataset: string): number | undefined =>
			report?.tests.find((test) => test.test.datasetName === dataset)?.result.score;
		// The replay file answers the three static questions right.
		expect(score('Favourite Fruit')).toBe(1);
		expect(score('Pet Names')).toBe(1);
		expect(score('Shopping')).toBe(1);
		expect(stored?.summary?.datasets['Favourite Fruit']?.mean).toBe(1);
		const zip = unzipSync(memory.resultsZip()!);
		expect(Object.keys(zip)).toContain('Favourite Fruit/0_0.json');
		expect(Object.keys(zip)).toContain('summary.json');
		expect(JSON.parse(memory.summaryText()!)).toEqual(JSON.parse(JSON.stringify(report!.summary)));
	});

	it('without a judge, a test graded by a model is named beforehand and skipped, not scored 0', async () => {
		const suite = {
			format: 'ltm-suite/1',
			config: { run_name: 'Judge needed', memory_span: 60 },
			datasets: [
				{
					name: 'Fact Recall',
					evaluator: { rule: 'llm_checklist' },
					examples: [
						{
							id: '0',
							script: ['The ferry leaves at noon.', 'When does the ferry leave?'],
							is_question: [false, true],
							expected_responses: ['at noon'],
						},
					],
				},
			],
		};
		const memory = session();
		await memory.loadFiles([new File([JSON.stringify(suite)], 'judge.ltm-suite.json')]);
		expect(memory.judgeNeededBy).toEqual(['Fact Recall - 0']);
		memory.agent.kind = 'replay';
		memory.agent.replay = { name: 'ok.jsonl', text: '{"when": "", "completion": "OK"}' };
		await memory.run();
		expect(memory.report?.tests).toEqual([]);
		expect(memory.report?.summary.skipped.map((entry) => entry.test)).toEqual(['Fact Recall - 0']);
		memory.useJudge = true;
		expect(memory.judgeNeededBy).toEqual([]);
		expect(memory.runProblem).toContain('Judge');
	});

	it('names dynamic tests with judge steps and the Restaurant built-in as needing a judge', async () => {
		const judge = { user: 'Did they say noon? {{last_reply}}', json_key: 'ok' };
		const suite = {
			format: 'ltm-suite/1',
			config: { run_name: 'Dynamic judges', memory_span: 300 },
			datasets: [
				{ name: 'Restaurant', evaluator: 'dynamic', examples: [{ type: 'restaurant' }] },
				{
					name: 'Ferry',
					evaluator: 'dynamic',
					examples: [
						{
							type: 'dynamic',
							id: 'judged',
							max_score: 1,
							steps: [{ say: 'When does the ferry leave?', question: true }, { check: { judge } }],
						},
						{
							type: 'dynamic',
							id: 'by-rule',
							max_score: 1,
							steps: [
								{ say: 'When does the ferry leave?', question: true },
								{ check: { contains: 'noon' } },
							],
						},
					],
				},
			],
		};
		const memory = session();
		await memory.loadFiles([new File([JSON.stringify(suite)], 'dynamic.ltm-suite.json')]);
		expect(memory.diagnostics.filter((entry) => entry.severity === 'error')).toEqual([]);
		expect([...memory.judgeNeededBy].sort()).toEqual(['Ferry - judged', 'Restaurant - 0']);
	});

	it('shares a finished run by link; a new session shows its scores, re-runs it and says they reproduced', async () => {
		const memory = session();
		await memory.selectCard(EXAMPLE);
		replayAgent(memory);
		memory.isolated = true;
		await memory.run();
		const hash = memory.shareHash()!;
		expect(hash).toMatch(/^#\/memory\/share\/2\/[A-Za-z0-9_-]+$/u);
		const other = session();
		other.openShare(hash.replace('#/memory/share/', ''));
		expect(other.message).toBeNull();
		expect(other.shared?.isolated).toBe(true);
		expect(other.shared?.models.agent.source).toBe('replay');
		const scores = other.shared!.scores;
		expect(Object.keys(scores).length).toBe(memory.state!.tests.length);
		expect(other.reproduction).toBeNull();
		await other.runShared();
		expect(other.shownRun?.status).toBe('done');
		expect(other.reproduction).toMatchObject({ reproduced: true, differing: [] });
		expect(other.reproduction?.matching).toBe(Object.keys(scores).length);

		other.openShare(hash.replace('#/memory/share/', '').slice(0, 40));
		expect(other.shared).toBeNull();
		expect(other.message).toContain('copy the whole link');
	});

	it('streams the live agent reply: its text grows token by token before the reply is done', async () => {
		const memory = new MemorySession({
			client: createInThreadClient(new FakeEngine({ batchDelayMs: 15 })),
			endpoint: new EndpointSettings({ storage: null }),
			countTokens: () => Promise.resolve((text: string) => Math.ceil(text.length / 4)),
		});
		const suite = {
			format: 'ltm-suite/1',
			config: { run_name: 'Streaming', memory_span: 40 },
			datasets: [
				{
					name: 'Colours',
					evaluator: 'colours',
					examples: [
						{
							script: ['My favourite colour is red.', 'What is my favourite colour?'],
							is_question: [false, true],
							expected_responses: ['red'],
						},
					],
				},
			],
		};
		await memory.loadFiles([new File([JSON.stringify(suite)], 'stream.ltm-suite.json')]);
		expect(memory.agent.kind).toBe('local');
		expect(memory.diagnostics).toEqual([]);
		expect(memory.runProblem).toBeNull();
		const seen: { testId: string; text: string }[] = [];
		const watch = setInterval(() => {
			const live = memory.live;
			if (live && live.text !== '' && live.text !== seen.at(-1)?.text) seen.push({ ...live });
		}, 1);
		try {
			await memory.run();
		} finally {
			clearInterval(watch);
		}
		expect(memory.message).toBeNull();
		expect(memory.shownRun?.status).toBe('done');
		expect(memory.live).toBeNull();
		// Some reply was seen part-written and then longer, the earlier text its beginning.
		const grew = seen.some(
			(earlier, index) =>
				seen[index + 1]?.testId === earlier.testId &&
				seen[index + 1]!.text.length > earlier.text.length &&
				seen[index + 1]!.text.startsWith(earlier.text),
		);
		expect(grew).toBe(true);
		// Replies are labelled by what they answer: the intro, then the test's own lines.
		expect([...new Set(seen.map((entry) => entry.testId))]).toEqual(['intro', 'Colours - 0']);
		// The question's reply as stored begins with the last text seen streaming for it (the poll
		// may miss the final token).
		const reply = memory.state?.outcomes['Colours - 0']?.responses[0];
		expect(reply).toBeDefined();
		expect(reply!.trim().startsWith(seen.at(-1)!.text.trim())).toBe(true);
	});

	it('compares the shown finished run with another one, dataset by dataset', async () => {
		const memory = session();
		await memory.selectCard(EXAMPLE);
		replayAgent(memory);
		await memory.run();
		const first = memory.shownRun!;
		memory.agent.replay = {
			name: 'always-ok.replay.jsonl',
			text: readFileSync('tests/fixtures/ltm/always-ok.replay.jsonl', 'utf8'),
		};
		await memory.run();
		await memory.compareWith(first.id);
		const comparison = memory.comparison!;
		expect(comparison.a.models.agent).toMatchObject({ file: 'always-ok.replay.jsonl' });
		expect(comparison.b.id).toBe(first.id);
		expect(comparison.a.summary?.datasets['Favourite Fruit']?.mean).toBe(0);
		expect(comparison.b.summary?.datasets['Favourite Fruit']?.mean).toBe(1);
		memory.closeComparison();
		expect(memory.comparison).toBeNull();
	});

	it('resumes a cancelled run in a new session to the same conversation as a whole run', async () => {
		const whole = session();
		await whole.selectCard(EXAMPLE);
		replayAgent(whole);
		await whole.run();
		const wholeLog = whole.state!.log.map((entry) => entry.text);

		const first = session();
		await first.selectCard(EXAMPLE);
		replayAgent(first);
		const running = first.run();
		// Cancel once a few replies are stored.
		await new Promise<void>((resolve) => {
			const check = (): void => {
				if ((first.state?.log.length ?? 0) >= 6) {
					first.cancel();
					resolve();
				} else setTimeout(check, 0);
			};
			check();
		});
		await running;
		const runs = await listLtmRuns();
		const cancelled = runs.find((run) => run.status === 'cancelled');
		expect(cancelled).toBeDefined();
		const storedState = await getLtmState(cancelled!.id);
		expect(storedState!.log.length).toBeLessThan(wholeLog.length);

		const reloaded = session();
		await reloaded.refreshRuns();
		expect(reloaded.resumable.map((run) => run.id)).toEqual([cancelled!.id]);
		await reloaded.resume(cancelled!.id);
		expect((await getLtmRun(cancelled!.id))?.status).toBe('done');
		expect(reloaded.state!.log.map((entry) => entry.text)).toEqual(wholeLog);
	});
});

describe('MemorySession run bundle', () => {
	it('exports a finished run as a run bundle; a fresh session imports it with the same scores', async () => {
		const memory = session();
		await memory.selectCard(EXAMPLE);
		replayAgent(memory);
		await memory.run();
		const report = memory.report;
		expect(report?.tests.length).toBeGreaterThan(0);
		const text = memory.bundleText();
		expect(text).not.toBeNull();
		await clearDatabase();
		const fresh = session();
		await fresh.importBundle(new File([text ?? ''], 'classroom.ltm-run.json'));
		expect(fresh.message).toBeNull();
		expect(fresh.shownIsImported).toBe(true);
		expect(fresh.shownRun?.status).toBe('done');
		expect(fresh.shownRun?.models.agent.source).toBe('replay');
		expect(fresh.report?.summary).toEqual(report?.summary);
		expect(fresh.report?.tests.map((test) => [test.path, test.result.score])).toEqual(
			report?.tests.map((test) => [test.path, test.result.score]),
		);
		expect(JSON.parse(fresh.summaryText()!)).toEqual(JSON.parse(memory.summaryText()!));
		// Nothing was stored by the import; a share link needs a stored run's replay texts.
		expect(await listLtmRuns()).toEqual([]);

		await fresh.importBundle(
			new File([text?.replace('"isolated": false', '"isolated": "no"') ?? ''], 'edited.json'),
		);
		expect(fresh.message).toMatch(
			/edited\.json, at \/run\/(definitions\/benchmark\/config\/)?isolated/,
		);

		// A file over the run-file cap is refused by its size, before its text is read.
		const huge = {
			name: 'huge.json',
			size: 300_000_000,
			text: () => Promise.reject(new Error('the text of a huge file was read')),
		} as unknown as File;
		await fresh.importBundle(huge);
		expect(fresh.message).toBe(
			'huge.json is too large to be a run bundle (286 MiB; Benchtop reads at most 191 MiB).',
		);
	});
});
