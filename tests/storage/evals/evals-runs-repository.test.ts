import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../../src/storage/shared/db';
import {
	createEvalsRun,
	deleteEvalsRun,
	getEvalsRun,
	listEvalsRuns,
	listEvalsSamples,
	listResumableEvalsRuns,
	saveEvalsSample,
	updateEvalsRun,
} from '../../../src/storage/evals/evals-runs-repository';
import { clearDatabase } from '../clear-database';
import { evalsRunDraft, sampleResult } from '../fixtures';

beforeEach(clearDatabase);

describe('Evals runs repository', () => {
	it('creates a running run with nothing done, and keeps the full model specs', async () => {
		const run = await createEvalsRun(evalsRunDraft(), 150);
		expect(run).toMatchObject({
			kind: 'evals',
			evalName: 'capitals',
			status: 'running',
			progress: { done: 0, total: 2, tokens: 0, elapsedMs: 0 },
			createdAt: 100,
			updatedAt: 150,
		});
		const stored = await getEvalsRun(run.id);
		expect(stored?.models.policy[0]).toEqual({
			source: 'openai',
			model: 'm',
			baseUrl: 'http://127.0.0.1:8000/v1',
		});
		expect(stored?.spec.eval.samples).toHaveLength(2);
		expect(stored).not.toHaveProperty('total');
	});

	it('updates progress, report and status, and clears an error', async () => {
		const run = await createEvalsRun(evalsRunDraft());
		await updateEvalsRun(run.id, { status: 'failed', errorMessage: 'endpoint down' }, 200);
		const done = await updateEvalsRun(
			run.id,
			{
				status: 'done',
				errorMessage: undefined,
				progress: { done: 2, total: 2, tokens: 30, elapsedMs: 900 },
				report: { accuracy: 0.5, boostrap_std: 0.5 },
			},
			300,
		);
		expect(done).toMatchObject({
			status: 'done',
			report: { accuracy: 0.5 },
			progress: { done: 2, tokens: 30 },
			updatedAt: 300,
		});
		expect(done).not.toHaveProperty('errorMessage');
	});

	it('lists runs newest first, and offers unfinished ones for resume', async () => {
		const older = await createEvalsRun(evalsRunDraft({ createdAt: 1 }));
		const newer = await createEvalsRun(evalsRunDraft({ createdAt: 5 }));
		const finished = await createEvalsRun(evalsRunDraft({ createdAt: 3 }));
		await updateEvalsRun(finished.id, {
			status: 'done',
			progress: { done: 2, total: 2, tokens: 0, elapsedMs: 1 },
		});
		await updateEvalsRun(older.id, { status: 'cancelled' });
		expect((await listEvalsRuns()).map((run) => run.id)).toEqual([newer.id, finished.id, older.id]);
		expect((await listResumableEvalsRuns()).map((run) => run.id)).toEqual([newer.id, older.id]);
	});

	it('keeps samples in evaluation order and replaces a sample written again on resume', async () => {
		const run = await createEvalsRun(evalsRunDraft());
		const event = {
			run_id: 'r',
			event_id: 0,
			sample_id: 'capitals.dev.1',
			type: 'match',
			data: { correct: false },
			created_by: '',
			created_at: '2026-11-24 04:16:22+00:00',
		};
		await saveEvalsSample(run.id, {
			sampleId: 'capitals.dev.1',
			position: 0,
			result: sampleResult(1, 'Quito', false),
			events: [event],
		});
		await saveEvalsSample(run.id, {
			sampleId: 'capitals.dev.0',
			position: 1,
			result: sampleResult(0, 'Paris', true),
			events: [],
		});
		await saveEvalsSample(run.id, {
			sampleId: 'capitals.dev.1',
			position: 0,
			result: sampleResult(1, 'Lima', true),
			events: [{ ...event, data: { correct: true } }],
		});
		const samples = await listEvalsSamples(run.id);
		expect(samples.map((sample) => sample.sampleId)).toEqual(['capitals.dev.1', 'capitals.dev.0']);
		expect(samples[0]?.result.completion).toBe('Lima');
		expect(samples[0]?.events[0]?.data).toEqual({ correct: true });
	});

	it('deletes a run with its samples and leaves other runs alone', async () => {
		const a = await createEvalsRun(evalsRunDraft());
		const b = await createEvalsRun(evalsRunDraft());
		const sample = {
			sampleId: 'capitals.dev.0',
			position: 0,
			result: sampleResult(0, 'Paris', true),
			events: [],
		};
		await saveEvalsSample(a.id, sample);
		await saveEvalsSample(b.id, sample);
		await deleteEvalsRun(a.id);
		expect(await getEvalsRun(a.id)).toBeUndefined();
		// Run b keeps its sample and its input item.
		expect(await db.runItems.count()).toBe(2);
		expect(await listEvalsSamples(b.id)).toHaveLength(1);
	});
});
