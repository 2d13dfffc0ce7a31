// The files `ltm run --out` keeps: the log appended every step, the checkpoint replaced after
// every step that asked a model (replayable steps at most CHECKPOINT_DELAY_MS late), and a resume
// that reads them back to the state of the last checkpoint.
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
	CHECKPOINT_DELAY_MS,
	LtmRunFilesWriter,
	readLtmRunFiles,
} from '../../../src/cli/shared/ltm-run-files';
import { runLtm, type LtmRunEvent, type LtmRunState } from '../../../src/core/ltm';
import { defaultWaits } from '../../../src/core/ltm/definitions';
import type { LtmBenchmark } from '../../../src/core/ltm/shared/types';
import type { GenerationEvent, TextModel } from '../../../src/core/model/generation';

const temporary: string[] = [];
afterEach(async () => {
	await Promise.all(temporary.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const words = (text: string): number => text.split(/\s+/).filter(Boolean).length;

const BENCHMARK: LtmBenchmark = {
	config: { runName: 't', memorySpan: 400, incompatibilities: [], isolated: false },
	tests: [
		{
			uniqueId: 'Colours - 0',
			datasetName: 'Colours',
			exampleId: '0',
			configName: 'colours',
			evaluator: 'colours',
			description: '',
			resetMessage: '',
			script: ['My favourite colour is teal.', 'What is my favourite colour?'],
			isQuestion: [false, true],
			waits: defaultWaits(2),
			expectedResponses: ['teal'],
			isTemporal: false,
			usesCallback: false,
			canBeInterleaved: true,
			source: 'test',
		},
	],
};

const agent: TextModel = {
	label: 'teal',
	abilities: { score: false, generate: true, chat: true },
	async *generate(): AsyncGenerator<GenerationEvent> {
		yield { type: 'done', completion: 'teal', finishReason: 'stop' };
	},
	countTokens: words,
};

/** Every event of a whole run (its states share one log, so each is copied). */
async function events(): Promise<{ event: LtmRunEvent; state: LtmRunState }[]> {
	const seen: { event: LtmRunEvent; state: LtmRunState }[] = [];
	await runLtm(BENCHMARK, {
		agent,
		environment: { countTokens: words },
		now: () => 0,
		maxMessageTokens: 40,
		onEvent: (event) => {
			seen.push({ event, state: JSON.parse(JSON.stringify(event.state)) as LtmRunState });
		},
	});
	return seen;
}

const isCanned = (event: LtmRunEvent) =>
	event.action.kind === 'send' && event.action.cannedReply !== undefined;

async function savedLogLength(out: string): Promise<number> {
	return JSON.parse(await readFile(join(out, 'run-state.json'), 'utf8')).logLength as number;
}

describe('LtmRunFilesWriter', () => {
	it('checkpoints model steps at once, replayable steps at most CHECKPOINT_DELAY_MS late, the rest on close', async () => {
		const out = await mkdtemp(join(tmpdir(), 'benchtop-ltm-files-'));
		temporary.push(out);
		const run = await events();
		expect(run.filter(({ event }) => isCanned(event)).length).toBeGreaterThan(2);
		let clock = 0;
		let checkpointedAt = 0;
		let deferred = 0;
		const writer = new LtmRunFilesWriter(out, () => clock);
		for (const { event, state } of run) {
			const before = (await readdir(out)).includes('run-state.json')
				? await savedLogLength(out)
				: 0;
			writer.save(state, event.logFrom, isCanned(event));
			const lines = (await readFile(join(out, 'run-log.jsonl'), 'utf8')).split('\n');
			expect(lines.length - 1).toBe(state.log.length);
			const due = !isCanned(event) || clock - checkpointedAt >= CHECKPOINT_DELAY_MS;
			expect(await savedLogLength(out)).toBe(due ? state.log.length : before);
			if (due) checkpointedAt = clock;
			else deferred++;
			clock += CHECKPOINT_DELAY_MS / 4;
		}
		expect(deferred).toBeGreaterThan(0);
		writer.close();
		const last = run.at(-1)!.state;
		expect(await savedLogLength(out)).toBe(last.log.length);
		expect(await readLtmRunFiles(out)).toEqual(last);
	});

	it('a replayable step after CHECKPOINT_DELAY_MS is checkpointed', async () => {
		const out = await mkdtemp(join(tmpdir(), 'benchtop-ltm-files-'));
		temporary.push(out);
		const run = await events();
		let clock = 0;
		const writer = new LtmRunFilesWriter(out, () => clock);
		for (const { event, state } of run) {
			writer.save(state, event.logFrom, isCanned(event));
			expect(await savedLogLength(out)).toBe(state.log.length);
			clock += CHECKPOINT_DELAY_MS;
		}
		writer.close();
	});
});
