// No CLI writer follows a symbolic link: a real link at a file's final path (under `ltm run --out`,
// `--record_path`, `--inspect_log`, `--battery-csv`) is refused with exit code 2 and a message
// naming the path, and the file it points to stays as it was; a link at a temporary file's path is
// replaced, never written through.
import {
	mkdir,
	mkdtemp,
	readFile,
	readdir,
	readlink,
	rm,
	symlink,
	writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ltmCommand } from '../../../src/cli/commands/ltm';
import { oaievalCommand } from '../../../src/cli/commands/oaieval';
import { runCommand } from '../../../src/cli/commands/run';
import {
	openNoFollowSync,
	replaceFileNoFollowSync,
	writeFileNoFollow,
} from '../../../src/cli/shared/safe-write';
import { runCliCommand } from '../run-cli-command';

const FIXTURES = new URL('../../fixtures/ltm/', import.meta.url).pathname;
const SUITE = new URL('../../../suites/subject-verb-agreement-pp.json', import.meta.url).pathname;
const VICTIM_TEXT = 'the victim, unchanged\n';

const temporary: string[] = [];
afterEach(async () => {
	await Promise.all(temporary.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A temporary folder with `victim.txt` and an empty `out/`. */
async function setUp(): Promise<{ root: string; out: string; victim: string }> {
	const root = await mkdtemp(join(tmpdir(), 'benchtop-safe-write-'));
	temporary.push(root);
	const out = join(root, 'out');
	await mkdir(out);
	const victim = join(root, 'victim.txt');
	await writeFile(victim, VICTIM_TEXT);
	return { root, out, victim };
}

const LTM_RUN = (out: string) => [
	'run',
	`${FIXTURES}tiny-definitions`,
	'--agent',
	`replay:${FIXTURES}always-ok.replay.jsonl`,
	'--out',
	out,
];

describe('ltm run --out: a link at a file it writes', () => {
	it.each([
		'summary.json',
		'Colours/0_0.json',
		'run-state.json',
		'run-tests.json',
		'run-log.jsonl',
		'master_log.jsonl',
		'runstats.json',
		'run-models.json',
	])(
		'%s → ../victim.txt is refused (exit 2, the path named), the victim untouched',
		async (name) => {
			const { out, victim } = await setUp();
			const link = join(out, ...name.split('/'));
			await mkdir(join(link, '..'), { recursive: true });
			await symlink(victim, link);
			const run = await runCliCommand(ltmCommand, LTM_RUN(out), 'disk');
			expect(run.exitCode).toBe(2);
			expect(run.stderr).toContain(`${link}: refused to write through a symbolic link`);
			expect(await readFile(victim, 'utf8')).toBe(VICTIM_TEXT);
			expect(await readlink(link)).toBe(victim);
		},
	);

	it('run-tests.json.tmp → ../victim.txt: the temporary file is made anew, the victim untouched', async () => {
		const { out, victim } = await setUp();
		await symlink(victim, join(out, 'run-tests.json.tmp'));
		const run = await runCliCommand(ltmCommand, LTM_RUN(out), 'disk');
		expect(run.exitCode).toBe(0);
		expect(await readFile(victim, 'utf8')).toBe(VICTIM_TEXT);
		expect(JSON.parse(await readFile(join(out, 'run-tests.json'), 'utf8'))).toHaveLength(3);
		expect((await readdir(out)).filter((file) => file.endsWith('.tmp'))).toEqual([]);
	});
});

describe('oaieval and run: a link at the file a flag names', () => {
	it.each(['--record_path', '--inspect_log'])('oaieval %s → victim is refused', async (flag) => {
		const { root, victim } = await setUp();
		const replay = join(root, 'capitals.jsonl');
		await writeFile(replay, `${JSON.stringify({ when: '', completion: 'Oslo' })}\n`);
		const link = join(root, 'log-link');
		await symlink(victim, link);
		const run = await runCliCommand(
			oaievalCommand,
			[`replay:${replay}`, 'capitals', '--max_samples', '2', flag, link],
			'disk',
		);
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toContain(`${link}: refused to write through a symbolic link`);
		expect(await readFile(victim, 'utf8')).toBe(VICTIM_TEXT);
	});

	it('run --battery-csv → victim is refused before the model loads', async () => {
		const { root, victim } = await setUp();
		const link = join(root, 'battery.csv');
		await symlink(victim, link);
		const run = await runCliCommand(
			runCommand,
			[SUITE, '--model', 'gpt2-random-tiny', '--threads', '1', '--battery-csv', link],
			'disk',
		);
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toContain(`${link}: refused to write through a symbolic link`);
		expect(run.stderr).not.toMatch(/scored/);
		expect(await readFile(victim, 'utf8')).toBe(VICTIM_TEXT);
	});
});

describe('safe-write', () => {
	it('writeFileNoFollow replaces a file whole and leaves no temporary file', async () => {
		const { out } = await setUp();
		const path = join(out, 'a.json');
		await writeFile(path, 'old');
		await writeFileNoFollow(path, 'new');
		expect(await readFile(path, 'utf8')).toBe('new');
		expect(await readdir(out)).toEqual(['a.json']);
	});

	it('replaceFileNoFollowSync takes the place of a temporary file left behind, or of a link there', async () => {
		const { out, victim } = await setUp();
		const path = join(out, 'state.json');
		await writeFile(`${path}.tmp`, 'left by a stopped run');
		replaceFileNoFollowSync(path, 'one', `${path}.tmp`);
		await symlink(victim, `${path}.tmp`);
		replaceFileNoFollowSync(path, 'two', `${path}.tmp`);
		expect(await readFile(path, 'utf8')).toBe('two');
		expect(await readdir(out)).toEqual(['state.json']);
		expect(await readFile(victim, 'utf8')).toBe(VICTIM_TEXT);
	});

	it.each(['append', 'truncate'] as const)('openNoFollowSync (%s) refuses a link', async (how) => {
		const { out, victim } = await setUp();
		const link = join(out, 'log.jsonl');
		await symlink(victim, link);
		expect(() => openNoFollowSync(link, how)).toThrow(
			`${link}: refused to write through a symbolic link (to ${victim})`,
		);
		expect(await readFile(victim, 'utf8')).toBe(VICTIM_TEXT);
	});
});
