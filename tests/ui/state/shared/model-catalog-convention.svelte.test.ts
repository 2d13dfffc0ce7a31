// ModelCatalog's surprisal convention: decided from the model choice at once (no later effect),
// so a run started right after a choice is scored under that model's default; the user's own
// pick stands for the model it was made for; a hub model waits for its tokenizer config, and
// says so, before a run can start.
import { describe, expect, it } from 'vitest';
import { EndpointSettings } from '../../../../src/ui/state/shared/endpoint-settings.svelte';
import { ModelCatalog } from '../../../../src/ui/state/shared/model-catalog.svelte';
import { FakeEngine } from '../../../../src/worker/fake-engine';
import { createInThreadClient } from '../../../../src/worker/inference-client';

type ReadHubFacts = NonNullable<ConstructorParameters<typeof ModelCatalog>[3]>;

function createCatalog(readHubFacts?: ReadHubFacts): ModelCatalog {
	const endpoint = new EndpointSettings({
		listModels: async () => [],
		probeScoring: async () => true,
		storage: null,
	});
	return new ModelCatalog(
		createInThreadClient(new FakeEngine()),
		endpoint,
		undefined,
		readHubFacts,
	);
}

describe('ModelCatalog convention', () => {
	it('is the chosen model’s default as soon as the model is chosen', () => {
		const catalog = createCatalog();
		// A bundled model was trained with a start-of-text token.
		expect(catalog.convention).toBe('bos');
		expect(catalog.conventionDefault?.convention).toBe('bos');
		expect(catalog.conventionPending).toBe(false);
		// An endpoint says nothing about its tokenizer: reference, in the same tick.
		catalog.source = 'openai';
		catalog.endpoint.modelId = 'gpt2-random-tiny';
		expect(catalog.convention).toBe('reference');
		expect(catalog.conventionDefault?.reason).toMatch(/endpoint gpt2-random-tiny does not say/);
		expect(catalog.conventionProblem).toBeNull();
		catalog.source = 'bundled';
		expect(catalog.convention).toBe('bos');
	});

	it('keeps the user’s pick for the model it was made for; another model brings its own', () => {
		const catalog = createCatalog();
		catalog.convention = 'bos+eos';
		// Weights and backend are the same model.
		catalog.dtype = 'q8';
		expect(catalog.convention).toBe('bos+eos');
		catalog.source = 'openai';
		catalog.endpoint.modelId = 'm';
		expect(catalog.convention).toBe('reference');
		catalog.convention = 'reference';
		catalog.source = 'bundled';
		catalog.bundledId = 'gpt2-random-tiny';
		expect(catalog.convention).toBe('bos');
		// Back to the endpoint the pick was made for.
		catalog.source = 'openai';
		catalog.convention = 'bos+eos';
		catalog.source = 'bundled';
		catalog.source = 'openai';
		expect(catalog.convention).toBe('bos+eos');
	});

	it('holds a run back while a hub model’s tokenizer config is read, then uses what it says', async () => {
		const asked: string[] = [];
		const catalog = createCatalog(async (id, revision) => {
			asked.push(`${id}@${revision}`);
			return { tokenizerConfig: { add_bos_token: true, bos_token: '<s>' } };
		});
		catalog.source = 'hub';
		catalog.hubId = 'owner/llama-ish';
		expect(catalog.conventionPending).toBe(true);
		expect(catalog.conventionProblem).toMatch(/owner\/llama-ish/);
		await catalog.readConventionFacts();
		expect(asked).toEqual(['owner/llama-ish@main']);
		expect(catalog.conventionPending).toBe(false);
		expect(catalog.conventionProblem).toBeNull();
		expect(catalog.convention).toBe('bos');
		expect(catalog.conventionDefault?.reason).toMatch(/add_bos_token/);
		// Another revision is another model: read again.
		catalog.hubRevision = 'v2';
		expect(catalog.conventionPending).toBe(true);
	});

	it('lets a pick settle a hub model at once, and takes a failed read as no facts', async () => {
		const catalog = createCatalog(async () => {
			throw new Error('offline');
		});
		catalog.source = 'hub';
		catalog.hubId = 'owner/a';
		catalog.convention = 'bos+eos';
		expect(catalog.conventionPending).toBe(false);
		expect(catalog.convention).toBe('bos+eos');
		catalog.hubId = 'owner/b';
		expect(catalog.conventionPending).toBe(true);
		await catalog.readConventionFacts();
		expect(catalog.conventionPending).toBe(false);
		expect(catalog.convention).toBe('reference');
		expect(catalog.conventionDefault?.reason).toMatch(/^owner\/b does not say/);
	});

	it('keeps a read that a newer choice superseded under its own model only', async () => {
		let release: (() => void) | undefined;
		const catalog = createCatalog(
			(id) =>
				new Promise((resolve) => {
					release = () =>
						resolve(id === 'owner/old' ? { tokenizerConfig: { add_bos_token: true } } : {});
				}),
		);
		catalog.source = 'hub';
		catalog.hubId = 'owner/old';
		const reading = catalog.readConventionFacts();
		catalog.hubId = 'owner/new';
		release?.();
		await reading;
		// The old model's facts never stand for the new one; they are kept for the old one.
		expect(catalog.conventionPending).toBe(true);
		catalog.hubId = 'owner/old';
		expect(catalog.conventionPending).toBe(false);
		expect(catalog.convention).toBe('bos');
	});

	it('reads a folder’s tokenizer files: a post-processor that adds BOS gives bos, with that reason', async () => {
		const catalog = createCatalog();
		const json = (value: unknown) => new Blob([JSON.stringify(value)]);
		catalog.setLocalFolder([
			{ relativePath: 'llama3/config.json', file: json({ bos_token_id: 128000 }) },
			{
				relativePath: 'llama3/tokenizer.json',
				file: json({
					post_processor: {
						type: 'Sequence',
						processors: [
							{ type: 'ByteLevel' },
							{
								type: 'TemplateProcessing',
								single: [
									{ SpecialToken: { id: '<|begin_of_text|>', type_id: 0 } },
									{ Sequence: { id: 'A', type_id: 0 } },
								],
							},
						],
					},
				}),
			},
			{
				relativePath: 'llama3/tokenizer_config.json',
				file: json({ bos_token: '<|begin_of_text|>' }),
			},
			{ relativePath: 'llama3/onnx/model.onnx', file: new Blob([]) },
		]);
		expect(catalog.conventionPending).toBe(true);
		expect(catalog.conventionProblem).toMatch(/llama3's tokenizer files/);
		await catalog.readConventionFacts();
		expect(catalog.convention).toBe('bos');
		expect(catalog.conventionDefault?.reason).toMatch(
			/llama3's tokenizer adds its own .*post-processor/,
		);
		expect(catalog.conventionDefault?.reason).not.toMatch(/does not say|0 bits/);
	});

	it('sets the convention with the model when a spec is chosen (resume, share links)', () => {
		const catalog = createCatalog();
		catalog.choose(
			{ source: 'bundled', id: 'gpt2-random-tiny', dtype: 'fp32', backend: 'wasm' },
			'reference',
		);
		expect(catalog.convention).toBe('reference');
	});
});
