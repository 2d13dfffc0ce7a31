// @vitest-environment node
// A battery scored by a real (tiny, random) model in Node: each suite's stored token surprisals
// equal those of a run of that suite alone, although the battery pools every suite's sentences
// into one request (batched and padded with other suites' sentences).
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { parseSuite } from '../../../../src/core/syntaxgym/suite/parse-suite';
import { listItemResults } from '../../../../src/storage/syntaxgym/suite-results-repository';
import { ModelCatalog } from '../../../../src/ui/state/shared/model-catalog.svelte';
import {
	SuiteRunSession,
	type SuiteRunInput,
} from '../../../../src/ui/state/syntaxgym/suite-run-session.svelte';
import { createInThreadClient } from '../../../../src/worker/inference-client';
import { createNodeEngine } from '../../../../src/worker/node-engine';
import { clearDatabase } from '../../../storage/clear-database';

vi.setConfig({ testTimeout: 120_000 });

const SUITES = [
	'garden-path-npz.json',
	'subject-verb-agreement-pp.json',
	'npi-licensing-ever.json',
];

function bundledSuite(file: string): SuiteRunInput {
	const text = readFileSync(`suites/${file}`, 'utf8');
	const parsed = parseSuite(text);
	if (!parsed.ok) throw new Error(`the bundled suite ${file} does not parse`);
	return { suiteText: text, suite: parsed.suite, origin: 'bundled', sourceName: file };
}

const SPEC = { source: 'bundled', id: 'gpt2-random-tiny', dtype: 'fp32', backend: 'wasm' } as const;

beforeEach(clearDatabase);

describe('SuiteRunSession battery with a real model', () => {
	it("stores each suite's token surprisals as a run of that suite alone does", async () => {
		const client = createInThreadClient(createNodeEngine({ threads: 1 }));
		const session = new SuiteRunSession({
			client,
			models: new ModelCatalog(client),
			appVersion: 't',
		});
		const inputs = SUITES.map(bundledSuite);
		const runs = await session.startBattery(inputs, SPEC, 'reference');
		expect(runs?.map((run) => run.status)).toEqual(SUITES.map(() => 'done'));
		for (const [index, input] of inputs.entries()) {
			const alone = await session.start(input, SPEC, 'reference');
			expect(alone?.status).toBe('done');
			const pooled = await listItemResults(runs?.[index]?.id ?? -1);
			const single = await listItemResults(alone?.id ?? -1);
			expect(pooled).toHaveLength(input.suite.items.length);
			expect(pooled.map((item) => item.sentences.map((s) => s.tokens.map((t) => t.token)))).toEqual(
				single.map((item) => item.sentences.map((s) => s.tokens.map((t) => t.token))),
			);
			const pooledBits = pooled.flatMap((item) =>
				item.sentences.flatMap((s) => s.tokens.map((t) => t.surprisalBits)),
			);
			const singleBits = single.flatMap((item) =>
				item.sentences.flatMap((s) => s.tokens.map((t) => t.surprisalBits)),
			);
			expect(pooledBits.length).toBeGreaterThan(0);
			pooledBits.forEach((bits, at) => expect(bits).toBeCloseTo(singleBits[at] ?? NaN, 4));
		}
	});
});
