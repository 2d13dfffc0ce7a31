// EvalsSession over the in-thread inference client and FakeEngine (whose greedy completions are
// words each preceded by a space): registry inputs and located problems, a run stored sample by
// sample, the log export, and resume after a "reload" (a new session) without calling the model
// again for finished samples.
import { beforeEach, describe, expect, it } from 'vitest';
import { maxTokensNote, readOaievalLog, type InspectEvalLog } from '../../../../src/core/evals';
import { createMemoryResponseCache } from '../../../../src/providers/response-cache';
import { db } from '../../../../src/storage/shared/db';
import {
	getEvalsRun,
	listEvalsRuns,
	updateEvalsRun,
} from '../../../../src/storage/evals/evals-runs-repository';
import { EndpointSettings } from '../../../../src/ui/state/shared/endpoint-settings.svelte';
import { EvalsSession } from '../../../../src/ui/state/evals/evals-session.svelte';
import { FakeEngine } from '../../../../src/worker/fake-engine';
import { createInThreadClient } from '../../../../src/worker/inference-client';
import type { InferenceClientApi } from '../../../../src/worker/protocol';
import { clearDatabase } from '../../../storage/clear-database';
import { watchRunEndWrites } from '../../../support/run-end-writes';

beforeEach(clearDatabase);

/** A client that counts generate calls. */
function countingClient(): { client: InferenceClientApi; generateCalls: () => number } {
	const inner = createInThreadClient(new FakeEngine());
	let calls = 0;
	const client: InferenceClientApi = {
		call: (kind, params, options) => {
			if (kind === 'generate') calls += 1;
			return inner.call(kind, params, options);
		},
		dispose: () => inner.dispose(),
	};
	return { client, generateCalls: () => calls };
}

/** A session with its own in-memory response cache (so only stored samples make calls free). */
function session(client: InferenceClientApi): EvalsSession {
	return new EvalsSession({
		client,
		endpoint: new EndpointSettings({ storage: null }),
		cache: createMemoryResponseCache(),
	});
}

// Every fake completion starts with a space: the first ideal matches, the others cannot.
const SAMPLES = [
	{ input: 'Say anything.', ideal: ' ' },
	{ input: 'Capital of France?', ideal: 'Paris' },
	{ input: [{ role: 'user', content: 'Capital of Peru?' }], ideal: ['Lima', 'lima'] },
]
	.map((sample) => JSON.stringify(sample))
	.join('\n');

describe('EvalsSession registry input', () => {
	it('locates a bad pasted line by file and line', () => {
		const evals = session(countingClient().client);
		evals.pasteText = '{"input": "a", "ideal": "b"}\n{"input": "c", ideal}\n';
		evals.loadPasted();
		expect(evals.resolved).toBeNull();
		const located = evals.problems.find((problem) => problem.location);
		expect(located?.location).toMatchObject({ file: 'data/pasted.jsonl', line: 2 });
	});

	it('reads dropped YAML and JSONL files as one registry and picks its only eval', async () => {
		const evals = session(countingClient().client);
		const yaml =
			'capitals:\n  id: capitals.dev.v0\ncapitals.dev.v0:\n  class: evals.elsuite.basic.match:Match\n  args:\n    samples_jsonl: capitals.jsonl\n';
		await evals.loadFiles([new File([yaml], 'capitals.yaml')]);
		// The samples are missing: the problem names the eval file.
		expect(evals.problems.length).toBeGreaterThan(0);
		expect(evals.problems.map((problem) => problem.message).join('\n')).toContain('capitals');
		await evals.loadFiles([new File([SAMPLES], 'capitals.jsonl')]);
		expect(evals.problems).toEqual([]);
		expect(evals.evalNames).toEqual(['capitals', 'capitals.dev.v0']);
		evals.select('capitals');
		expect(evals.resolved?.samples).toHaveLength(3);
		expect(evals.upstream?.policy).toEqual({ temperature: 0 });
	});

	it('adds dropped files to the loaded registry; a broken YAML is reported once and the evals stay', async () => {
		const evals = session(countingClient().client);
		const evalYaml = (name: string) =>
			`${name}:\n  id: ${name}.dev.v0\n${name}.dev.v0:\n  class: evals.elsuite.basic.match:Match\n  args:\n    samples_jsonl: ${name}.jsonl\n`;
		await evals.loadFiles([
			new File([evalYaml('capitals')], 'capitals.yaml'),
			new File([SAMPLES], 'capitals.jsonl'),
		]);
		await evals.loadFiles([
			new File([evalYaml('rivers')], 'rivers.yaml'),
			new File([SAMPLES], 'rivers.jsonl'),
		]);
		expect(evals.problems).toEqual([]);
		expect(evals.evalChoices.map((choice) => choice.name)).toEqual(['capitals', 'rivers']);
		await evals.loadFiles([
			new File(['broken:\n  id: broken.dev.v0\n  class: a: b\n'], 'broken.yaml'),
		]);
		expect(evals.problems).toHaveLength(1);
		expect(evals.problems[0]?.location).toMatchObject({ file: 'evals/broken.yaml', line: 3 });
		expect(evals.problems[0]?.message).not.toContain('broken.yaml');
		expect(evals.evalChoices.map((choice) => choice.name)).toEqual(['capitals', 'rivers']);
		evals.select('rivers');
		expect(evals.resolved?.samples).toHaveLength(3);
	});

	it('says what to drop when no file is a registry file', async () => {
		const evals = session(countingClient().client);
		await evals.loadFiles([new File(['hello'], 'notes.txt')]);
		expect(evals.problems[0]?.message).toMatch(/No registry files found/);
	});
});

describe('EvalsSession runs', () => {
	// Issue 30 item 9: a template that passes no max_tokens (Match) gets the app default, 256, the
	// same on the local engine and an endpoint, and the run header says so and marks the run.
	it('a Match run without a setting sends max_tokens 256; the header states it and the parity mark', async () => {
		const inner = createInThreadClient(new FakeEngine());
		const sent: unknown[] = [];
		const client: InferenceClientApi = {
			call: (kind, params, options) => {
				if (kind === 'generate') sent.push((params as { params: unknown }).params);
				return inner.call(kind, params, options);
			},
			dispose: () => inner.dispose(),
		};
		const evals = session(client);
		evals.pasteText = SAMPLES;
		evals.loadPasted();
		evals.policy.kind = 'local';
		await evals.run();
		expect(sent).toEqual(Array(3).fill({ temperature: 0, max_tokens: 256 }));
		const entry = evals.shown?.paramsSent[0];
		expect(entry?.maxTokens).toEqual({ value: 256, source: 'app default', template: null });
		expect(entry && maxTokensNote(entry.maxTokens)).toBe(
			'max_tokens 256 (app default: the template sends none)',
		);
		expect(evals.shown?.parityMarks).toEqual(['parity: provider default replaced']);
	});

	it('runs a pasted Match eval on a local model, stores every sample, and exports a log', async () => {
		const { client, generateCalls } = countingClient();
		const evals = session(client);
		evals.pasteText = SAMPLES;
		evals.loadPasted();
		evals.policy.kind = 'local';
		evals.setOverride('policy', 'max_tokens', 4);
		expect(evals.runProblem).toBeNull();
		const ends = watchRunEndWrites(() => evals.running);
		await evals.run();
		ends.stop();
		// The end is stored while the page still reads as running (see run-end-writes.ts).
		expect(ends.writes).toEqual([{ status: 'done', runningAtWrite: true }]);
		expect(generateCalls()).toBe(3);
		expect(evals.progress).toMatchObject({ done: 3, total: 3 });
		const shown = evals.shown;
		expect(shown?.status).toBe('done');
		expect(shown?.report?.accuracy).toBeCloseTo(1 / 3, 12);
		expect(shown?.report).toHaveProperty('boostrap_std');
		expect(shown?.rows).toHaveLength(3);
		// The override was sent: four tokens, each a space and a word.
		for (const row of shown?.rows ?? []) expect(row.completion.split(' ')).toHaveLength(5);
		expect(shown?.paramsSent[0]?.params).toEqual({ temperature: 0, max_tokens: 4 });
		const log = readOaievalLog(evals.logText() ?? '', 'run.jsonl');
		expect(log.spec.eval_name).toBe('pasted.dev.v0');
		expect(log.events.filter((event) => event.type === 'match')).toHaveLength(3);
		expect(log.finalReport?.accuracy).toBeCloseTo(1 / 3, 12);
		// The Inspect export: each output stopped at max_tokens 4, the accuracy as a metric.
		const inspect = JSON.parse((await evals.inspectLogText()) ?? 'null') as InspectEvalLog;
		expect(inspect.status).toBe('success');
		expect(inspect.samples.map((sample) => sample.output.choices[0]?.stop_reason)).toEqual([
			'max_tokens',
			'max_tokens',
			'max_tokens',
		]);
		expect(inspect.results.scores[0]?.metrics.accuracy?.value).toBeCloseTo(1 / 3, 12);
		expect(inspect.eval.model_generate_config).toEqual({ temperature: 0, max_tokens: 4 });
		const stored = await getEvalsRun(shown?.runRecordId ?? -1);
		expect(stored?.models.policy[0]).toMatchObject({ source: 'bundled', id: 'gpt2-en-small' });
	});

	it('resumes after a reload: finished samples are not generated again', async () => {
		const first = countingClient();
		const evals = session(first.client);
		evals.pasteText = SAMPLES;
		evals.loadPasted();
		evals.setOverride('policy', 'max_tokens', 4);
		await evals.run();
		const id = evals.shown?.runRecordId ?? -1;
		const report = evals.shown?.report;
		// As if the tab closed after two samples: the third sample's row is gone.
		const lastId = evals.shown?.rows[2]?.sampleId ?? '';
		await db.runItems.delete([id, lastId]);
		await updateEvalsRun(id, {
			status: 'running',
			progress: { done: 2, total: 3, tokens: 0, elapsedMs: 10 },
		});
		const second = countingClient();
		const reloaded = session(second.client);
		await reloaded.refreshRuns();
		expect(reloaded.runs.map((run) => run.status)).toEqual(['running']);
		await reloaded.resume(id);
		expect(second.generateCalls()).toBe(1);
		expect(reloaded.shown?.status).toBe('done');
		expect(reloaded.shown?.rows).toHaveLength(3);
		expect(reloaded.shown?.report).toEqual(report);
	});

	it('with the default IndexedDB response cache, even a sample lost in the reload is free', async () => {
		const first = countingClient();
		const evals = new EvalsSession({
			client: first.client,
			endpoint: new EndpointSettings({ storage: null }),
		});
		evals.pasteText = SAMPLES;
		evals.loadPasted();
		evals.setOverride('policy', 'max_tokens', 4);
		await evals.run();
		expect(first.generateCalls()).toBe(3);
		const id = evals.shown?.runRecordId ?? -1;
		await db.runItems.delete([id, evals.shown?.rows[2]?.sampleId ?? '']);
		await updateEvalsRun(id, { status: 'running' });
		const second = countingClient();
		const reloaded = new EvalsSession({
			client: second.client,
			endpoint: new EndpointSettings({ storage: null }),
		});
		await reloaded.resume(id);
		expect(second.generateCalls()).toBe(0);
		expect(reloaded.shown?.rows).toHaveLength(3);
		expect(reloaded.shown?.status).toBe('done');
	});

	it('imports an oaieval log and says where a bad one is wrong', async () => {
		const evals = session(countingClient().client);
		await evals.importLog(new File(['{"spec": {}}\nnot json\n'], 'bad.jsonl'));
		expect(evals.message).toContain('bad.jsonl:2');
		const log = [
			JSON.stringify({ spec: { eval_name: 'x.dev.v0', completion_fns: ['m'], run_config: {} } }),
			JSON.stringify({
				run_id: 'r',
				event_id: 0,
				sample_id: 'x.dev.0',
				type: 'sampling',
				data: { prompt: 'hi', sampled: ['yes'] },
				created_by: '',
				created_at: '',
			}),
			JSON.stringify({
				run_id: 'r',
				event_id: 1,
				sample_id: 'x.dev.0',
				type: 'match',
				data: { correct: true, expected: 'yes', picked: 'yes', sampled: 'yes' },
				created_by: '',
				created_at: '',
			}),
			JSON.stringify({ final_report: { accuracy: 1 }, run_id: 'r' }),
		].join('\n');
		await evals.importLog(new File([log], 'good.jsonl'));
		expect(evals.shown?.source).toBe('log');
		expect(evals.shown?.rows[0]).toMatchObject({ completion: 'yes', correct: true, picked: 'yes' });
		expect(evals.shown?.report).toEqual({ accuracy: 1 });
	});

	it('exports a finished run as a run bundle; a fresh session imports it with the same scores', async () => {
		const evals = session(countingClient().client);
		evals.pasteText = SAMPLES;
		evals.loadPasted();
		evals.policy.kind = 'local';
		evals.setOverride('policy', 'max_tokens', 4);
		await evals.run();
		const finished = evals.shown;
		const text = await evals.bundleText();
		expect(text).not.toBeNull();
		await clearDatabase();
		const fresh = session(countingClient().client);
		await fresh.importLog(new File([text ?? ''], 'pasted.evals-run.json'));
		expect(fresh.message).toBeNull();
		const shown = fresh.shown;
		expect(shown?.source).toBe('log');
		expect(shown?.runRecordId).toBeUndefined();
		expect(shown?.report).toEqual(finished?.report);
		expect(shown?.report?.accuracy).toBeCloseTo(1 / 3, 12);
		expect(shown?.rows).toEqual(finished?.rows);
		expect(shown?.paramsSent).toEqual(finished?.paramsSent);
		expect(await fresh.bundleText()).toBeNull();

		await fresh.importLog(
			new File([text?.replace('"status": "done"', '"status": "finished"') ?? ''], 'edited.json'),
		);
		expect(fresh.message).toContain('edited.json, at /run/status');

		// A file over the run-file cap is refused by its size, before its text is read.
		const huge = {
			name: 'huge.json',
			size: 300_000_000,
			text: () => Promise.reject(new Error('the text of a huge file was read')),
		} as unknown as File;
		await fresh.importLog(huge);
		expect(fresh.message).toBe(
			'huge.json is too large to be a run bundle (286 MiB; Benchtop reads at most 191 MiB).',
		);
	});
});

describe('EvalsSession comparison', () => {
	it('compares the shown run with another run of the same eval', async () => {
		const evals = session(countingClient().client);
		evals.pasteText = SAMPLES;
		evals.loadPasted();
		evals.setOverride('policy', 'max_tokens', 4);
		await evals.run();
		const first = evals.shown?.runRecordId ?? -1;
		evals.setOverride('policy', 'max_tokens', 1);
		await evals.run();
		await evals.compareWith(first);
		const comparison = evals.comparison;
		expect(comparison?.a.rows.map((row) => row.completion.split(' ').length)).toEqual([2, 2, 2]);
		expect(comparison?.b.rows.map((row) => row.completion.split(' ').length)).toEqual([5, 5, 5]);
		expect(comparison?.b.runRecordId).toBe(first);
		evals.closeShown();
		expect(evals.comparison).toBeNull();
	});

	it('re-runs a stored run without its stored answers and compares the two', async () => {
		const { client, generateCalls } = countingClient();
		const evals = session(client);
		evals.pasteText = SAMPLES;
		evals.loadPasted();
		evals.setOverride('policy', 'max_tokens', 4);
		await evals.run();
		const first = evals.shown?.runRecordId ?? -1;
		await evals.rerun(first);
		// The model is asked again (greedy, so the same answers come back).
		expect(generateCalls()).toBe(6);
		expect(evals.shown?.runRecordId).not.toBe(first);
		expect(evals.comparison?.b.runRecordId).toBe(first);
		expect(evals.comparison?.a.rows.map((row) => row.completion)).toEqual(
			evals.comparison?.b.rows.map((row) => row.completion),
		);
		expect((await listEvalsRuns()).map((run) => run.status)).toEqual(['done', 'done']);
	});
});
