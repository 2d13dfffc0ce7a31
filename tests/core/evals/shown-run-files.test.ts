// A shown Evals run to and from a file: imported from an oaieval log or a run bundle (with the
// page's words for a file it cannot read), and written back as an oaieval log.
import { describe, expect, it } from 'vitest';
import {
	buildEvalsRunBundle,
	serializeEvalsRunBundle,
} from '../../../src/core/evals/evals-run-bundle';
import { buildRunSpec, readOaievalLog, writeOaievalLog } from '../../../src/core/evals/oaieval-log';
import { readRegistry, registryFiles, resolveEval } from '../../../src/core/evals/registry';
import { runEval } from '../../../src/core/evals/run-eval';
import {
	importedRunOf,
	oaievalLogTextOf,
	unreadableLog,
} from '../../../src/core/evals/shown-run-files';
import type { TextModelSpec } from '../../../src/core/model/model-spec';
import { scriptedModel } from './scripted-model';

const evalSpec = resolveEval(
	readRegistry(
		registryFiles([
			[
				'evals/t.yaml',
				't.dev.v0:\n  class: evals.elsuite.basic.match:Match\n  args:\n    samples_jsonl: s.jsonl\n',
			],
			[
				'data/s.jsonl',
				'{"input": "Capital?", "ideal": "Paris"}\n{"input": "Sea?", "ideal": "Baltic"}\n',
			],
		]),
	),
	't.dev.v0',
);
const TINY: TextModelSpec = { source: 'bundled', id: 'tiny', dtype: 'fp32', backend: 'wasm' };

async function logText(): Promise<string> {
	const result = await runEval(evalSpec, {
		policy: [scriptedModel('m', () => 'Paris')],
		runId: 'r1',
		now: () => new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
	});
	const spec = buildRunSpec({
		completionFns: ['m'],
		evalSpec,
		runId: 'r1',
		createdAt: '2026-01-02 03:04:05+00:00',
		seed: 20220722,
		command: 'oaieval m t',
	});
	return writeOaievalLog({ spec, events: result.events, finalReport: result.finalReport });
}

describe('importedRunOf', () => {
	it('shows an oaieval log, and writes it back line for line', async () => {
		const text = await logText();
		const imported = importedRunOf(text, 'run.jsonl');
		if (!imported.ok) throw new Error(imported.message);
		expect(imported.fromBundle).toBe(false);
		expect(imported.shown).toMatchObject({ source: 'log', title: 't.dev.v0 (log run.jsonl)' });
		expect(imported.shown.rows).toHaveLength(2);
		expect(oaievalLogTextOf(imported.shown)).toBe(text);
	});

	it('shows a run bundle as a past run', () => {
		const bundle = buildEvalsRunBundle(
			{
				evalName: 't',
				spec: { registryFiles: {}, eval: evalSpec },
				models: { policy: [TINY] },
				overrides: { policy: {}, grader: {} },
				seed: 1,
				runId: 'r2',
				status: 'done',
				progress: { done: 0, total: 2, tokens: 0, elapsedMs: 0 },
				createdAt: 0,
				updatedAt: 0,
			},
			[],
		);
		const imported = importedRunOf(serializeEvalsRunBundle(bundle), 'run.json');
		if (!imported.ok) throw new Error(imported.message);
		expect(imported.fromBundle).toBe(true);
		expect(imported.shown.source).toBe('log');
		expect(imported.shown.runRecordId).toBeUndefined();
	});

	it('says where a run bundle is wrong', () => {
		const imported = importedRunOf('{"format": "benchtop-run/2", "kind": "evals"}', 'bad.json');
		expect(imported.ok).toBe(false);
		if (imported.ok) return;
		expect(imported.message).toMatch(
			/^That run bundle could not be read: bad\.json, at .+: .+\.$/u,
		);
	});

	it.each([
		['not JSON at all', 'hello'],
		['JSON lines without a spec', '{"run_id": "r"}\n'],
		['an empty file', ''],
	])('refuses %s as a log', (_, text) => {
		const imported = importedRunOf(text, 'x.jsonl');
		expect(imported.ok).toBe(false);
		if (imported.ok) return;
		expect(imported.message).toMatch(/^That log could not be read: ./u);
		expect(() => readOaievalLog(text, 'x.jsonl')).toThrow();
	});

	it('says a file that could not be read at all is unreadable', () => {
		expect(unreadableLog(new Error('The file is gone.'))).toEqual({
			ok: false,
			message: 'That log could not be read: The file is gone.',
		});
	});
});
