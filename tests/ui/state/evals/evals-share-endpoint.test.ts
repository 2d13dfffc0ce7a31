// An Evals share link whose model under test is an endpoint: opening it proposes the endpoint
// and writes nothing to the saved settings; the run waits until the user runs it once.
import { beforeEach, describe, expect, it } from 'vitest';
import { decodeEvalsShare, encodeEvalsShare } from '../../../../src/core/evals/evals-share-payload';
import {
	ENDPOINT_KEY_STORAGE_KEY,
	ENDPOINT_STORAGE_KEY,
	EndpointSettings,
	type KeyValueStorage,
} from '../../../../src/ui/state/shared/endpoint-settings.svelte';
import { EvalsSession } from '../../../../src/ui/state/evals/evals-session.svelte';
import { FakeEngine } from '../../../../src/worker/fake-engine';
import { createInThreadClient } from '../../../../src/worker/inference-client';
import { clearDatabase } from '../../../storage/clear-database';

beforeEach(clearDatabase);

function memoryStorage(): KeyValueStorage & { data: Map<string, string> } {
	const data = new Map<string, string>();
	return {
		data,
		getItem: (key) => data.get(key) ?? null,
		setItem: (key, value) => void data.set(key, value),
		removeItem: (key) => void data.delete(key),
	};
}

const THEIRS = {
	source: 'openai',
	model: 'their-model',
	baseUrl: 'http://127.0.0.1:7/v1',
} as const;

/** The part after `#/evals/share/` of a link whose policy is THEIRS. */
async function endpointLink(): Promise<string> {
	const first = new EvalsSession({
		client: createInThreadClient(new FakeEngine()),
		endpoint: new EndpointSettings({ storage: null }),
	});
	first.pasteText = JSON.stringify({ input: 'Capital of France?', ideal: 'Paris' });
	first.loadPasted();
	await first.run();
	const fragment = (await first.shareFragment(first.shown?.runRecordId ?? -1)) ?? '';
	const payload = decodeEvalsShare(fragment.replace('#/evals/share/', ''));
	return encodeEvalsShare({ ...payload, models: { policy: [THEIRS] } });
}

describe('an Evals share link with an endpoint', () => {
	it('proposes the endpoint; the saved endpoint and key stay', async () => {
		const link = await endpointLink();
		await clearDatabase();
		const storage = memoryStorage();
		const endpoint = new EndpointSettings({ storage, pageProtocol: 'http:' });
		endpoint.baseUrl = 'http://127.0.0.1:9/v1';
		endpoint.modelId = 'my-model';
		endpoint.apiKey = 'sk-mine';
		endpoint.rememberKey = true;
		const saved = new Map(storage.data);
		const opened = new EvalsSession({ client: createInThreadClient(new FakeEngine()), endpoint });
		opened.openShare(link);
		expect(opened.problems).toEqual([]);
		expect(opened.policy.kind).toBe('endpoint');
		expect(opened.policy.proposal?.spec).toEqual(THEIRS);
		expect(opened.runProblem).toMatch(/their-model at http:\/\/127\.0\.0\.1:7\/v1/);
		expect(storage.data).toEqual(saved);
		opened.policy.proposal?.useOnce();
		expect(opened.runProblem).toBeNull();
		expect(storage.data).toEqual(saved);
		expect(storage.data.get(ENDPOINT_KEY_STORAGE_KEY)).toBe('sk-mine');
		expect(JSON.parse(storage.data.get(ENDPOINT_STORAGE_KEY) ?? '')).toEqual({
			baseUrl: 'http://127.0.0.1:9/v1',
			modelId: 'my-model',
		});
	});
});
