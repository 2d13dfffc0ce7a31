// SuiteRunSession's word-boundary option: asked of the engine for every sentence, recorded with the
// run, kept by a resume, stored on every token; never recorded for an endpoint model.
import { beforeEach, describe, expect, it } from 'vitest';
import { parseSuite } from '../../../../src/core/syntaxgym/suite/parse-suite';
import {
	listItemResults,
	saveItemResult,
} from '../../../../src/storage/syntaxgym/suite-results-repository';
import {
	createSuiteRun,
	getSuiteRun,
	updateSuiteRun,
} from '../../../../src/storage/syntaxgym/suite-runs-repository';
import { saveSuite } from '../../../../src/storage/syntaxgym/suites-repository';
import { ModelCatalog } from '../../../../src/ui/state/shared/model-catalog.svelte';
import {
	SuiteRunSession,
	type SuiteRunInput,
} from '../../../../src/ui/state/syntaxgym/suite-run-session.svelte';
import { FakeEngine } from '../../../../src/worker/fake-engine';
import { createInThreadClient } from '../../../../src/worker/inference-client';
import type {
	CallKind,
	CallOptions,
	Calls,
	InferenceClientApi,
	ScoreTextsParams,
} from '../../../../src/worker/protocol';
import { clearDatabase } from '../../../storage/clear-database';

const SUITE_TEXT = JSON.stringify({
	meta: { name: 'tiny agreement', metric: 'sum' },
	region_meta: { '1': 'subject', '2': 'verb' },
	predictions: [{ type: 'formula', formula: '(2;%bad%) > (2;%good%)' }],
	items: [1, 2, 3].map((n) => ({
		item_number: n,
		conditions: [
			{
				condition_name: 'good',
				regions: [
					{ region_number: 1, content: `The dog ${n}` },
					{ region_number: 2, content: 'runs' },
				],
			},
			{
				condition_name: 'bad',
				regions: [
					{ region_number: 1, content: `The dog ${n}` },
					{ region_number: 2, content: 'run' },
				],
			},
		],
	})),
});

function runInput(): SuiteRunInput {
	const parsed = parseSuite(SUITE_TEXT);
	if (!parsed.ok) throw new Error('fixture suite does not parse');
	return { suiteText: SUITE_TEXT, suite: parsed.suite, origin: 'paste', sourceName: 'test' };
}

const SPEC = { source: 'bundled', id: 'gpt2-random-tiny', dtype: 'fp32', backend: 'wasm' } as const;

/** The fake engine's client (it honours `wordBoundaries`), recording every scoring request. */
function recordingClient(requests: ScoreTextsParams[]): InferenceClientApi {
	const inner = createInThreadClient(new FakeEngine({ defaultBatchSize: 2 }));
	return {
		call<K extends CallKind>(kind: K, params: Calls[K]['params'], options?: CallOptions) {
			if (kind === 'scoreTexts') requests.push(params as ScoreTextsParams);
			return inner.call(kind, params, options);
		},
		dispose: () => inner.dispose(),
	};
}

function createSession() {
	const requests: ScoreTextsParams[] = [];
	const client = recordingClient(requests);
	const catalog = new ModelCatalog(client);
	const session = new SuiteRunSession({ client, models: catalog, appVersion: '9.9.9' });
	return { session, catalog, requests };
}

beforeEach(clearDatabase);

describe('SuiteRunSession: word boundaries', () => {
	it('asks for them in every request, records them, stores them on every token', async () => {
		const { session, requests } = createSession();
		const record = await session.start(runInput(), SPEC, 'reference', { wordBoundaries: true });
		expect(record?.status).toBe('done');
		expect(record?.wordBoundaries).toBe(true);
		expect((await getSuiteRun(record?.id ?? 0))?.wordBoundaries).toBe(true);
		expect(requests.length).toBeGreaterThan(0);
		expect(requests.every((request) => request.wordBoundaries === true)).toBe(true);
		const tokens = (await listItemResults(record?.id ?? 0)).flatMap((item) =>
			item.sentences.flatMap((sentence) => sentence.tokens),
		);
		expect(tokens.length).toBeGreaterThan(0);
		expect(tokens.every((token) => typeof token.boundarySurprisalBits === 'number')).toBe(true);
	});

	it('by default asks for none and records none', async () => {
		const { session, requests } = createSession();
		const record = await session.start(runInput(), SPEC, 'reference');
		expect(record?.status).toBe('done');
		expect(record && 'wordBoundaries' in record).toBe(false);
		expect(requests.some((request) => 'wordBoundaries' in request)).toBe(false);
	});

	it('a resume asks for them again for the items left', async () => {
		const saved = await saveSuite({ text: SUITE_TEXT, name: 'tiny agreement', origin: 'paste' });
		const run = await createSuiteRun({
			suiteSha256: saved.sha256,
			suiteName: 'tiny agreement',
			model: SPEC,
			convention: 'reference',
			wordBoundaries: true,
			itemCount: 3,
			appVersion: '9.9.9',
			createdAt: 1_700_000_000_000,
		});
		const first = await (async () => {
			const { session } = createSession();
			// Item 1 as an earlier session stored it.
			const done = await session.start(runInput(), SPEC, 'reference', { wordBoundaries: true });
			return (await listItemResults(done?.id ?? 0))[0];
		})();
		if (first) await saveItemResult(run.id, first);
		await updateSuiteRun(run.id, { status: 'cancelled' });

		const { session, requests } = createSession();
		const resumed = await session.resume(run.id);
		expect(resumed?.status).toBe('done');
		expect(resumed?.wordBoundaries).toBe(true);
		expect(requests.map((request) => request.texts.length)).toEqual([2, 2]);
		expect(requests.every((request) => request.wordBoundaries === true)).toBe(true);
	});

	it('is not recorded for an endpoint model, which cannot give them', async () => {
		const catalog = new ModelCatalog(recordingClient([]));
		catalog.source = 'openai';
		expect(catalog.wordBoundariesProblem).toMatch(/Endpoints/);
		// No endpoint client (no server in this test): the run stops at once, its record stays.
		const session = new SuiteRunSession({
			client: recordingClient([]),
			models: { load: (spec) => catalog.load(spec) },
			appVersion: '9.9.9',
		});
		const record = await session.start(
			runInput(),
			{ source: 'openai', model: 'gpt2', baseUrl: 'http://127.0.0.1:9/v1' },
			'reference',
			{ wordBoundaries: true },
		);
		expect(record?.status).toBe('failed');
		expect(record && 'wordBoundaries' in record).toBe(false);
	});
});
