// A replay agent drives the bundled memory tests (issue 18: replay answers the newest message).
// Its `when` lines name each test's question; since a line matches only the message being
// answered, an earlier question still in the conversation never answers a later call.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLtmCommand, ltmCommand } from '../../src/cli/commands/ltm';
import { openTextModel } from '../../src/providers/open-model';
import { runCliCommand } from './run-cli-command';

const dir = mkdtempSync(join(tmpdir(), 'benchtop-ltm-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ANSWERS = [
	{ when: 'Which fruit do I like best', completion: 'Your favourite fruit is the plum.' },
	{ when: 'Name all of my pets', completion: '["Pixel", "Clover", "Bubbles"]' },
	{ when: 'What is on my shopping list', completion: '[{"item": "apple", "quantity": 6}]' },
	{ when: '', completion: 'Noted.' },
];

describe('ltm run with a replay agent on suites/memory/classroom-basics.ltm-suite.json', () => {
	it('answers each question from its own line, in whatever order the tests interleave', async () => {
		const replay = join(dir, 'agent.jsonl');
		writeFileSync(replay, ANSWERS.map((line) => JSON.stringify(line)).join('\n'));
		const out = join(dir, 'out');
		const run = await runCliCommand(
			ltmCommand,
			[
				'run',
				'suites/memory/classroom-basics.ltm-suite.json',
				'--agent',
				`replay:${replay}`,
				'--out',
				out,
			],
			'disk',
		);
		expect(run.exitCode, run.stderr).toBe(0);
		const result = (dataset: string) =>
			JSON.parse(readFileSync(join(out, dataset, '0_0.json'), 'utf8')) as {
				score: number;
				max_score: number;
			};
		for (const dataset of ['Favourite Fruit', 'Pet Names', 'Shopping']) {
			const { score, max_score: maxScore } = result(dataset);
			expect(score, dataset).toBe(maxScore);
		}
	});
});

describe('ltm run --concurrency (issue 20: every command that calls endpoints)', () => {
	it('passes the limit to every model it opens, and refuses 0', async () => {
		const seen: (number | undefined)[] = [];
		const replay = join(dir, 'ok.jsonl');
		writeFileSync(replay, JSON.stringify({ when: '', completion: 'OK' }));
		const command = createLtmCommand(async (spec, options) => {
			seen.push(options.concurrency);
			return openTextModel(spec, options);
		});
		const args = [
			'run',
			'suites/memory/classroom-basics.ltm-suite.json',
			'--agent',
			`replay:${replay}`,
			'--judge',
			`replay:${replay}`,
			'--out',
			join(dir, 'conc'),
		];
		const run = await runCliCommand(command, [...args, '--concurrency', '3'], 'disk');
		expect(run.exitCode, run.stderr).toBe(0);
		expect(seen).toEqual([3, 3]);
		const refused = await runCliCommand(command, [...args, '--concurrency', '0'], 'disk');
		expect(refused.exitCode).toBe(2);
		expect(refused.stderr).toMatch(/--concurrency must be/);
	});
});
