// What a newcomer met on the Memory, Evals and Explore pages (issue 21): a definitions folder
// picked while the bundled examples are still read keeps its name, picked files are named by
// their relative paths, a dropped registry lists each eval once, and the explorer offers and
// scores with the endpoint model.
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ModelSpec } from '../../../src/core/model/model-spec';
import { EndpointSettings } from '../../../src/ui/state/shared/endpoint-settings.svelte';
import { EvalsSession } from '../../../src/ui/state/evals/evals-session.svelte';
import { Explorer } from '../../../src/ui/state/shared/explorer.svelte';
import { MemorySession } from '../../../src/ui/state/ltm/memory-session.svelte';
import { FakeEngine } from '../../../src/worker/fake-engine';
import { createInThreadClient } from '../../../src/worker/inference-client';
import { clearDatabase } from '../../storage/clear-database';

beforeEach(clearDatabase);

/** A File as a folder pick gives it: `webkitRelativePath` set. */
function folderFile(path: string): File {
	const file = new File(
		[readFileSync(`tests/fixtures/ltm/${path}`, 'utf8')],
		path.split('/').pop()!,
	);
	Object.defineProperty(file, 'webkitRelativePath', { value: path });
	return file;
}

const TINY_FOLDER = [
	'tiny-definitions/config.yml',
	'tiny-definitions/Colours/0.def.json',
	'tiny-definitions/Names/0.def.json',
	'tiny-definitions/Prospective_Memory/0.def.json',
];

describe('MemorySession names', () => {
	it('keeps the name of a folder picked while the bundled examples are read', async () => {
		let release: () => void = () => undefined;
		const counterReady = new Promise<void>((resolve) => (release = resolve));
		const memory = new MemorySession({
			client: createInThreadClient(new FakeEngine()),
			endpoint: new EndpointSettings({ storage: null }),
			countTokens: async () => {
				await counterReady;
				return (text: string) => Math.ceil(text.length / 4);
			},
		});
		const bundled = memory.loadBundled();
		const picked = memory.loadFiles(TINY_FOLDER.map(folderFile));
		release();
		await Promise.all([bundled, picked]);
		expect(memory.cards.length).toBeGreaterThan(0);
		expect(memory.benchmark?.tests).toHaveLength(3);
		expect(memory.sourceName).toBe(
			'tiny-definitions/config.yml, tiny-definitions/Colours/0.def.json, tiny-definitions/Names/0.def.json and 1 more',
		);
	});
});

describe('EvalsSession names and eval list', () => {
	it('lists an alias once with its id, and names dropped files by their relative paths', async () => {
		const evals = new EvalsSession({
			client: createInThreadClient(new FakeEngine()),
			endpoint: new EndpointSettings({ storage: null }),
		});
		const root = 'tests/fixtures/evals-ui/registry';
		const files = ['evals/greetings.yaml', 'data/greetings/samples.jsonl'].map((path) => {
			const file = new File([readFileSync(`${root}/${path}`, 'utf8')], path.split('/').pop()!);
			Object.defineProperty(file, 'webkitRelativePath', { value: `registry/${path}` });
			return file;
		});
		await evals.loadFiles(files);
		expect(evals.evalNames).toEqual(['greetings', 'greetings.dev.v0']);
		expect(evals.evalChoices).toEqual([{ name: 'greetings', id: 'greetings.dev.v0' }]);
		expect(evals.sourceName).toBe(
			'registry/evals/greetings.yaml, registry/data/greetings/samples.jsonl',
		);
	});
});

describe('Explorer endpoint model', () => {
	it('is offered once set, and scores through its own client', async () => {
		const local = createInThreadClient(new FakeEngine());
		const remote = createInThreadClient(new FakeEngine());
		const remoteCalls: string[] = [];
		let endpointSet = false;
		const explorer = new Explorer({
			client: local,
			load: (spec: ModelSpec) => local.call('loadModel', { spec }),
			endpoint: () =>
				endpointSet
					? {
							id: 'tiny (endpoint)',
							connect: () => ({
								call: (kind, params, options) => {
									remoteCalls.push(kind);
									return remote.call(kind, params, options);
								},
								open: () => {
									remoteCalls.push('open');
									return remote.call('loadModel', {
										spec: {
											source: 'bundled',
											id: 'gpt2-random-tiny',
											dtype: 'fp32',
											backend: 'wasm',
										},
									});
								},
							}),
						}
					: null,
		});
		expect(explorer.modelIds).toEqual(['gpt2-en-small', 'gpt2-random-tiny']);
		endpointSet = true;
		expect(explorer.modelIds).toEqual(['gpt2-en-small', 'gpt2-random-tiny', 'tiny (endpoint)']);
		explorer.text = 'The dog barks.';
		explorer.model = 'tiny (endpoint)';
		explorer.compare = 'gpt2-random-tiny';
		await explorer.explore();
		expect(explorer.status).toBe('done');
		expect(explorer.series.map((series) => series.modelId)).toEqual([
			'tiny (endpoint)',
			'gpt2-random-tiny',
		]);
		expect(remoteCalls).toEqual(['open', 'scoreTexts']);
	});
});
