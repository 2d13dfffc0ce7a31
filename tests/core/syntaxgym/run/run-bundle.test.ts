import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../../src/core/hash/sha256';
import {
	parseRunBundle,
	serializeRunBundle,
	type RunBundle,
} from '../../../../src/core/syntaxgym/run/run-bundle';
import { hasWordBoundaries } from '../../../../src/core/scoring/word-boundary-correction';
import { TIME_MS_MESSAGE } from '../../../../src/core/run/task-run-json';

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

/** A run scored with word boundaries: every text token has its boundary term. */
function boundaryBundle(): RunBundle {
	const original = bundle();
	return {
		...original,
		run: { ...original.run, wordBoundaries: true },
		items: [
			{
				itemNumber: 1,
				sentences: [
					{
						conditionName: 'good',
						text: 'The cat .',
						tokens: [
							{ token: 'The', surprisalBits: 0, start: 0, end: 3, boundarySurprisalBits: 0.25 },
							{
								token: 'Ġcat',
								surprisalBits: 9.5,
								start: 3,
								end: 7,
								boundarySurprisalBits: 0.1 + 0.2,
							},
							{
								token: 'Ġ.',
								surprisalBits: 3,
								start: 7,
								end: 9,
								boundarySurprisalBits: Number.POSITIVE_INFINITY,
							},
						],
					},
				],
			},
		],
	};
}

/** A written bundle's results SHA-256 (checked on reading, so a read gives it back). */
const SEALED = expect.stringMatching(/^[0-9a-f]{64}$/) as unknown as string;

function withRoot(
	mutate: (root: Record<string, unknown>) => void,
	original: RunBundle = bundle(),
): string {
	const root = JSON.parse(serializeRunBundle(original)) as Record<string, unknown>;
	// Edited, so without its results' SHA-256 (or the refusal would be the seal's, not the parser's).
	delete root['resultsSha256'];
	mutate(root);
	return JSON.stringify(root);
}

/** The first sentence of the first item of a bundle's JSON, to edit. */
function firstSentence(root: Record<string, unknown>): Record<string, unknown> {
	const items = root.items as { sentences: Record<string, unknown>[] }[];
	return items[0]!.sentences[0]!;
}

describe('run bundle', () => {
	it('round-trips exactly, including non-finite surprisals and float bits', () => {
		const result = parseRunBundle(serializeRunBundle(bundle()));
		expect(result).toEqual({ ok: true, resultsSha256: SEALED, bundle: bundle() });
	});

	it('round-trips which tokens are special, whether a sentence has few or many', () => {
		for (const specialCount of [0, 1, 8, 9, 40]) {
			const original = bundle();
			const tokens = Array.from({ length: 100 }, (_, index) => ({
				token: `t${index}`,
				surprisalBits: index,
				start: index,
				end: index + 1,
				// Every other token special, up to specialCount of them.
				...(index % 2 === 1 && index < 2 * specialCount ? { special: true } : {}),
			}));
			const [item] = original.items;
			if (!item) throw new Error('no item');
			const sentence = { conditionName: 'good', text: 'x'.repeat(100), tokens };
			const many = { ...original, items: [{ ...item, sentences: [sentence] }] };
			const read = parseRunBundle(serializeRunBundle(many));
			if (!read.ok) throw new Error(read.message);
			const flags = read.bundle.items[0]?.sentences[0]?.tokens.filter((token) => token.special);
			expect(flags?.length, `${specialCount} special`).toBe(specialCount);
			expect(read.bundle).toEqual(many);
		}
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
		expect(parseRunBundle(text)).toEqual({ ok: true, resultsSha256: SEALED, bundle: endpoint });
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
		expect(parseRunBundle(serializeRunBundle(noOffsets))).toEqual({
			ok: true,
			resultsSha256: SEALED,
			bundle: noOffsets,
		});
	});

	it("round-trips word boundaries: the run flag and every token's boundary value", () => {
		const text = serializeRunBundle(boundaryBundle());
		const written = JSON.parse(text) as Record<string, unknown>;
		expect((written.run as Record<string, unknown>).wordBoundaries).toBe(true);
		expect(firstSentence(written).boundarySurprisalsBits).toEqual([0.25, 0.1 + 0.2, 'Infinity']);
		const result = parseRunBundle(text);
		expect(result).toEqual({ ok: true, resultsSha256: SEALED, bundle: boundaryBundle() });
		// The imported run offers the beginning-of-word correction again.
		if (!result.ok) return;
		expect(hasWordBoundaries(result.bundle.items.flatMap((item) => item.sentences))).toBe(true);
	});

	it('keeps a token without a boundary value as null between tokens that have one', () => {
		const original = boundaryBundle();
		const sentence = original.items[0]!.sentences[0]!;
		const { boundarySurprisalBits: _dropped, ...bos } = sentence.tokens[0]!;
		const mixed: RunBundle = {
			...original,
			items: [
				{ itemNumber: 1, sentences: [{ ...sentence, tokens: [bos, ...sentence.tokens.slice(1)] }] },
			],
		};
		const text = serializeRunBundle(mixed);
		expect(
			firstSentence(JSON.parse(text) as Record<string, unknown>).boundarySurprisalsBits,
		).toEqual([null, 0.1 + 0.2, 'Infinity']);
		expect(parseRunBundle(text)).toEqual({ ok: true, resultsSha256: SEALED, bundle: mixed });
	});

	it('writes the benchtop-run/2 envelope: format, then kind', () => {
		const written = JSON.parse(serializeRunBundle(bundle())) as Record<string, unknown>;
		expect(Object.keys(written).slice(0, 2)).toEqual(['format', 'kind']);
		expect(written).toMatchObject({ format: 'benchtop-run/2', kind: 'suite' });
		expect(written).not.toHaveProperty('formatVersion');
	});

	it('writes no boundary fields for a run without word boundaries', () => {
		const written = JSON.parse(serializeRunBundle(bundle())) as Record<string, unknown>;
		expect(written.run).not.toHaveProperty('wordBoundaries');
		expect(firstSentence(written)).not.toHaveProperty('boundarySurprisalsBits');
	});

	it('imports a bundle written before word boundaries existed', () => {
		const suiteText = '{"meta":{"name":"old"}}';
		const old = JSON.stringify({
			format: 'benchtop-run',
			formatVersion: 1,
			run: {
				suiteName: 'old',
				suiteSha256: sha256Hex(suiteText),
				model: { source: 'bundled', id: 'gpt2-en-small', dtype: 'fp32', backend: 'wasm' },
				convention: 'reference',
				itemCount: 1,
				appVersion: '0.1.0',
				createdAt: 1,
				updatedAt: 2,
				status: 'done',
				scoringMs: 3,
				tokenCount: 2,
			},
			suite: { text: suiteText },
			items: [
				{
					itemNumber: 1,
					sentences: [
						{
							conditionName: 'a',
							text: 'A b',
							tokens: ['A', 'Ġb'],
							surprisalsBits: [0, 4.5],
							starts: [0, 1],
							ends: [1, 3],
							special: [],
						},
					],
				},
			],
		});
		const result = parseRunBundle(old);
		expect(result.ok).toBe(true);
		if (!result.ok) return;
		expect(result.bundle.run).not.toHaveProperty('wordBoundaries');
		expect(result.bundle.items[0]!.sentences[0]!.tokens).toEqual([
			{ token: 'A', surprisalBits: 0, start: 0, end: 1 },
			{ token: 'Ġb', surprisalBits: 4.5, start: 1, end: 3 },
		]);
		expect(hasWordBoundaries(result.bundle.items[0]!.sentences)).toBe(false);
	});

	it.each<[string, string, string]>([
		['{not json', '', 'not JSON'],
		['[]', '', 'expected an object'],
		[withRoot((r) => (r.format = 'other')), '/format', 'not a suite run bundle'],
		[withRoot((r) => (r.format = 'benchtop-run/3')), '/format', 'newer than this Benchtop reads'],
		[
			withRoot((r) => Object.assign(r, { format: 'benchtop-run', formatVersion: 2 })),
			'/formatVersion',
			'newer than this Benchtop reads',
		],
		[
			withRoot((r) => (r.kind = 'evals')),
			'/kind',
			'a bundle of another kind of run ("evals"), not a suite run bundle: import it in the Library, which opens runs of every kind',
		],
		[
			withRoot((r) => (r.kind = 'chat')),
			'/kind',
			'a bundle of another kind of run ("chat"), not a suite run bundle: import it in the Library, which opens runs of every kind',
		],
		[withRoot((r) => (r.kind = 7)), '/kind', 'expected the kind of run ("suite" …)'],
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
		[
			withRoot((r) => ((r.run as Record<string, unknown>).createdAt = 8.65e15)),
			'/run/createdAt',
			'expected a time in milliseconds since 1970, within the years 0000 to 9999',
		],
		[
			withRoot((r) => ((r.run as Record<string, unknown>).updatedAt = -8.65e15)),
			'/run/updatedAt',
			'within the years 0000 to 9999',
		],
		[
			withRoot((r) => ((r.run as Record<string, unknown>).createdAt = '1700000000000')),
			'/run/createdAt',
			'expected a time in milliseconds',
		],
		[
			withRoot((r) => ((r.run as Record<string, unknown>).wordBoundaries = 'yes')),
			'/run/wordBoundaries',
			'expected true or false',
		],
		[
			withRoot((r) => (firstSentence(r).boundarySurprisalsBits = 0.5), boundaryBundle()),
			'/items/0/sentences/0/boundarySurprisalsBits',
			'expected an array',
		],
		[
			withRoot(
				(r) => (firstSentence(r).boundarySurprisalsBits as unknown[]).pop(),
				boundaryBundle(),
			),
			'/items/0/sentences/0/boundarySurprisalsBits',
			'expected 3 values, one per token',
		],
		[
			withRoot(
				(r) => ((firstSentence(r).boundarySurprisalsBits as unknown[])[1] = 'high'),
				boundaryBundle(),
			),
			'/items/0/sentences/0/boundarySurprisalsBits/1',
			'expected a surprisal in bits',
		],
	])('rejects bad input with its location (%#)', (text, pointer, message) => {
		const result = parseRunBundle(text);
		expect(result.ok).toBe(false);
		if (result.ok) return;
		expect(result.pointer).toBe(pointer);
		expect(result.message).toContain(message);
	});

	it('drops __proto__ and constructor keys: nothing reaches the bundle or any prototype', () => {
		// JSON.parse makes `__proto__` an own key (as a file's JSON has it), not a prototype.
		const text = withRoot((root) => {
			const run = root.run as Record<string, unknown>;
			root.run = {
				...(JSON.parse(
					'{"__proto__":{"errorMessage":"evil","polluted":1},"constructor":{"prototype":{"polluted":1}}}',
				) as object),
				...run,
			};
			const items = root.items as Record<string, unknown>[];
			items[0] = { ...(JSON.parse('{"__proto__":{"itemNumber":9}}') as object), ...items[0] };
		});
		expect(text).toContain('"__proto__"');
		const result = parseRunBundle(text);
		expect(result).toEqual({ ok: true, bundle: bundle() });
		if (!result.ok) return;
		expect(Object.getPrototypeOf(result.bundle.run)).toBe(Object.prototype);
		expect(Object.hasOwn(result.bundle.run, '__proto__')).toBe(false);
		expect(Object.hasOwn(result.bundle.run, 'constructor')).toBe(false);
		expect(result.bundle.run).not.toHaveProperty('errorMessage');
		expect(Object.getPrototypeOf(result.bundle.items[0])).toBe(Object.prototype);
		expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
	});

	/** Sets `value` (undefined deletes) at `path` of a bundle's JSON. */
	const at =
		(path: readonly (string | number)[], value: unknown) => (root: Record<string, unknown>) => {
			let target = root as Record<string | number, unknown>;
			for (const key of path.slice(0, -1)) target = target[key] as Record<string | number, unknown>;
			const last = path.at(-1) as string | number;
			if (value === undefined) delete target[last];
			else target[last] = value;
		};
	const SENTENCE = ['items', 0, 'sentences', 0] as const;

	it.each<[readonly (string | number)[], unknown, string, string]>([
		// A list where an object belongs is not an object (valibot's own object schema takes one).
		[['run', 'model'], [], '/run/model', 'expected an object'],
		[['suite'], ['text'], '/suite', 'expected an object'],
		[['items', 0], [], '/items/0', 'expected an object'],
		[[...SENTENCE], [], '/items/0/sentences/0', 'expected an object'],
		// A missing field is refused by its own rule, at its own pointer.
		[['run', 'suiteName'], undefined, '/run/suiteName', 'expected a string'],
		[['run', 'createdAt'], undefined, '/run/createdAt', TIME_MS_MESSAGE],
		[
			['run', 'model', 'source'],
			undefined,
			'/run/model/source',
			'expected one of bundled, hub, local, openai',
		],
		[['run', 'model', 'dtype'], undefined, '/run/model/dtype', 'expected one of fp32, fp16, q8'],
		[[...SENTENCE, 'starts'], undefined, '/items/0/sentences/0/starts', 'expected an array'],
		[['items', 0, 'sentences'], undefined, '/items/0/sentences', 'expected an array'],
		// Wrong-typed values, deep in a sentence's columns too, named exactly.
		[['run', 'model', 'revision'], 7, '/run/model/revision', 'expected a string'],
		[['run', 'itemCount'], -1, '/run/itemCount', 'expected an integer of at least 0'],
		[['run', 'scoringMs'], 'fast', '/run/scoringMs', 'expected a number'],
		[
			['run', 'status'],
			'paused',
			'/run/status',
			'expected one of running, cancelled, done, failed',
		],
		[['items', 0, 'itemNumber'], 1.5, '/items/0/itemNumber', 'expected an integer'],
		[
			[...SENTENCE, 'starts', 2],
			-1,
			'/items/0/sentences/0/starts/2',
			'expected an integer of at least 0',
		],
		[[...SENTENCE, 'ends', 3], '14', '/items/0/sentences/0/ends/3', 'expected a number'],
		[
			[...SENTENCE, 'special', 0],
			0.5,
			'/items/0/sentences/0/special/0',
			'expected an integer of at least 0',
		],
		[
			[...SENTENCE, 'surprisalsBits', 3],
			'inf',
			'/items/0/sentences/0/surprisalsBits/3',
			'expected a surprisal in bits (a number)',
		],
		[
			[...SENTENCE, 'surprisalsBits', 0],
			null,
			'/items/0/sentences/0/surprisalsBits/0',
			'expected a surprisal in bits (a number)',
		],
		[[...SENTENCE, 'text'], 5, '/items/0/sentences/0/text', 'expected a string'],
		[['run', 'itemCount'], 0, '/items', '1 items, more than /run/itemCount (0)'],
	])('refuses hostile %j = %j at %s, exactly', (path, value, pointer, message) => {
		expect(parseRunBundle(withRoot(at(path, value)))).toEqual({ ok: false, pointer, message });
	});
});
