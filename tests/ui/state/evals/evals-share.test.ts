// Evals share links in the page's state: opening a link in a fresh session re-runs the eval and
// reports the verdicts it reproduced; a damaged link is the page's problem. The payload's
// encoding and checks are tested in tests/core/evals/evals-share-payload.test.ts.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryResponseCache } from '../../../../src/providers/response-cache';
import { EndpointSettings } from '../../../../src/ui/state/shared/endpoint-settings.svelte';
import { EvalsSession } from '../../../../src/ui/state/evals/evals-session.svelte';
import { FakeEngine } from '../../../../src/worker/fake-engine';
import { createInThreadClient } from '../../../../src/worker/inference-client';
import { clearDatabase } from '../../../storage/clear-database';

beforeEach(clearDatabase);

/** A session whose generate calls are counted; `cache` shared between sessions when given. */
function session(cache = createMemoryResponseCache()): EvalsSession & { calls: () => number } {
	const inner = createInThreadClient(new FakeEngine());
	let calls = 0;
	const evals = new EvalsSession({
		client: {
			call: (kind, params, options) => {
				if (kind === 'generate') calls += 1;
				return inner.call(kind, params, options);
			},
			dispose: () => inner.dispose(),
		},
		endpoint: new EndpointSettings({ storage: null }),
		cache,
	});
	return Object.assign(evals, { calls: () => calls });
}

const SAMPLES = [
	{ input: 'Say anything.', ideal: ' ' },
	{ input: 'Capital of France?', ideal: 'Paris' },
]
	.map((sample) => JSON.stringify(sample))
	.join('\n');

describe('Evals share links', () => {
	it('carry the eval, models, parameters and verdicts; a fresh session reproduces them', async () => {
		const cache = createMemoryResponseCache();
		const first = session(cache);
		first.pasteText = SAMPLES;
		first.loadPasted();
		first.setOverride('policy', 'max_tokens', 3);
		await first.run();
		const fragment = (await first.shareFragment(first.shown?.runRecordId ?? -1)) ?? '';
		expect(fragment).toMatch(/^#\/evals\/share\/2\/[A-Za-z0-9_-]+$/);

		await clearDatabase();
		// Same browser, same cache: the re-run must still ask the model.
		const opened = session(cache);
		opened.openShare(fragment.replace('#/evals/share/', ''));
		expect(opened.problems).toEqual([]);
		expect(opened.source).toBe('share');
		expect(opened.resolved?.samples).toHaveLength(2);
		expect(opened.policy.kind).toBe('local');
		expect(opened.policy.localId).toBe('gpt2-en-small');
		expect(opened.policyOverrides).toEqual({ max_tokens: 3 });
		// The sharer's run shows before anything is re-run: model, score, samples with verdicts.
		const verdictOf = (sampleId: string) =>
			first.shown?.rows.find((row) => row.sampleId === sampleId)?.correct ? 'correct' : 'wrong';
		const verdicts = [verdictOf('pasted.dev.0'), verdictOf('pasted.dev.1')];
		const correct = verdicts.filter((verdict) => verdict === 'correct').length;
		expect(opened.sharedRun).toEqual({
			model: expect.any(String),
			grader: null,
			accuracy: { correct, total: 2 },
			verdictCounts: expect.any(Array),
			samples: [
				{
					sampleId: 'pasted.dev.0',
					verdict: verdicts[0],
					input: 'Say anything.',
					ideal: ' ',
				},
				{
					sampleId: 'pasted.dev.1',
					verdict: verdicts[1],
					input: 'Capital of France?',
					ideal: 'Paris',
				},
			],
		});
		expect(opened.sharedRun?.model).toBe(opened.policy.localId);
		expect(opened.calls()).toBe(0);
		await opened.run();
		expect(opened.message).toBe('Reproduced: 2/2 verdicts identical to the shared run.');
		expect(opened.calls()).toBe(2);
	});

	it('shows a damaged link as the page’s problem and opens nothing', () => {
		const opened = session();
		opened.openShare('A');
		expect(opened.problems.map((problem) => problem.message)).toEqual([
			expect.stringMatching(/This share link is cut off: copy the whole link/),
		]);
		expect(opened.source).not.toBe('share');
		expect(opened.resolved).toBeNull();
	});
});
