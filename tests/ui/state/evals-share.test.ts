// Evals share links: the payload round-trips, a damaged or foreign link says what is wrong, and
// opening a link in a fresh session re-runs the eval and reports the verdicts it reproduced.
import { deflateSync, strToU8 } from 'fflate';
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryResponseCache } from '../../../src/providers/response-cache';
import { encodeBase64Url } from '../../../src/core/share/base64url';
import { EndpointSettings } from '../../../src/ui/state/endpoint-settings.svelte';
import { EvalsSession } from '../../../src/ui/state/evals-session.svelte';
import { decodeEvalsShare } from '../../../src/ui/state/evals-share.svelte';
import { FakeEngine } from '../../../src/worker/fake-engine';
import { createInThreadClient } from '../../../src/worker/inference-client';
import { clearDatabase } from '../../storage/clear-database';

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
		expect(fragment).toMatch(/^#\/evals\/share\/[A-Za-z0-9_-]+$/);

		await clearDatabase();
		// Same browser, same cache: the re-run must still ask the model.
		const opened = session(cache);
		opened.openShare(fragment.replace('#/evals/share/', ''));
		expect(opened.problems).toEqual([]);
		expect(opened.source).toBe('share');
		expect(opened.resolved?.samples).toHaveLength(2);
		expect(opened.policy.kind).toBe('local');
		expect(opened.policy.localId).toBe('gpt2-random-tiny');
		expect(opened.policyOverrides).toEqual({ max_tokens: 3 });
		await opened.run();
		expect(opened.message).toBe('Reproduced: 2/2 verdicts identical to the shared run.');
		expect(opened.calls()).toBe(2);
	});

	it.each([
		['a cut-off link', 'A', /cut off/],
		['a bad character', 'ab$d', /bad character at 2/],
		['bytes that do not unpack', encodeBase64Url(strToU8('not deflated')), /does not unpack/],
		[
			'a payload of another kind',
			encodeBase64Url(deflateSync(strToU8(JSON.stringify({ v: 1, evalName: 3 })))),
			/not an Evals run Benchtop can read \(evalName: /,
		],
	])('refuses %s and says why', (_what, text, message) => {
		expect(() => decodeEvalsShare(text)).toThrow(message);
	});
});
