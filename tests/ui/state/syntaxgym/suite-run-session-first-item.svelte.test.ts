// SuiteRunSession scores the first item on its own before the rest, so its result is stored (and
// shown) while the rest is still being scored.
import { beforeEach, describe, expect, it } from 'vitest';
import { parseSuite } from '../../../../src/core/syntaxgym/suite/parse-suite';
import { listItemResults } from '../../../../src/storage/syntaxgym/suite-results-repository';
import { ModelCatalog } from '../../../../src/ui/state/shared/model-catalog.svelte';
import { SuiteRunSession } from '../../../../src/ui/state/syntaxgym/suite-run-session.svelte';
import { FakeEngine } from '../../../../src/worker/fake-engine';
import { createInThreadClient } from '../../../../src/worker/inference-client';
import type {
	CallKind,
	CallOptions,
	Calls,
	InferenceClientApi,
} from '../../../../src/worker/protocol';
import { clearDatabase } from '../../../storage/clear-database';

const SUITE = JSON.stringify({
	meta: { name: 'first item first', metric: 'sum' },
	region_meta: { '1': 'subject', '2': 'verb' },
	predictions: [{ type: 'formula', formula: '(2;%bad%) > (2;%good%)' }],
	items: Array.from({ length: 5 }, (_, index) => ({
		item_number: index + 1,
		conditions: ['runs', 'run'].map((verb, c) => ({
			condition_name: c === 0 ? 'good' : 'bad',
			regions: [
				{ region_number: 1, content: `The dog ${index}` },
				{ region_number: 2, content: verb },
			],
		})),
	})),
});

beforeEach(clearDatabase);

describe('SuiteRunSession, first item first', () => {
	it('scores the first item in a request of its own, stores it first, then the rest', async () => {
		const inner = createInThreadClient(new FakeEngine({ defaultBatchSize: 4 }));
		const requests: string[][] = [];
		const saved: number[] = [];
		const client: InferenceClientApi = {
			call<K extends CallKind>(kind: K, params: Calls[K]['params'], options?: CallOptions) {
				if (kind === 'scoreTexts')
					requests.push([...(params as Calls['scoreTexts']['params']).texts]);
				return inner.call(kind, params, options);
			},
			dispose: () => inner.dispose(),
		};
		const session = new SuiteRunSession({
			client,
			models: new ModelCatalog(client),
			appVersion: '0.0.0',
			onItemSaved: (_, item) => saved.push(item.itemNumber),
		});
		const parsed = parseSuite(SUITE);
		if (!parsed.ok) throw new Error('fixture suite does not parse');
		const spec = {
			source: 'bundled',
			id: 'gpt2-random-tiny',
			dtype: 'fp32',
			backend: 'wasm',
		} as const;
		const record = await session.start(
			{ suiteText: SUITE, suite: parsed.suite, origin: 'paste', sourceName: 'test' },
			spec,
			'reference',
		);
		expect(record?.status).toBe('done');
		expect(requests).toEqual([
			['The dog 0 runs', 'The dog 0 run'],
			[1, 2, 3, 4].flatMap((i) => [`The dog ${i} runs`, `The dog ${i} run`]),
		]);
		expect(saved[0]).toBe(1);
		expect([...saved].sort()).toEqual([1, 2, 3, 4, 5]);
		const items = await listItemResults(record?.id ?? 0);
		expect(items.map((item) => item.sentences.map((s) => s.text))).toEqual(
			[0, 1, 2, 3, 4].map((i) => [`The dog ${i} runs`, `The dog ${i} run`]),
		);
	});
});
