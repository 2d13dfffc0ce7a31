// `surprisals` with a fake CliIo and the real Node engine: lm-zoo TSV of every line, the golden
// surprisals of gpt2-random-tiny under `bos`, conventions, model resolution and usage errors.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CliInputError, type CliIo } from '../../src/cli/shared/cli-io';
import { splitSentenceLines, surprisalsCommand } from '../../src/cli/commands/surprisals';
import { readLmZooSurprisals } from '../../src/core/syntaxgym/formats/lm-zoo-surprisals';
import { readTsvTable } from '../../src/core/formats/tsv-table';
import { EndpointCannotScoreError } from '../../src/providers/openai-client';
import { createNodeEngine, NODE_BUNDLED_MODELS_PATH } from '../../src/worker/node-engine';
import { sendJson, startRecordingServer } from '../providers/recording-server';

interface GoldenSentence {
	readonly text: string;
	readonly tokens: readonly string[];
	readonly surprisal_bits: readonly (number | null)[];
}

/** A CliIo over in-memory files, collecting stdout and stderr. */
function fakeIo(files: Record<string, string>) {
	const out = { stdout: '', stderr: '' };
	const io: CliIo = {
		stdout: (text) => (out.stdout += text),
		stderr: (text) => (out.stderr += text),
		readText: async (path) => {
			const text = files[path];
			if (text === undefined) throw new CliInputError(`${path}: cannot read file (no such file)`);
			return text;
		},
	};
	return { io, out };
}

const TINY = ['--model', 'gpt2-random-tiny', '--threads', '2'];

describe('splitSentenceLines', () => {
	it.each([
		['', []],
		['one', ['one']],
		['one\n', ['one']],
		['one\ntwo\n', ['one', 'two']],
		['one\r\ntwo', ['one', 'two']],
		[' padded  \n\nlast', [' padded  ', '', 'last']],
	])('%j → %j', (text, lines) => {
		expect(splitSentenceLines(text)).toEqual(lines);
	});
});

describe('surprisals command', () => {
	it('gives the golden surprisals of gpt2-random-tiny (bos), every one-line sentence, in order', async () => {
		const url = new URL('../fixtures/golden/surprisals-gpt2-random-tiny.json', import.meta.url);
		const all = (JSON.parse(await readFile(url, 'utf8')) as { sentences: GoldenSentence[] })
			.sentences;
		// One golden sentence spans two lines; a sentences file cannot hold it.
		const golden = { sentences: all.filter((s) => !/[\r\n]/.test(s.text)) };
		expect(golden.sentences).toHaveLength(59);
		const { io, out } = fakeIo({
			's.txt': golden.sentences.map((s) => s.text).join('\n') + '\n',
		});
		expect(await surprisalsCommand(['s.txt', ...TINY, '--convention', 'bos'], io)).toBe(0);
		expect(out.stdout.split('\n')[0]).toBe('sentence_id\ttoken_id\ttoken\tsurprisal');
		const sentences = readLmZooSurprisals(out.stdout, 'stdout');
		expect(sentences).toHaveLength(59);
		let maxDifference = 0;
		golden.sentences.forEach((expected, i) => {
			const tokens = sentences[i]?.tokens ?? [];
			expect(tokens.map((t) => t.token)).toEqual(expected.tokens);
			expected.surprisal_bits.forEach((bits, k) => {
				const got = tokens[k]?.surprisalBits ?? NaN;
				maxDifference = Math.max(maxDifference, Math.abs(got - (bits ?? 0)));
			});
		});
		expect(maxDifference).toBeLessThanOrEqual(1e-3);
		expect(out.stderr).toMatch(/scored 59 sentences .* gpt2-random-tiny \(fp32, bos\)/);
	});

	it('reference: no BOS, the first token 0 bits; bos+eos ends with EOS', async () => {
		const { io, out } = fakeIo({ 's.txt': 'The dog barks.\nA cat sleeps.' });
		expect(await surprisalsCommand(['s.txt', ...TINY, '--convention', 'reference'], io)).toBe(0);
		const reference = readLmZooSurprisals(out.stdout);
		expect(reference.map((s) => s.tokens[0])).toMatchObject([
			{ token: 'The', surprisalBits: 0 },
			{ token: 'A', surprisalBits: 0 },
		]);
		const both = fakeIo({ 's.txt': 'The dog barks.\nA cat sleeps.' });
		await surprisalsCommand(['s.txt', ...TINY, '--convention', 'bos+eos'], both.io);
		const withEos = readLmZooSurprisals(both.out.stdout);
		for (const sentence of withEos) {
			expect(sentence.tokens[0]).toMatchObject({ token: '<|endoftext|>', surprisalBits: 0 });
			expect(sentence.tokens.at(-1)?.token).toBe('<|endoftext|>');
			expect(sentence.tokens.at(-1)?.surprisalBits).toBeGreaterThan(0);
		}
		// The text tokens are the same under both conventions.
		expect(withEos.map((s) => s.tokens.slice(1, -1).map((t) => t.token))).toEqual(
			reference.map((s) => s.tokens.map((t) => t.token)),
		);
	});

	it('--words: one row per whitespace-separated word, its tokens summed', async () => {
		const text = 'He said "no" to  the\tdog.\nAnother line.';
		const files = { 's.txt': text };
		const tokens = fakeIo(files);
		await surprisalsCommand(['s.txt', ...TINY, '--convention', 'bos'], tokens.io);
		const words = fakeIo(files);
		expect(
			await surprisalsCommand(['s.txt', ...TINY, '--convention', 'bos', '--words'], words.io),
		).toBe(0);
		const table = readTsvTable(words.out.stdout);
		expect(table.header).toEqual(['sentence_id', 'word_id', 'word', 'surprisal', 'token_count']);
		const lines = text.split('\n');
		const tokenSentences = readLmZooSurprisals(tokens.out.stdout);
		lines.forEach((line, index) => {
			const rows = table.rows.filter((row) => row.fields[0] === String(index + 1));
			expect(rows.map((row) => row.fields[2])).toEqual(line.split(/\s+/));
			// BOS is in no word: the words' total is the text tokens' total, and so is their count.
			const textTokens = (tokenSentences[index]?.tokens ?? []).slice(1);
			const wordTotal = rows.reduce((sum, row) => sum + Number(row.fields[3]), 0);
			const tokenTotal = textTokens.reduce((sum, token) => sum + token.surprisalBits, 0);
			expect(wordTotal).toBeCloseTo(tokenTotal, 9);
			expect(rows.reduce((sum, row) => sum + Number(row.fields[4]), 0)).toBe(textTokens.length);
		});
	});

	it('--words --bow: the same words under surprisal_bow; per sentence the corrections add up to the boundary after its last token', async () => {
		const text = 'The keys to the cabinet are here.\nShe said:  yes\n\nDogs';
		const files = { 's.txt': text };
		const plain = fakeIo(files);
		const args = ['s.txt', ...TINY, '--convention', 'reference', '--words'];
		await surprisalsCommand(args, plain.io);
		const bow = fakeIo(files);
		expect(await surprisalsCommand([...args, '--bow'], bow.io)).toBe(0);
		const plainTable = readTsvTable(plain.out.stdout);
		const bowTable = readTsvTable(bow.out.stdout);
		expect(bowTable.header).toEqual([
			'sentence_id',
			'word_id',
			'word',
			'surprisal_bow',
			'token_count',
		]);
		const keyOf = (fields: readonly string[]) => [fields[0], fields[1], fields[2], fields[4]];
		expect(bowTable.rows.map((r) => keyOf(r.fields))).toEqual(
			plainTable.rows.map((r) => keyOf(r.fields)),
		);
		// Σ_w [boundary(after w) − boundary(before w)] telescopes (the first word has no minus term):
		// corrected total − plain total = −log₂ P(word start) after the text's last token.
		const engine = createNodeEngine({ threads: 2 });
		const { modelKey } = await engine.loadModel({
			spec: { source: 'bundled', id: 'gpt2-random-tiny', dtype: 'fp32', backend: 'node-cpu' },
		});
		const scored = await engine.scoreTexts({
			modelKey,
			texts: text.split('\n'),
			convention: 'reference',
			wordBoundaries: true,
		});
		await engine.disposeModel(modelKey);
		const total = (rows: typeof plainTable.rows, id: number) =>
			rows
				.filter((r) => r.fields[0] === String(id))
				.reduce((sum, r) => sum + Number(r.fields[3]), 0);
		scored.texts.forEach((sentence, i) => {
			const last = sentence.tokens.at(-1);
			const difference = total(bowTable.rows, i + 1) - total(plainTable.rows, i + 1);
			expect(difference).toBeCloseTo(last?.boundarySurprisalBits ?? 0, 9);
			if (last) expect(difference).toBeGreaterThan(0);
		});
	});

	it('--words without --bow keeps the plain surprisal column', async () => {
		const { io, out } = fakeIo({ 's.txt': 'Dogs bark.' });
		await surprisalsCommand(['s.txt', ...TINY, '--words'], io);
		expect(out.stdout.split('\n')[0]).toBe('sentence_id\tword_id\tword\tsurprisal\ttoken_count');
	});

	it('--bow with an endpoint fails: an endpoint cannot give word-boundary probabilities', async () => {
		const server = await startRecordingServer((_req, res) => sendJson(res, 500, {}));
		try {
			const { io } = fakeIo({ 's.txt': 'A sentence.' });
			const args = [
				's.txt',
				'--words',
				'--bow',
				'--model',
				'openai/m',
				'--base-url',
				server.baseUrl,
			];
			const error = await surprisalsCommand(args, io).catch((e: unknown) => e);
			expect(error).toBeInstanceOf(EndpointCannotScoreError);
			expect((error as Error).message).toMatch(/cannot give word-boundary probabilities/);
			expect(server.requests).toEqual([]);
		} finally {
			await server.close();
		}
	});

	it('--concurrency caps the requests in flight to an endpoint (default 4)', async () => {
		let inFlight = 0;
		let most = 0;
		const server = await startRecordingServer((_req, res) => {
			inFlight += 1;
			most = Math.max(most, inFlight);
			setTimeout(() => {
				inFlight -= 1;
				sendJson(res, 400, { error: { message: 'no' } });
			}, 30);
		});
		try {
			const run = async (extra: string[]): Promise<number> => {
				most = 0;
				// 40 sentences: three requests of up to 16 prompts each
				const sentences = Array.from({ length: 40 }, (_, i) => `Sentence ${i}.`);
				const { io } = fakeIo({ 's.txt': sentences.join('\n') });
				const args = ['s.txt', '--model', 'openai/m', '--base-url', server.baseUrl, ...extra];
				await surprisalsCommand(args, io).catch(() => undefined);
				await new Promise((resolve) => setTimeout(resolve, 100));
				return most;
			};
			expect(await run(['--concurrency', '1'])).toBe(1);
			// Each batch may send a second request (the max_tokens 1 fallback after a 400), so more
			// than three requests can be waiting at once: the default cap of 4 is what holds.
			const mostByDefault = await run([]);
			expect(mostByDefault).toBeGreaterThan(1);
			expect(mostByDefault).toBeLessThanOrEqual(4);
		} finally {
			await server.close();
		}
	});

	it('a model folder scores like the bundled model of that folder (same convention)', async () => {
		const text = 'Dogs that bark rarely bite.';
		const bundled = fakeIo({ 's.txt': text });
		await surprisalsCommand(['s.txt', ...TINY, '--convention', 'bos'], bundled.io);
		const folder = fakeIo({ 's.txt': text });
		const folderArgs = ['--model', `${NODE_BUNDLED_MODELS_PATH}gpt2-random-tiny`, '--threads', '2'];
		await surprisalsCommand(['s.txt', ...folderArgs, '--convention', 'bos'], folder.io);
		expect(folder.out.stdout).toBe(bundled.out.stdout);
		expect(folder.out.stderr).toMatch(/local model/);
		// Without --convention a folder has only its tokenizer files to go by (GPT-2's adds no
		// BOS: reference); the bundled model has its card (bos).
		const plain = fakeIo({ 's.txt': text });
		await surprisalsCommand(['s.txt', ...folderArgs], plain.io);
		expect(plain.out.stderr).toMatch(
			/^convention: reference \(the model's default\): .*gpt2-random-tiny's tokenizer adds no start-of-text token \(its post-processor in tokenizer\.json\)/m,
		);
	});

	it.each([
		[['s.txt', '--convention', 'eos'], /--convention must be one of reference, bos, bos\+eos/],
		[['s.txt', '--dtype', 'int4'], /--dtype must be one of/],
		[['s.txt', '--threads', '0'], /--threads must be a whole number/],
		[['s.txt', '--concurrency', '0'], /--concurrency must be a whole number/],
		[['s.txt', '--model', 'no such model!'], /is not a bundled model .* or a hub id/],
		[['s.txt', '--revision', 'v1'], /--revision only applies to hub models/],
		[['s.txt', '--bogus'], /Unknown option '--bogus'/],
		[['s.txt', '--bow'], /--bow .*add --words/],
		[[], /expected one sentences file/],
		[['missing.txt', ...TINY], /missing\.txt: cannot read file/],
	])('%j → CliInputError', async (args, message) => {
		const { io } = fakeIo({ 's.txt': 'A sentence.' });
		const error = await surprisalsCommand(args, io).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(CliInputError);
		expect((error as Error).message).toMatch(message);
	});
});
