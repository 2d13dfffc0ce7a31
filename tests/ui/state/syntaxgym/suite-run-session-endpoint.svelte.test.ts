// @vitest-environment node
// A suite run through an endpoint: SuiteRunSession with ModelCatalog.clientFor over a real `serve`
// (in-process server on 127.0.0.1 port 0; no mocked fetch). The run records the endpoint spec in
// full (never the key) and stores every item with the endpoint's echo-logprob surprisals.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startServer, type RunningServer } from '../../../../src/cli/serve/server';
import type { EndpointModelSpec, ModelSpec } from '../../../../src/core/model/model-spec';
import { buildSuiteSentences } from '../../../../src/core/syntaxgym/suite/build-sentences';
import { parseSuite } from '../../../../src/core/syntaxgym/suite/parse-suite';
import { listItemResults } from '../../../../src/storage/syntaxgym/suite-results-repository';
import { getSuiteRun } from '../../../../src/storage/syntaxgym/suite-runs-repository';
import { EndpointAuthError } from '../../../../src/providers/openai-client';
import { EndpointInferenceClient } from '../../../../src/ui/io/endpoint-inference-client';
import { EndpointSettings } from '../../../../src/ui/state/shared/endpoint-settings.svelte';
import { ModelCatalog } from '../../../../src/ui/state/shared/model-catalog.svelte';
import {
	SuiteRunSession,
	type SuiteRunInput,
} from '../../../../src/ui/state/syntaxgym/suite-run-session.svelte';
import { FakeEngine } from '../../../../src/worker/fake-engine';
import { createInThreadClient } from '../../../../src/worker/inference-client';
import { createNodeEngine } from '../../../../src/worker/node-engine';
import { clearDatabase } from '../../../storage/clear-database';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const MODEL = 'gpt2-random-tiny';
const API_KEY = 'sk-test-key-never-stored';

let server: RunningServer;
beforeAll(async () => {
	server = await startServer({
		model: MODEL,
		port: 0,
		apiKey: API_KEY,
		engine: createNodeEngine({ threads: 1 }),
	});
});
afterAll(async () => {
	await server.close();
});
beforeEach(clearDatabase);

function bundledSuite(): SuiteRunInput {
	const text = readFileSync('suites/garden-path-npz.json', 'utf8');
	const parsed = parseSuite(text);
	if (!parsed.ok) throw new Error('the bundled suite does not parse');
	return {
		suiteText: text,
		suite: parsed.suite,
		origin: 'bundled',
		sourceName: 'garden-path-npz.json',
	};
}

function setup(): { session: SuiteRunSession; spec: EndpointModelSpec; catalog: ModelCatalog } {
	const endpoint = new EndpointSettings({ storage: null, probeScoring: async () => true });
	endpoint.baseUrl = server.baseUrl;
	endpoint.modelId = MODEL;
	endpoint.apiKey = API_KEY;
	// The worker is a FakeEngine: a run that reached it would give fake numbers, not the server's.
	const catalog = new ModelCatalog(createInThreadClient(new FakeEngine()), endpoint);
	const spec = endpoint.spec;
	if (!spec) throw new Error(endpoint.problem ?? 'no spec');
	const session = new SuiteRunSession({
		client: createInThreadClient(new FakeEngine()),
		models: catalog,
		appVersion: 'test',
	});
	return { session, spec, catalog };
}

describe('SuiteRunSession through an endpoint', () => {
	it('scores a bundled suite through the endpoint and records its spec without the key', async () => {
		const { session, spec } = setup();
		const input = bundledSuite();
		const run = await session.start(input, spec, 'bos');
		expect(session.message).toBeNull();
		expect(run?.status).toBe('done');
		const stored = await getSuiteRun(run?.id ?? -1);
		expect(stored?.model).toEqual({ source: 'openai', model: MODEL, baseUrl: server.baseUrl });
		expect(JSON.stringify(stored)).not.toContain(API_KEY);
		expect(stored?.itemsDone).toBe(input.suite.items.length);

		const items = await listItemResults(run?.id ?? -1);
		expect(items).toHaveLength(input.suite.items.length);
		const sentences = buildSuiteSentences(input.suite);
		const direct = await new EndpointInferenceClient({ spec, apiKey: API_KEY }).call('scoreTexts', {
			modelKey: '',
			texts: sentences.map((s) => s.text),
			convention: 'bos',
		});
		for (const item of items) {
			for (const sentence of item.sentences) {
				const index = sentences.findIndex(
					(s) => s.itemNumber === item.itemNumber && s.conditionName === sentence.conditionName,
				);
				expect(sentence.tokens).toEqual(direct.texts[index]?.tokens);
			}
		}
	});

	it('says the endpoint refused a run without its key, and resumes once the key is typed', async () => {
		const { session, spec, catalog } = setup();
		catalog.endpoint.apiKey = '';
		const input = bundledSuite();
		const run = await session.start(input, spec, 'bos');
		expect(run?.status).toBe('failed');
		// The endpoint's own words (its key), not the hub's.
		expect(session.message).toContain(`${server.baseUrl} refused the API key`);
		catalog.endpoint.apiKey = API_KEY;
		const resumed = await session.resume(run?.id ?? -1);
		expect(resumed?.status).toBe('done');
		expect(resumed?.model).toEqual(spec);
		expect(await listItemResults(run?.id ?? -1)).toHaveLength(input.suite.items.length);
	});

	it('sends the key only to the base URL it was typed for', async () => {
		const { catalog, spec } = setup();
		const local: ModelSpec = { source: 'bundled', id: MODEL, dtype: 'fp32', backend: 'wasm' };
		expect(catalog.clientFor(local)).toBeUndefined();
		// Another server that wants the same key: a run recorded for it does not get the key
		// typed for the first one.
		const other = await startServer({
			model: MODEL,
			port: 0,
			apiKey: API_KEY,
			engine: createNodeEngine({ threads: 1 }),
		});
		try {
			const typed = catalog.clientFor(spec);
			await expect(typed?.open()).resolves.toMatchObject({ modelType: 'endpoint', spec });
			const elsewhere = { ...spec, baseUrl: other.baseUrl };
			await expect(catalog.clientFor(elsewhere)?.open()).rejects.toBeInstanceOf(EndpointAuthError);
		} finally {
			await other.close();
		}
	});
});
