import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/core/hash/sha256';
import {
	parseRunBundle,
	serializeRunBundle,
	type RunBundle,
} from '../../../src/core/run/run-bundle';

const SUITE_TEXT = '{"meta":{"name":"tiny"}}\n';

function bundle(): RunBundle {
	return {
		run: {
			suiteName: 'tiny',
			suiteSha256: sha256Hex(SUITE_TEXT),
			model: {
				source: 'hub',
				id: 'Xenova/distilgpt2',
				revision: 'main',
				dtype: 'fp32',
				backend: 'wasm',
			},
			convention: 'bos+eos',
			itemCount: 2,
			appVersion: '0.1.0',
			createdAt: 1_700_000_000_000,
			updatedAt: 1_700_000_050_000,
			status: 'cancelled',
			scoringMs: 1234.5,
			tokenCount: 9,
			fallbackReason: 'WebGPU is not available; ran on WASM.',
		},
		suiteText: SUITE_TEXT,
		items: [
			{
				itemNumber: 1,
				sentences: [
					{
						conditionName: 'good',
						text: 'Ünïcode runs .',
						tokens: [
							{ token: '<|endoftext|>', surprisalBits: 0, start: 0, end: 0, special: true },
							{ token: 'Ãľ', surprisalBits: 0.1 + 0.2, start: 0, end: 7 },
							{ token: 'Ġruns', surprisalBits: 1e-300, start: 7, end: 12 },
							{ token: 'Ġ.', surprisalBits: Number.POSITIVE_INFINITY, start: 12, end: 14 },
						],
					},
				],
			},
		],
	};
}

function withRoot(mutate: (root: Record<string, unknown>) => void): string {
	const root = JSON.parse(serializeRunBundle(bundle())) as Record<string, unknown>;
	mutate(root);
	return JSON.stringify(root);
}

describe('run bundle', () => {
	it('round-trips exactly, including non-finite surprisals and float bits', () => {
		const result = parseRunBundle(serializeRunBundle(bundle()));
		expect(result).toEqual({ ok: true, bundle: bundle() });
	});

	it('round-trips an endpoint run: model id and base URL, nothing else', () => {
		const original = bundle();
		const endpoint: RunBundle = {
			...original,
			run: {
				...original.run,
				model: { source: 'openai', model: 'gpt2-random-tiny', baseUrl: 'http://127.0.0.1:8000/v1' },
			},
		};
		// A record that somehow held more (a key) exports only the spec's own fields.
		const withKey = {
			...endpoint,
			run: { ...endpoint.run, model: { ...endpoint.run.model, apiKey: 'sk-secret' } },
		};
		const text = serializeRunBundle(withKey);
		expect(text).not.toContain('sk-secret');
		expect(parseRunBundle(text)).toEqual({ ok: true, bundle: endpoint });
	});

	it('keeps tokens without offsets (imported lm-zoo tokens)', () => {
		const original = bundle();
		const noOffsets: RunBundle = {
			...original,
			items: [
				{
					itemNumber: 4,
					sentences: [
						{ conditionName: 'a', text: 'x', tokens: [{ token: 'x', surprisalBits: Number.NaN }] },
					],
				},
			],
		};
		expect(parseRunBundle(serializeRunBundle(noOffsets))).toEqual({ ok: true, bundle: noOffsets });
	});

	it.each<[string, string, string]>([
		['{not json', '', 'not JSON'],
		['[]', '', 'expected an object'],
		[withRoot((r) => (r.format = 'other')), '/format', 'not a Benchtop run bundle'],
		[withRoot((r) => (r.formatVersion = 2)), '/formatVersion', 'unsupported bundle version 2'],
		[
			withRoot((r) => ((r.run as Record<string, unknown>).convention = 'eos')),
			'/run/convention',
			'expected one of reference, bos, bos+eos',
		],
		[
			withRoot((r) => ((r.suite as Record<string, unknown>).text = 'edited')),
			'/suite/text',
			'does not match',
		],
		[
			withRoot((r) => {
				const items = r.items as { sentences: { surprisalsBits: unknown[] }[] }[];
				items[0]!.sentences[0]!.surprisalsBits.pop();
			}),
			'/items/0/sentences/0/surprisalsBits',
			'expected 4 values',
		],
		[
			withRoot((r) => {
				const items = r.items as { sentences: { tokens: unknown[] }[] }[];
				items[0]!.sentences[0]!.tokens[1] = 5;
			}),
			'/items/0/sentences/0/tokens/1',
			'expected a string',
		],
		[
			withRoot((r) => {
				const items = r.items as unknown[];
				items.push(items[0]);
			}),
			'/items/1/itemNumber',
			'appears twice',
		],
		[
			withRoot((r) => ((r.run as Record<string, unknown>).model = { source: 'disk' })),
			'/run/model/source',
			'expected one of',
		],
		[
			withRoot(
				(r) =>
					((r.run as Record<string, unknown>).model = {
						source: 'openai',
						model: 'm',
						baseUrl: 'file:///etc',
					}),
			),
			'/run/model/baseUrl',
			'expected an http(s) URL',
		],
		[
			withRoot(
				(r) =>
					((r.run as Record<string, unknown>).model = {
						source: 'openai',
						model: '',
						baseUrl: 'http://h/v1',
					}),
			),
			'/run/model/model',
			'expected the model id',
		],
	])('rejects bad input with its location (%#)', (text, pointer, message) => {
		const result = parseRunBundle(text);
		expect(result.ok).toBe(false);
		if (result.ok) return;
		expect(result.pointer).toBe(pointer);
		expect(result.message).toContain(message);
	});
});
