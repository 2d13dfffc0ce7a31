// The Stimuli kind's own pieces: its sealed bundle of word rows, its link (with the fingerprint a
// re-run compares), the too-large refusal, and its resume rule.
import { describe, expect, it } from 'vitest';
import { RUN_KIND_REGISTRY } from '../../../src/core/kinds/registered-kinds';
import {
	STIMULI_RUN_KIND,
	STIMULI_SHARE_MAX_TEXT_CHARS,
	STIMULI_WORDS_PER_IMPORTED_ITEM,
	stimuliWordsFingerprint,
	type StimuliBundle,
	type StimuliPayload,
} from '../../../src/core/stimuli/stimuli-run-kind';
import { sha256Hex } from '../../../src/core/hash/sha256';

const FILE_TEXT = 'item,sentence\n1,The cat sat.\n2,A dog ran.\n';
const MODEL = {
	source: 'bundled',
	id: 'gpt2-random-tiny',
	dtype: 'fp32',
	backend: 'wasm',
} as const;
const CHOICES = {
	layout: 'text-per-row',
	textColumn: 'sentence',
	groupColumn: null,
	contextColumn: null,
	punctuation: 'keep',
	delimiter: ',',
} as const;

const BUNDLE: StimuliBundle = {
	run: {
		title: 'Pilot stimuli',
		status: 'done',
		createdAt: Date.UTC(2026, 10, 28, 12),
		updatedAt: Date.UTC(2026, 10, 28, 13),
		fileName: 'pilot.csv',
		fileSha256: sha256Hex(FILE_TEXT),
		choices: CHOICES,
		models: [MODEL],
		wordsTotal: 3,
		wordsDone: 3,
	},
	words: [
		{
			row: 0,
			wordIndex: 0,
			word: 'The',
			surprisalBits: 9.5,
			bowSurprisalBits: 9.75,
			entropyBits: 7.25,
			model: 0,
		},
		{
			row: 0,
			wordIndex: 1,
			word: 'cat',
			surprisalBits: 12.125,
			bowSurprisalBits: null,
			entropyBits: null,
			model: 0,
		},
		{
			row: 0,
			wordIndex: 2,
			word: 'sat.',
			surprisalBits: 8.5,
			bowSurprisalBits: 8.625,
			entropyBits: 6.5,
			model: 0,
		},
	],
};

function payload(text = FILE_TEXT): StimuliPayload {
	return {
		text,
		choices: CHOICES,
		model: MODEL,
		wordsSha256: stimuliWordsFingerprint(BUNDLE.words),
		wordCount: BUNDLE.words.length,
	};
}

describe('the stimuli kind', () => {
	it('reads back the bundle it writes, sealed: a changed surprisal is refused at /resultsSha256', () => {
		const text = STIMULI_RUN_KIND.bundle.write(BUNDLE);
		expect(STIMULI_RUN_KIND.bundle.read(text)).toMatchObject({ ok: true, bundle: BUNDLE });
		expect(RUN_KIND_REGISTRY.readBundle(text)).toMatchObject({ ok: true, kind: 'stimuli' });
		const changed = JSON.parse(text) as { words: { surprisalBits: number }[] };
		changed.words[1]!.surprisalBits = 3;
		expect(STIMULI_RUN_KIND.bundle.read(JSON.stringify(changed))).toMatchObject({
			ok: false,
			pointer: '/resultsSha256',
		});
		expect(STIMULI_RUN_KIND.bundle.summarize(BUNDLE)).toMatch(/pilot\.csv .* 3 of 3 words · done/);
	});

	it('refuses a bundle whose word row is not a finite number of bits', () => {
		const text = STIMULI_RUN_KIND.bundle.write({
			...BUNDLE,
			words: [{ ...BUNDLE.words[0]!, surprisalBits: 'nine' as unknown as number }],
		});
		expect(STIMULI_RUN_KIND.bundle.read(text)).toMatchObject({
			ok: false,
			pointer: '/words/0/surprisalBits',
		});
	});

	it('carries a run’s top next tokens and refuses hostile ones (a probability over 1, too many)', () => {
		const topNext = [
			{ text: ' cat', probability: 0.25 },
			{ text: ' dog', probability: 0.125 },
		];
		const withTop: StimuliBundle = {
			...BUNDLE,
			run: { ...BUNDLE.run, choices: { ...CHOICES, topNext: 2 } },
			words: BUNDLE.words.map((word) => ({ ...word, topNext })),
		};
		const text = STIMULI_RUN_KIND.bundle.write(withTop);
		expect(STIMULI_RUN_KIND.bundle.read(text)).toMatchObject({ ok: true, bundle: withTop });
		// Sealed as written: the schema, not the seal, refuses them.
		const bad = (first: unknown[], second: unknown[] = topNext) =>
			STIMULI_RUN_KIND.bundle.read(
				STIMULI_RUN_KIND.bundle.write({
					...withTop,
					words: withTop.words.map((word, index) => ({
						...word,
						topNext: (index === 0 ? first : second) as typeof topNext,
					})),
				}),
			);
		expect(bad([{ text: 'x', probability: 2 }])).toMatchObject({
			ok: false,
			pointer: '/words/0/topNext/0/probability',
		});
		expect(
			bad(
				topNext,
				Array.from({ length: 21 }, () => ({ text: 'x', probability: 0 })),
			),
		).toMatchObject({ ok: false, pointer: '/words/1/topNext' });
		const tooMany = STIMULI_RUN_KIND.bundle.write({
			...withTop,
			run: { ...withTop.run, choices: { ...CHOICES, topNext: 21 } },
		});
		expect(STIMULI_RUN_KIND.bundle.read(tooMany)).toMatchObject({
			ok: false,
			pointer: '/run/choices/topNext',
		});
	});

	it('carries the stimulus file and stores it beside the words, many to a row keyed by model and place', () => {
		const words = [
			...BUNDLE.words,
			{ ...BUNDLE.words[0]!, model: 1 },
			// A word with no token of its own: NaN bits, written as null and read back as NaN.
			{ ...BUNDLE.words[1]!, model: 1, surprisalBits: Number.NaN, tokens: [] },
		];
		const run = { ...BUNDLE.run, models: [MODEL, { ...MODEL, id: 'gpt2-random-tiny' }] };
		const withInput: StimuliBundle = { ...BUNDLE, run, input: FILE_TEXT, words };
		const read = STIMULI_RUN_KIND.bundle.read(STIMULI_RUN_KIND.bundle.write(withInput));
		expect(read.ok).toBe(true);
		if (!read.ok) return;
		expect(read.bundle.input).toBe(FILE_TEXT);
		expect(read.bundle.words[4]?.surprisalBits).toBeNaN();
		const stored = STIMULI_RUN_KIND.toStored!(read.bundle);
		expect(stored.items.map((item) => item.key)).toEqual(['input', 'words/0/0', 'words/1/0']);
		const back = STIMULI_RUN_KIND.fromStored!({ ...stored.run, id: 7 }, stored.items);
		expect(back.input).toBe(FILE_TEXT);
		expect(back.words).toEqual(read.bundle.words);
	});

	it('stores a large import in rows of STIMULI_WORDS_PER_IMPORTED_ITEM words, read back in order', () => {
		const many = Array.from({ length: STIMULI_WORDS_PER_IMPORTED_ITEM * 2 + 3 }, (_, index) => ({
			...BUNDLE.words[0]!,
			wordIndex: index,
		}));
		const stored = STIMULI_RUN_KIND.toStored!({ ...BUNDLE, words: many });
		expect(stored.items.map((item) => item.key)).toEqual([
			'words/0/0',
			`words/0/${STIMULI_WORDS_PER_IMPORTED_ITEM}`,
			`words/0/${STIMULI_WORDS_PER_IMPORTED_ITEM * 2}`,
		]);
		const back = STIMULI_RUN_KIND.fromStored!(
			{ ...stored.run, id: 7 },
			[...stored.items].reverse(),
		);
		expect(back.words).toEqual(many);
	});

	it("refuses a bundle whose word names a model the run does not have, at the word's place", () => {
		const words = [...BUNDLE.words, { ...BUNDLE.words[0]!, model: 1 }];
		const text = STIMULI_RUN_KIND.bundle.write({ ...BUNDLE, words });
		expect(STIMULI_RUN_KIND.bundle.read(text)).toMatchObject({
			ok: false,
			pointer: `/words/${BUNDLE.words.length}/model`,
		});
	});

	it('round-trips its link, opened by the registry at its route and refused under another', () => {
		const data = STIMULI_RUN_KIND.share.encode(payload());
		expect(STIMULI_RUN_KIND.share.decode(data)).toEqual(payload());
		expect(
			RUN_KIND_REGISTRY.decodeShareLink(`https://example.org/#/stimuli/share/${data}`),
		).toEqual({ ok: true, kind: 'stimuli', payload: payload() });
		const moved = RUN_KIND_REGISTRY.decodeShareLink(`#/evals/share/${data}`);
		expect(!moved.ok && moved.error.message).toMatch(/another kind \("stimuli"\)/);
	});

	it('fingerprints word surprisals so a re-run that differs in one word does not match', () => {
		const same = stimuliWordsFingerprint(BUNDLE.words.map((w) => ({ ...w })));
		const other = stimuliWordsFingerprint(
			BUNDLE.words.map((w, i) => (i === 2 ? { ...w, surprisalBits: w.surprisalBits + 0.01 } : w)),
		);
		expect(same).toBe(payload().wordsSha256);
		expect(other).not.toBe(same);
	});

	it('refuses a too-large input with the error that says to share the bundle', () => {
		const big = `item,sentence\n${'1,The cat sat on the mat.\n'.repeat(STIMULI_SHARE_MAX_TEXT_CHARS / 20)}`;
		expect(big.length).toBeGreaterThan(STIMULI_SHARE_MAX_TEXT_CHARS);
		expect(() => STIMULI_RUN_KIND.share.encode(payload(big))).toThrow(
			expect.objectContaining({
				kind: 'too-large',
				message: expect.stringMatching(/share the file instead/),
			}),
		);
	});

	it('resumes by word: interrupted while words are left, not once done or cancelled', () => {
		const running = {
			...BUNDLE.run,
			id: 1,
			kind: 'stimuli' as const,
			status: 'running' as const,
			wordsDone: 1,
		};
		expect(RUN_KIND_REGISTRY.resumePlan(running)).toEqual({ done: 1, total: 3, interrupted: true });
		expect(STIMULI_RUN_KIND.resume.unit).toBe('word');
		const finished = { ...running, status: 'done' as const, wordsDone: 3 };
		expect(RUN_KIND_REGISTRY.resumePlan(finished)).toBeNull();
	});
});
