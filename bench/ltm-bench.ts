/**
 * Wall time of `ltm run` with a no-op replay agent (every reply "OK") on the peer's 1k-token
 * definitions, at memory spans of 128k and 500k tokens: the cost of scheduling, counting tokens
 * and saving the state after every step (resume files in a temporary --out), no model time.
 * Part of `npm run bench` (part `ltm`); run alone with `npx tsx bench/ltm-bench.ts`.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ltmCommand } from '../src/cli/commands/ltm';

/** The peer's definitions (`../shared/peer` beside the repository). */
export const LTM_DEFINITIONS = new URL(
	'../shared/peer/evals/ltm-benchmark/benchmark-3-1k-definitions/',
	new URL('../', import.meta.url),
);

export interface LtmBench {
	readonly ltm_replay_128k_wall_s: number | null;
	readonly ltm_replay_500k_wall_s: number | null;
	/** Why the figures are null (the peer definitions are absent), else null. */
	readonly ltm_replay_skipped: string | null;
}

/** Seconds of one `ltm run` at `memorySpan` (output discarded, files in a temporary folder). */
async function timeRun(definitions: string, replay: string, memorySpan: number): Promise<number> {
	const out = await mkdtemp(join(tmpdir(), 'benchtop-ltm-bench-'));
	try {
		const args = ['run', definitions, '--agent', `replay:${replay}`];
		args.push('--memory-span', String(memorySpan), '--out', out);
		const started = performance.now();
		const code = await ltmCommand(args, {
			stdout: () => undefined,
			stderr: () => undefined,
			readText: (path) => readFile(path, 'utf8'),
		});
		const seconds = (performance.now() - started) / 1000;
		if (code !== 0) throw new Error(`ltm run exited with ${code}`);
		return Math.round(seconds * 100) / 100;
	} finally {
		await rm(out, { recursive: true, force: true });
	}
}

/** The two figures, or nulls with the reason when the peer definitions are absent. */
export async function benchLtmReplay(): Promise<LtmBench> {
	const definitions = LTM_DEFINITIONS.pathname;
	if (!(await stat(definitions).catch(() => undefined))?.isDirectory()) {
		return {
			ltm_replay_128k_wall_s: null,
			ltm_replay_500k_wall_s: null,
			ltm_replay_skipped: `${definitions} is absent`,
		};
	}
	const folder = await mkdtemp(join(tmpdir(), 'benchtop-ltm-replay-'));
	try {
		const replay = join(folder, 'ok.replay.jsonl');
		await writeFile(replay, '{"when": "", "completion": "OK"}\n');
		return {
			ltm_replay_128k_wall_s: await timeRun(definitions, replay, 128_000),
			ltm_replay_500k_wall_s: await timeRun(definitions, replay, 500_000),
			ltm_replay_skipped: null,
		};
	} finally {
		await rm(folder, { recursive: true, force: true });
	}
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
	process.stdout.write(`${JSON.stringify(await benchLtmReplay())}\n`);
}
