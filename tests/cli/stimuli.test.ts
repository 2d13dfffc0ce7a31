// `stimuli` with the real Node engine. Parity: every word's surprisal equals the sum of the token
// surprisals that `surprisals` prints for the same text (grouped here by the tokens' own word
// markers, not by offsets), and its corrected value equals `surprisals --words --bow`, on a GPT-2
// byte-level BPE model (Ġ, bundled gpt2-random-tiny) and a SentencePiece one (▁: the same weights
// with the hand-made Llama-style tokenizer of tests/fixtures/tokenizers). The layouts agree with
// each other; hostile files and flags exit 2 with located messages.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stimuliCommand } from '../../src/cli/commands/stimuli';
import { surprisalsCommand } from '../../src/cli/commands/surprisals';
import { readTsvTable } from '../../src/core/formats/tsv-table';
import { readLmZooSurprisals } from '../../src/core/syntaxgym/formats/lm-zoo-surprisals';
import { sumSurprisalsToWords } from '../../src/core/scoring/word-surprisal';
import { runCliCommand } from './run-cli-command';

const dir = mkdtempSync(join(tmpdir(), 'benchtop-stimuli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MODELS = fileURLToPath(new URL('../../public/models/', import.meta.url));
const SENTENCEPIECE = fileURLToPath(
	new URL('../fixtures/tokenizers/sentencepiece-tiny/', import.meta.url),
);
const SPECIAL = new Set(['<|endoftext|>', '<s>', '</s>']);

/** Writes `text` to a file in the test folder; returns its path. */
function file(name: string, text: string | Uint8Array): string {
	const path = join(dir, name);
	writeFileSync(path, text);
	return path;
}

/** A CSV (or TSV) read back with the project's other table reader: rows as records. */
function records(csv: string, separator: 'comma' | 'tab' = 'comma'): Record<string, string>[] {
	const table = readTsvTable(csv, { separator });
	return table.rows.map((row) =>
		Object.fromEntries(table.header.map((name, i) => [name, row.fields[i] ?? ''])),
	);
}

/** The words of every line as `surprisals` gives them: tokens summed by their word markers. */
async function wordsFromSurprisals(
	sentences: readonly string[],
	model: readonly string[],
): Promise<{ plain: { word: string; bits: number }[][]; bow: number[][] }> {
	const path = file(`lines-${sentences.length}.txt`, sentences.join('\n') + '\n');
	const tokens = await runCliCommand(surprisalsCommand, [path, ...model], 'disk');
	expect(tokens.exitCode, tokens.stderr).toBe(0);
	const plain = readLmZooSurprisals(tokens.stdout).map((sentence) =>
		sumSurprisalsToWords(
			'',
			sentence.tokens.map((t) => ({ ...t, special: SPECIAL.has(t.token) })),
		).map((w) => ({ word: w.word, bits: w.surprisalBits })),
	);
	const words = await runCliCommand(
		surprisalsCommand,
		[path, ...model, '--words', '--bow'],
		'disk',
	);
	expect(words.exitCode, words.stderr).toBe(0);
	const bow: number[][] = sentences.map(() => []);
	for (const row of records(words.stdout, 'tab')) {
		bow[Number(row['sentence_id']) - 1]?.push(Number(row['surprisal_bow']));
	}
	return { plain, bow };
}

/** Largest |a − b| over pairs, failing on a length mismatch. */
function maxDifference(a: readonly number[], b: readonly number[]): number {
	expect(a).toHaveLength(b.length);
	return Math.max(0, ...a.map((x, i) => Math.abs(x - (b[i] ?? NaN))));
}

const SENTENCES = [
	'The cat sat on the mat.',
	'The cat is on the mat, the cat sat.',
	'Then the caffeine ran out on the mat!',
];

const tokenizers: [string, () => string[]][] = [
	['GPT-2 byte-level BPE (Ġ): gpt2-random-tiny', () => ['--model', 'gpt2-random-tiny']],
	['SentencePiece (▁): sentencepiece-tiny tokenizer', () => ['--model', join(dir, 'sp-tiny')]],
];

beforeAll(() => {
	// A SentencePiece model folder: gpt2-random-tiny's weights (vocabulary 8192) read ids of the
	// hand-made Llama-style tokenizer (ids under 300); random weights either way.
	const folder = join(dir, 'sp-tiny');
	mkdirSync(join(folder, 'onnx'), { recursive: true });
	for (const name of ['config.json', 'generation_config.json', 'onnx/model.onnx']) {
		cpSync(join(MODELS, 'gpt2-random-tiny', name), join(folder, name));
	}
	for (const name of ['tokenizer.json', 'tokenizer_config.json']) {
		cpSync(join(SENTENCEPIECE, name), join(folder, name));
	}
});

describe.each(tokenizers)('stimuli parity on %s', (_, modelArgs) => {
	it('one text per row: word surprisals are sums of the surprisals command’s tokens', async () => {
		const model = [...modelArgs(), '--threads', '2'];
		const csv = file(
			'texts.csv',
			'item,condition,sentence\n' + SENTENCES.map((s, i) => `${i + 1},a,"${s}"`).join('\n'),
		);
		const run = await runCliCommand(stimuliCommand, [csv, '--text', 'sentence', ...model], 'disk');
		expect(run.exitCode, run.stderr).toBe(0);
		const rows = records(run.stdout);
		const expected = await wordsFromSurprisals(SENTENCES, model);
		expect(rows.map((r) => r['word'])).toEqual(SENTENCES.flatMap((s) => s.split(' ')));
		const plain = maxDifference(
			rows.map((r) => Number(r['surprisal_bits'])),
			expected.plain.flat().map((w) => w.bits),
		);
		const bow = maxDifference(
			rows.map((r) => Number(r['surprisal_bow_bits'])),
			expected.bow.flat(),
		);
		// Same texts, same engine: measured 0 bits apart on both tokenizers (23 words).
		expect(plain).toBeLessThanOrEqual(1e-9);
		expect(bow).toBeLessThanOrEqual(1e-9);
		expect(rows.map((r) => r['item'])).toEqual(
			SENTENCES.flatMap((s, i) => s.split(' ').map(() => String(i + 1))),
		);
		expect(rows.map((r) => r['word_index'])).toEqual(
			SENTENCES.flatMap((s) => s.split(' ').map((_, k) => String(k + 1))),
		);
		// Entropy of a distribution over 8,192 tokens: 0 to 13 bits. Every text's first word is
		// predicted by the same distribution (after the start-of-text token alone).
		const entropies = rows.map((r) => Number(r['entropy_bits']));
		expect(entropies.every((h) => h >= 0 && h <= 13)).toBe(true);
		const firsts = rows.filter((r) => r['word_index'] === '1').map((r) => r['entropy_bits']);
		expect(firsts).toHaveLength(SENTENCES.length);
		expect(new Set(firsts).size).toBe(1);
		expect(rows.every((r) => Number(r['token_count']) === r['tokens']?.split(' ').length)).toBe(
			true,
		);
		expect(run.stderr).toMatch(/provenance: model: .*; start-of-text convention: bos/);
	});

	it('--tokens: the surprisals command’s tokens, summing to the word table', async () => {
		const model = [...modelArgs(), '--threads', '2'];
		const csv = file('tokens.csv', 'sentence\n' + SENTENCES.map((s) => `"${s}"`).join('\n') + '\n');
		const run = await runCliCommand(
			stimuliCommand,
			[csv, '--text', 'sentence', '--tokens', ...model],
			'disk',
		);
		expect(run.exitCode, run.stderr).toBe(0);
		const tokens = records(run.stdout);
		const lines = file('tokens.txt', SENTENCES.join('\n') + '\n');
		const reference = readLmZooSurprisals(
			(await runCliCommand(surprisalsCommand, [lines, ...model], 'disk')).stdout,
		).flatMap((sentence) => sentence.tokens);
		expect(tokens.map((t) => t['token'])).toEqual(reference.map((t) => t.token));
		expect(
			maxDifference(
				tokens.map((t) => Number(t['surprisal_bits'])),
				reference.map((t) => t.surprisalBits),
			),
		).toBeLessThanOrEqual(1e-9);
		expect(tokens.filter((t) => t['special'] === 'TRUE').map((t) => t['word_index'])).toEqual(
			SENTENCES.map(() => 'NA'),
		);
		const words = records(
			(await runCliCommand(stimuliCommand, [csv, '--text', 'sentence', ...model], 'disk')).stdout,
		);
		const sums = words.map((word) =>
			tokens
				.filter((t) => t['sentence'] === word['sentence'] && t['word_index'] === word['word_index'])
				.reduce((sum, t) => sum + Number(t['surprisal_bits']), 0),
		);
		expect(
			maxDifference(
				sums,
				words.map((w) => Number(w['surprisal_bits'])),
			),
		).toBeLessThanOrEqual(1e-9);
	});

	it('one word per row, context + target and a running passage agree with the texts', async () => {
		const model = [...modelArgs(), '--threads', '2'];
		// Word per row, each sentence's rows reversed and ordered back by a position column.
		const wordRows = SENTENCES.flatMap((s, i) =>
			s
				.split(' ')
				.map((word, k) => ({ sent: i + 1, pos: k + 1, word }))
				.reverse(),
		);
		const words = file(
			'words.tsv',
			'sent\tpos\tword\n' + wordRows.map((r) => `${r.sent}\t${r.pos}\t${r.word}`).join('\n'),
		);
		const byWord = await runCliCommand(
			stimuliCommand,
			[words, '--word', 'word', '--by', 'sent', '--word-n', 'pos', ...model],
			'disk',
		);
		expect(byWord.exitCode, byWord.stderr).toBe(0);
		const texts = file(
			'texts2.csv',
			'sentence\n' + SENTENCES.map((s) => `"${s}"`).join('\n') + '\n',
		);
		const byText = records(
			(await runCliCommand(stimuliCommand, [texts, '--text', 'sentence', ...model], 'disk')).stdout,
		);
		const wordRecords = records(byWord.stdout);
		expect(wordRecords.map((r) => r['word_lm'])).toEqual(byText.map((r) => r['word']));
		expect(
			maxDifference(
				wordRecords.map((r) => Number(r['surprisal_bits'])),
				byText.map((r) => Number(r['surprisal_bits'])),
			),
		).toBeLessThanOrEqual(1e-4);

		// Context + target: the last word of each sentence given the words before it.
		const pairs = file(
			'pairs.csv',
			'context;target\n' +
				SENTENCES.map((s) => `${s.slice(0, s.lastIndexOf(' '))};${s.split(' ').at(-1)}`).join('\n'),
		);
		const cloze = records(
			(
				await runCliCommand(
					stimuliCommand,
					[pairs, '--context', 'context', '--target', 'target', ...model],
					'disk',
				)
			).stdout,
		);
		const lastWords = SENTENCES.map((_, i) => {
			const rows = byText.filter((r) => r['sentence'] === SENTENCES[i]);
			return rows.at(-1) ?? {};
		});
		expect(cloze.map((r) => r['word'])).toEqual(lastWords.map((r) => r['word']));
		for (const column of ['surprisal_bits', 'surprisal_bow_bits']) {
			expect(
				maxDifference(
					cloze.map((r) => Number(r[column])),
					lastWords.map((r) => Number(r[column])),
				),
			).toBeLessThanOrEqual(1e-4);
		}

		// A passage of two rows is the two sentences read as one line.
		const story = file('story.csv', `story,sentence\ns,"${SENTENCES[0]}"\ns,"${SENTENCES[1]}"\n`);
		const passage = records(
			(
				await runCliCommand(
					stimuliCommand,
					[story, '--text', 'sentence', '--by', 'story', ...model],
					'disk',
				)
			).stdout,
		);
		const joined = await wordsFromSurprisals([`${SENTENCES[0]} ${SENTENCES[1]}`], model);
		expect(passage.map((r) => r['word_index'])).toEqual(
			joined.plain[0]?.map((_, k) => String(k + 1)),
		);
		expect(
			maxDifference(
				passage.map((r) => Number(r['surprisal_bits'])),
				joined.plain[0]?.map((w) => w.bits) ?? [],
			),
		).toBeLessThanOrEqual(1e-4);
		expect(passage.map((r) => r['sentence'])).toEqual([
			...SENTENCES[0]!.split(' ').map(() => SENTENCES[0]),
			...SENTENCES[1]!.split(' ').map(() => SENTENCES[1]),
		]);
	});
});

describe('stimuli on long passages and options', () => {
	const TINY = ['--model', 'gpt2-random-tiny', '--threads', '2'];
	// About 300 tokens: over gpt2-random-tiny's 128 positions.
	const long = Array.from({ length: 60 }, (_, i) => `word${i} and`).join(' ');

	it('a passage over the context is refused, located, and runs in sliding windows', async () => {
		const path = file('long.csv', `id,text\n1,${long}\n`);
		const whole = await runCliCommand(stimuliCommand, [path, '--text', 'text', ...TINY], 'disk');
		expect(whole.exitCode).toBe(2);
		expect(whole.stderr).toMatch(
			new RegExp(
				`${path}:2: the text starting here has \\d+ tokens, more than the model's 128 positions`,
			),
		);
		const windowed = await runCliCommand(
			stimuliCommand,
			[path, '--text', 'text', '--context-words', '30', '--stride-words', '10', ...TINY],
			'disk',
		);
		expect(windowed.exitCode, windowed.stderr).toBe(0);
		const rows = records(windowed.stdout);
		expect(rows.map((r) => r['word'])).toEqual(long.split(' '));
		expect(rows.every((r) => Number.isFinite(Number(r['surprisal_bits'])))).toBe(true);
		expect(windowed.stderr).toContain(
			'provenance: window: sliding, 30 words of context length, stride 10 words',
		);
		// The first window's words are scored as the passage's first 30 words alone.
		const first = file('first.csv', `id,text\n1,${long.split(' ').slice(0, 30).join(' ')}\n`);
		const alone = records(
			(await runCliCommand(stimuliCommand, [first, '--text', 'text', ...TINY], 'disk')).stdout,
		);
		expect(
			maxDifference(
				rows.slice(0, 30).map((r) => Number(r['surprisal_bits'])),
				alone.map((r) => Number(r['surprisal_bits'])),
			),
		).toBeLessThanOrEqual(1e-4);
	});

	it('several models: one long table, each model’s rows as its own run', async () => {
		const path = file('two-models.csv', 'id,sentence\n1,The cat sat.\n2,On the mat.\n');
		const sentencePiece = join(dir, 'sp-tiny');
		const both = await runCliCommand(
			stimuliCommand,
			[
				path,
				'--text',
				'sentence',
				'--model',
				`gpt2-random-tiny,${sentencePiece}`,
				'--threads',
				'2',
			],
			'disk',
		);
		expect(both.exitCode, both.stderr).toBe(0);
		const rows = records(both.stdout);
		expect(rows.map((r) => r['model'])).toEqual([
			...Array<string>(6).fill('gpt2-random-tiny'),
			...Array<string>(6).fill(sentencePiece),
		]);
		for (const model of ['gpt2-random-tiny', sentencePiece]) {
			const alone = records(
				(
					await runCliCommand(
						stimuliCommand,
						[path, '--text', 'sentence', '--model', model, '--threads', '2'],
						'disk',
					)
				).stdout,
			);
			expect(rows.filter((r) => r['model'] === model)).toEqual(alone);
		}
		expect(both.stderr).toContain('6 words for each of 2 models');
		expect(both.stderr).toMatch(/provenance: model: gpt2-random-tiny; start-of-text convention/);
	});

	it('splits or ignores punctuation, ignores tokens by pattern, writes TSV to --output', async () => {
		const path = file('punct.csv', 'sentence\n"The dog, sadly, barked."\n');
		const split = records(
			(
				await runCliCommand(
					stimuliCommand,
					[path, '--text', 'sentence', '--punctuation', 'split', ...TINY],
					'disk',
				)
			).stdout,
		);
		expect(split.map((r) => r['word'])).toEqual(['The', 'dog', ',', 'sadly', ',', 'barked', '.']);
		const keep = records(
			(await runCliCommand(stimuliCommand, [path, '--text', 'sentence', ...TINY], 'disk')).stdout,
		);
		const ignored = records(
			(
				await runCliCommand(
					stimuliCommand,
					[path, '--text', 'sentence', '--ignore-regex', '^\\p{P}+$', ...TINY],
					'disk',
				)
			).stdout,
		);
		expect(ignored.map((r) => r['word'])).toEqual(keep.map((r) => r['word']));
		// "dog," minus its comma token is "dog" of the split table.
		expect(Number(ignored[1]?.['surprisal_bits'])).toBeCloseTo(
			Number(split[1]?.['surprisal_bits']),
			9,
		);
		expect(Number(ignored[1]?.['surprisal_bits'])).toBeLessThan(
			Number(keep[1]?.['surprisal_bits']),
		);
		expect(ignored[1]?.['tokens']).toBe('Ġdog');

		const out = join(dir, 'out.tsv');
		const written = await runCliCommand(
			stimuliCommand,
			[path, '--text', 'sentence', '--output', out, ...TINY],
			'disk',
		);
		expect(written.exitCode, written.stderr).toBe(0);
		expect(written.stdout).toBe('');
		expect(written.stderr).toContain(`wrote 4 rows to ${out} (tsv)`);
	});
});

describe('stimuli --top-k', () => {
	it('lists each word’s most likely next tokens, most likely first; a listed word’s probability is its surprisal’s', async () => {
		const csv = file(
			'top.csv',
			'item,sentence\n1,The cat sat on the mat and it was in the house.\n2,It was on the table.\n',
		);
		const run = await runCliCommand(
			stimuliCommand,
			[csv, '--text', 'sentence', '--top-k', '20', '--model', 'gpt2-en-small', '--threads', '2'],
			'disk',
		);
		expect(run.exitCode, run.stderr).toBe(0);
		expect(run.stderr).toMatch(/provenance: top_next_tokens: the 20 most likely next tokens/);
		const rows = records(run.stdout);
		expect(Object.keys(rows[0] ?? {}).slice(-3)).toEqual([
			'entropy_bits',
			'top_next_tokens',
			'model',
		]);
		let matched = 0;
		for (const row of rows) {
			const entries = (row['top_next_tokens'] ?? '').split(' | ').map((entry) => {
				const at = entry.lastIndexOf(' ');
				return { text: entry.slice(0, at), probability: Number(entry.slice(at + 1)) };
			});
			expect(entries).toHaveLength(20);
			const probabilities = entries.map((e) => e.probability);
			expect(probabilities).toEqual([...probabilities].sort((a, b) => b - a));
			// A one-token word among its own next tokens: p = 2^−surprisal (4 significant digits).
			if (row['token_count'] !== '1') continue;
			const own = `${row['word_index'] === '1' ? '' : '␣'}${row['word']}`;
			const listed = entries.find((e) => e.text === own);
			if (!listed) continue;
			matched += 1;
			const p = 2 ** -Number(row['surprisal_bits']);
			expect(Math.abs(listed.probability - p) / p).toBeLessThan(1e-3);
		}
		// Function words (on, the, was, it, in) are in their own top 20 here.
		expect(matched).toBeGreaterThanOrEqual(5);
	});
});

describe('stimuli on hostile input', () => {
	const TINY = ['--model', 'gpt2-random-tiny', '--threads', '1'];
	it.each<[string, string | Uint8Array, string[], RegExp]>([
		[
			'an unclosed quote',
			'id,sentence\n1,"The dog\n2,ok\n',
			['--text', 'sentence'],
			/bad\.csv:2:3: the quote that opens this field never closes/,
		],
		[
			'a missing column',
			'id,sentence\n1,The dog\n',
			['--text', 'text'],
			/bad\.csv:1: no column named 'text' for the text; the columns are 'id', 'sentence'/,
		],
		[
			'Windows-1252 bytes',
			new Uint8Array([...Buffer.from('id,sentence\n1,caf'), 0xe9, 0x0a]),
			['--text', 'sentence'],
			/bad\.csv:2:6: byte 0xE9 is not UTF-8/,
		],
		[
			'a group out of order',
			'sent,word\n1,The\n2,A\n1,dog\n',
			['--word', 'word', '--by', 'sent'],
			/bad\.csv:4:1: the rows of group '1' \(column 'sent'\) are out of order/,
		],
		[
			'an empty text',
			'id,sentence\n1,\n',
			['--text', 'sentence'],
			/bad\.csv:2:3: the text column 'sentence' is empty/,
		],
	])('%s: exit 2, located, nothing on stdout', async (_, content, args, message) => {
		const path = file('bad.csv', content);
		const run = await runCliCommand(stimuliCommand, [path, ...args, ...TINY], 'disk');
		expect(run.exitCode).toBe(2);
		expect(run.stdout).toBe('');
		expect(run.stderr).toMatch(message);
	});

	it.each<[string[], RegExp]>([
		[[], /name one layout/],
		[['--text', 'a', '--word', 'b'], /name one layout/],
		[['--word', 'w'], /--word needs --by/],
		[['--context', 'c'], /--context and --target go together/],
		[['--word', 'w', '--by', 's', '--punctuation', 'split'], /--punctuation applies to texts/],
		[['--text', 't', '--punctuation', 'some'], /--punctuation must be one of keep, split, ignore/],
		[['--text', 't', '--ignore-regex', '(?<=a)b'], /--ignore-regex: a lookbehind/],
		[['--text', 't', '--ignore-regex', '^[[:punct:]]$'], /'\[:punct:\]' is a POSIX class/],
		[['--text', 't', '--delimiter', 'pipe'], /--delimiter must be comma, semicolon or tab/],
		[['--text', 't', '--stride-words', '3'], /--stride-words needs --context-words/],
		[['--text', 't', '--context-words', '4', '--stride-words', '5'], /cannot be over/],
		[['--text', 't', '--context-words', '0'], /--context-words must be a whole number ≥ 1/],
		[['--text', 't', '--top-k', '0'], /--top-k must be a whole number from 1 to 20/],
		[['--text', 't', '--top-k', '21'], /--top-k must be a whole number from 1 to 20/],
		[['--text', 't', '--top-k', '2.5'], /--top-k must be a whole number from 1 to 20/],
		[['--text', 't', '--top-k', '3', '--tokens'], /--top-k gives a column of the word table/],
	])('flags %j: exit 2', async (args, message) => {
		const path = file('ok.csv', 'id,t\n1,The dog\n');
		const run = await runCliCommand(stimuliCommand, [path, ...args, ...TINY], 'disk');
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toMatch(message);
	});

	it('--top-k with an endpoint model: exit 2 before any request', async () => {
		const path = file('ok.csv', 'id,t\n1,The dog\n');
		const run = await runCliCommand(
			stimuliCommand,
			[
				path,
				'--text',
				't',
				'--top-k',
				'3',
				'--model',
				'openai/m',
				'--base-url',
				'http://127.0.0.1:9/v1',
			],
			'disk',
		);
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toMatch(/--top-k needs models that run here/);
	});

	it('--help lists every flag', async () => {
		const run = await runCliCommand(stimuliCommand, ['--help'], 'disk');
		expect(run.exitCode).toBe(0);
		for (const flag of [
			'--text',
			'--by',
			'--word',
			'--word-n',
			'--context',
			'--target',
			'--delimiter',
			'--sep',
			'--punctuation',
			'--ignore-regex',
			'--context-words',
			'--stride-words',
			'--format',
			'--tokens',
			'--top-k',
			'--output',
			'--model',
			'--convention',
		]) {
			expect(run.stdout).toContain(flag);
		}
	});
});
