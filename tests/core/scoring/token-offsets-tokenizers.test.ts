// Offsets and conventions through transformers.js's real tokenizers (loaded from disk, never the
// hub): the bundled GPT-2 byte-level BPE against the golden offsets of all 60 sentences, and a
// hand-made SentencePiece tokenizer (Metaspace + byte_fallback) in tests/fixtures/tokenizers.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { AutoTokenizer, env, type PreTrainedTokenizer } from '@huggingface/transformers';
import {
	computeTokenOffsets,
	readTokenizerFacts,
	type TokenizerFacts,
} from '../../../src/core/scoring/token-offsets';
import { planModelInput } from '../../../src/core/scoring/conventions';

interface GoldenSentence {
	readonly id: number;
	readonly text: string;
	readonly input_ids: readonly number[];
	readonly tokens: readonly string[];
	readonly offsets: readonly (readonly [number, number])[];
}

const MODELS_DIR = fileURLToPath(new URL('../../../public/models/', import.meta.url));
const TOKENIZERS_DIR = fileURLToPath(new URL('../../fixtures/tokenizers/', import.meta.url));
const GOLDEN = fileURLToPath(
	new URL('../../fixtures/golden/surprisals-gpt2-en-small.json', import.meta.url),
);

async function loadTokenizer(folder: string, id: string): Promise<PreTrainedTokenizer> {
	env.allowRemoteModels = false;
	env.allowLocalModels = true;
	env.localModelPath = folder;
	return AutoTokenizer.from_pretrained(id);
}

function readFacts(path: string): TokenizerFacts {
	return readTokenizerFacts(JSON.parse(readFileSync(path, 'utf8')));
}

/** Encodes without special tokens; token strings from `tokenize` (the vocabulary form). */
function encodeText(tokenizer: PreTrainedTokenizer, text: string) {
	const ids = tokenizer.encode(text, { add_special_tokens: false });
	const tokens = text === '' ? [] : tokenizer.tokenize(text);
	return { ids, tokens };
}

function decoderOf(tokenizer: PreTrainedTokenizer): (ids: readonly number[]) => string {
	return (ids) =>
		tokenizer.decode([...ids], { skip_special_tokens: true, clean_up_tokenization_spaces: false });
}

describe('gpt2-en-small tokenizer (byte-level BPE) against the golden offsets', () => {
	const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as {
		bos_token: string;
		bos_token_id: number;
		sentences: GoldenSentence[];
	};
	const facts = readFacts(`${MODELS_DIR}gpt2-en-small/tokenizer.json`);
	let tokenizer: PreTrainedTokenizer;
	beforeAll(async () => {
		tokenizer = await loadTokenizer(MODELS_DIR, 'gpt2-en-small');
	});

	it('is detected as byte-level BPE with <|endoftext|> as its special token', () => {
		expect(facts.kind).toBe('byte-level-bpe');
		expect(facts.addedTokens).toEqual([{ id: 0, content: '<|endoftext|>', special: true }]);
		expect(golden.sentences).toHaveLength(60);
	});

	it('tokenizes all 60 sentences to the golden ids under the bos convention', () => {
		for (const sentence of golden.sentences) {
			const { ids } = encodeText(tokenizer, sentence.text);
			const plan = planModelInput(
				ids,
				{ addsBos: false, addsEos: false, bosTokenId: 0, eosTokenId: 0 },
				'bos',
			);
			expect(plan.inputIds, sentence.text).toEqual(sentence.input_ids);
		}
	});

	it('gives the golden offsets for all 60 sentences (byte alignment)', () => {
		for (const sentence of golden.sentences) {
			const { ids, tokens } = encodeText(tokenizer, sentence.text);
			const spans = computeTokenOffsets({
				text: sentence.text,
				kind: facts.kind,
				tokens: [golden.bos_token, ...tokens],
				ids: [golden.bos_token_id, ...ids],
				addedTokens: facts.addedTokens,
			});
			expect(
				spans.map((s) => [s.start, s.end]),
				sentence.text,
			).toEqual(sentence.offsets);
			expect(spans.map((s) => s.special)).toEqual(sentence.offsets.map((_, i) => i === 0));
		}
	});

	it('gives the golden offsets for all 60 sentences (incremental decoding)', () => {
		for (const sentence of golden.sentences) {
			const spans = computeTokenOffsets({
				text: sentence.text,
				kind: 'generic',
				ids: [...sentence.input_ids],
				addedTokens: facts.addedTokens,
				decode: decoderOf(tokenizer),
			});
			expect(
				spans.map((s) => [s.start, s.end]),
				sentence.text,
			).toEqual(sentence.offsets);
		}
	});
});

describe('hand-made SentencePiece tokenizer (Metaspace, byte_fallback) through transformers.js', () => {
	const facts = readFacts(`${TOKENIZERS_DIR}sentencepiece-tiny/tokenizer.json`);
	let tokenizer: PreTrainedTokenizer;
	beforeAll(async () => {
		tokenizer = await loadTokenizer(TOKENIZERS_DIR, 'sentencepiece-tiny');
	});

	const cases: readonly {
		text: string;
		tokens: readonly string[];
		offsets: readonly (readonly [number, number])[];
	}[] = [
		{
			text: 'The cat sat on the mat.',
			tokens: ['▁The', '▁cat', '▁sat', '▁on', '▁the', '▁mat', '.'],
			offsets: [
				[0, 3],
				[3, 7],
				[7, 11],
				[11, 14],
				[14, 18],
				[18, 22],
				[22, 23],
			],
		},
		{
			text: 'The café',
			tokens: ['▁The', '▁caf', '<0xC3>', '<0xA9>'],
			offsets: [
				[0, 3],
				[3, 7],
				[7, 8],
				[7, 8],
			],
		},
		{
			text: '€5',
			tokens: ['▁', '<0xE2>', '<0x82>', '<0xAC>', '<0x35>'],
			offsets: [
				[0, 0],
				[0, 1],
				[0, 1],
				[0, 1],
				[1, 2],
			],
		},
		{
			text: ' The  cat ',
			tokens: ['▁The', '▁', '▁cat', '▁'],
			offsets: [
				[0, 4],
				[4, 5],
				[5, 9],
				[9, 10],
			],
		},
		{
			text: 'x😊\nsat',
			tokens: ['▁', '<0x78>', '<0xF0>', '<0x9F>', '<0x98>', '<0x8A>', '<0x0A>', 's', 'a', 't'],
			offsets: [
				[0, 0],
				[0, 1],
				[1, 3],
				[1, 3],
				[1, 3],
				[1, 3],
				[3, 4],
				[4, 5],
				[5, 6],
				[6, 7],
			],
		},
		{
			text: '猫 sat',
			tokens: ['▁', '<0xE7>', '<0x8C>', '<0xAB>', '▁sat'],
			offsets: [
				[0, 0],
				[0, 1],
				[0, 1],
				[0, 1],
				[1, 5],
			],
		},
	];

	it('is detected as SentencePiece; the tokenizer adds <s> itself', () => {
		expect(facts.kind).toBe('sentencepiece');
		expect(tokenizer.add_bos_token).toBe(true);
		expect(tokenizer.bos_token_id).toBe(1);
	});

	it.each(cases)('$text: tokens and offsets', ({ text, tokens, offsets }) => {
		const encoded = encodeText(tokenizer, text);
		expect(encoded.tokens).toEqual(tokens);
		const spans = computeTokenOffsets({
			text,
			kind: facts.kind,
			tokens: encoded.tokens,
			ids: encoded.ids,
			addedTokens: facts.addedTokens,
		});
		expect(spans.map((s) => [s.start, s.end])).toEqual(offsets);
		const generic = computeTokenOffsets({
			text,
			kind: 'generic',
			ids: encoded.ids,
			addedTokens: facts.addedTokens,
			decode: decoderOf(tokenizer),
		});
		expect(generic).toEqual(spans);
	});

	it.each(cases)('$text: the reference convention reproduces the tokenizer', ({ text }) => {
		const { ids } = encodeText(tokenizer, text);
		const plan = planModelInput(
			ids,
			{
				addsBos: tokenizer.add_bos_token === true,
				addsEos: tokenizer.add_eos_token === true,
				bosTokenId: tokenizer.bos_token_id,
				eosTokenId: tokenizer.eos_token_id,
			},
			'reference',
		);
		expect(plan.inputIds).toEqual(tokenizer.encode(text));
		expect(plan.roles[0]).toBe('bos');
	});
});
