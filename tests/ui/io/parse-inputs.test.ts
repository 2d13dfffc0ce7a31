// The parse worker's protocol in Node: the handler as a plain function (results, progress, located
// errors, cancel) and the client over it through structured clones, against the core's parsers
// run in this thread; the size caps and the thread chosen by size.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readRegistry, registryFiles, resolveEval } from '../../../src/core/evals';
import { parseReplayFile } from '../../../src/core/model/replay-file';
import { sha256Hex } from '../../../src/core/hash/sha256';
import { countCl100kTokens } from '../../../src/providers/token-count';
import { loadGivenDefinitions } from '../../../src/ui/io/memory-definitions';
import { RUN_KIND_REGISTRY } from '../../../src/core/kinds/registered-kinds';
import { bundleForTransfer } from '../../../src/ui/io/kind-bundle-transfers';
import {
	EDIT_RESULT,
	SEALED_KINDS,
	sealedJson,
	type SealedKind,
} from '../../support/sealed-bundles';
import {
	CHUNK_ITEMS,
	READ_SLICE_BYTES,
	createParseHandler,
} from '../../../src/ui/io/parse-inputs-handler';
import {
	InputTooLargeError,
	MAX_INPUT_FILE_BYTES,
	PARSE_IN_WORKER_BYTES,
	ParseInputsClient,
	checkInputSize,
	createInThreadParseClient,
	readReplayFile,
} from '../../../src/ui/io/parse-inputs-client';
import type {
	ParseEvent,
	ParseProgress,
	ParseRequest,
	ReadRegistryResult,
} from '../../../src/ui/io/parse-inputs-protocol';

const REPLAY = readFileSync('tests/fixtures/memory-ui/classroom-agent.replay.jsonl', 'utf8');
const REGISTRY = 'tests/fixtures/evals-ui/registry';
const YAML = readFileSync(`${REGISTRY}/evals/greetings.yaml`, 'utf8');
const SAMPLES = readFileSync(`${REGISTRY}/data/greetings/samples.jsonl`, 'utf8');

/** Sends one request through a handler and collects its events up to the result or error. */
function runRequest(
	request: ParseRequest,
	cancelAfterFirstProgress = false,
): Promise<ParseEvent[]> {
	return new Promise((resolve) => {
		const events: ParseEvent[] = [];
		const handle = createParseHandler((event) => {
			events.push(event);
			if (event.type === 'progress' && cancelAfterFirstProgress) {
				handle({ type: 'cancel', id: request.id });
			}
			if (event.type === 'result' || event.type === 'error') resolve(events);
		});
		handle(request);
	});
}

describe('createParseHandler', () => {
	it('parses a replay file as the core does, with its hash and reading progress', async () => {
		const events = await runRequest({
			type: 'call',
			id: 7,
			kind: 'replayFile',
			params: { path: 'agent.jsonl', file: new Blob([REPLAY]) },
		});
		const last = events.at(-1);
		expect(last?.type).toBe('result');
		if (last?.type !== 'result') return;
		const expected = parseReplayFile(REPLAY, 'agent.jsonl');
		expect(last.result).toEqual({
			name: 'agent.jsonl',
			text: REPLAY,
			sha256: sha256Hex(REPLAY),
			answers: expected,
			answerLines: expected.samples.length + expected.whens.length,
		});
		const phases = events.flatMap((event) => (event.type === 'progress' ? [event.progress] : []));
		expect(phases.map((progress) => progress.phase)).toEqual(['reading', 'parsing', 'hashing']);
		expect(phases[0]).toEqual({
			phase: 'reading',
			done: new Blob([REPLAY]).size,
			total: new Blob([REPLAY]).size,
		});
		expect(events.every((event) => event.id === 7)).toBe(true);
	});

	it('sends a long array of the result in pieces before the result, which holds [] there', async () => {
		const lines = Array.from(
			{ length: CHUNK_ITEMS * 2 + 1 },
			(_, index) => `{"sample_id": "s${index}", "completion": "c"}`,
		);
		const events = await runRequest({
			type: 'call',
			id: 9,
			kind: 'replayFile',
			params: { path: 'long.jsonl', file: new Blob([lines.join('\n')]) },
		});
		const chunks = events.flatMap((event) => (event.type === 'chunk' ? [event] : []));
		expect(chunks.map((chunk) => [chunk.path, chunk.items.length])).toEqual([
			[['answers', 'samples'], CHUNK_ITEMS],
			[['answers', 'samples'], CHUNK_ITEMS],
			[['answers', 'samples'], 1],
		]);
		const last = events.at(-1);
		expect(last?.type === 'result' && (last.result as { answers: unknown }).answers).toEqual({
			samples: [],
			whens: [],
		});
	});

	it('posts a bad replay line as an error with its name, message and line', async () => {
		const text = '{"sample_id": "a", "completion": "x"}\n{"sample_id": 3}\n';
		const events = await runRequest({
			type: 'call',
			id: 1,
			kind: 'replayFile',
			params: { path: 'bad.jsonl', file: new Blob([text]) },
		});
		expect(events.at(-1)).toEqual({
			type: 'error',
			id: 1,
			error: {
				name: 'ReplayFileError',
				message: expect.stringMatching(/^bad\.jsonl:2: /u) as string,
				location: { line: 2 },
			},
		});
	});

	it('reads a registry from dropped files: eval list, hashes, files, no problems', async () => {
		const events = await runRequest({
			type: 'call',
			id: 2,
			kind: 'readRegistry',
			params: {
				inputs: [
					{ path: 'greetings.yaml', file: new Blob([YAML]) },
					{ path: 'registry/data/greetings/samples.jsonl', file: new Blob([SAMPLES]) },
				],
				previous: [],
			},
		});
		const last = events.at(-1);
		if (last?.type !== 'result') throw new Error(`expected a result, got ${last?.type}`);
		const result = last.result as {
			files: [string, string][];
			hashes: Record<string, string>;
			evalNames: string[];
			evalChoices: { name: string; id: string | null }[];
			problems: unknown[];
			foundFiles: boolean;
		};
		expect(new Map(result.files)).toEqual(
			new Map([
				['evals/greetings.yaml', YAML],
				['data/greetings/samples.jsonl', SAMPLES],
			]),
		);
		expect(result.hashes['data/greetings/samples.jsonl']).toBe(sha256Hex(SAMPLES));
		expect(result.evalNames).toEqual(['greetings', 'greetings.dev.v0']);
		expect(result.evalChoices).toEqual([{ name: 'greetings', id: 'greetings.dev.v0' }]);
		expect(result.problems).toEqual([]);
		expect(result.foundFiles).toBe(true);
	});

	it('locates a registry problem: a samples file that is missing', async () => {
		const events = await runRequest({
			type: 'call',
			id: 3,
			kind: 'readRegistry',
			params: { inputs: [{ path: 'greetings.yaml', file: new Blob([YAML]) }], previous: [] },
		});
		const last = events.at(-1);
		if (last?.type !== 'result') throw new Error('expected a result');
		const { problems } = last.result as ReadRegistryResult;
		expect(problems).toHaveLength(1);
		expect(problems[0]?.message).toMatch(/greetings\/samples\.jsonl' not found/u);
		expect(problems[0]?.location).toMatchObject({ file: 'evals/greetings.yaml', line: 8 });
		// Worded as a registry read in the page: the place is in `location`, not again in the text.
		expect(problems[0]?.message).not.toMatch(/^evals\/greetings\.yaml/u);
	});

	it('resolves an eval as the main thread does', async () => {
		const files: [string, string][] = [
			['evals/greetings.yaml', YAML],
			['data/greetings/samples.jsonl', SAMPLES],
		];
		const events = await runRequest({
			type: 'call',
			id: 4,
			kind: 'resolveEval',
			params: { files, name: 'greetings' },
		});
		const expected = resolveEval(readRegistry(registryFiles(files)), 'greetings');
		expect(events.at(-1)).toEqual({
			type: 'result',
			id: 4,
			result: { ok: true, resolved: expected },
		});
	});

	it('loads an ltm-suite.json as the Memory page does in this thread, tokens by cl100k', async () => {
		const path = 'classroom-basics.ltm-suite.json';
		const text = readFileSync(`suites/memory/${path}`, 'utf8');
		const events = await runRequest({
			type: 'call',
			id: 6,
			kind: 'ltmDefinitions',
			params: { definitions: { kind: 'texts', files: [[path, text]] }, memorySpan: 5000 },
		});
		const expected = loadGivenDefinitions(
			{ kind: 'texts', files: new Map([[path, text]]) },
			{ countTokens: countCl100kTokens, memorySpan: 5000 },
		);
		expect(expected.ok).toBe(true);
		expect(events.at(-1)).toEqual({ type: 'result', id: 6, result: expected });
	});

	it('stops a cancelled call at its next step with an error named CancelledError', async () => {
		const big = new Blob([REPLAY.repeat(2000)]);
		const events = await runRequest(
			{ type: 'call', id: 5, kind: 'replayFile', params: { path: 'big.jsonl', file: big } },
			true,
		);
		expect(events.at(-1)).toEqual({
			type: 'error',
			id: 5,
			error: { name: 'CancelledError', message: 'Cancelled.' },
		});
	});
});

describe('createParseHandler: run bundles', () => {
	const variants = (kind: SealedKind, file: string): [string, string][] => {
		const sealed = sealedJson(kind, file);
		const changed = sealedJson(kind, file);
		EDIT_RESULT[kind](changed);
		const { resultsSha256: _seal, ...unsealed } = changed;
		return [
			['sealed', `\uFEFF${JSON.stringify(sealed, null, '\t')}`],
			['a changed result', JSON.stringify(changed)],
			['a changed result and no run', JSON.stringify({ ...changed, run: 7 })],
			['no run, sealed', JSON.stringify({ ...sealed, run: 7 })],
			['a seal that is no SHA-256', JSON.stringify({ ...sealed, resultsSha256: 'abc' })],
			['a changed result, its seal taken out', JSON.stringify(unsealed)],
			['not JSON', '{"format":'],
		];
	};

	it.each(SEALED_KINDS)(
		'reads a %s bundle as the registry does, its seal hashed by Web Crypto: good, changed, broken',
		async (kind, file) => {
			for (const [what, text] of variants(kind, file)) {
				const events = await runRequest({
					type: 'call',
					id: 3,
					kind: 'runBundle',
					params: { path: `${file}.json`, file: new Blob([text]) },
				});
				const last = events.at(-1);
				if (last?.type !== 'result') throw new Error(`${what}: ${JSON.stringify(last)}`);
				const expected = RUN_KIND_REGISTRY.readBundle(text.replace(/^\uFEFF/, ''));
				const {
					kind: read,
					bundle,
					...rest
				} = expected.ok ? expected : { kind: undefined, bundle: undefined, ...expected };
				const want =
					read === undefined
						? rest
						: { ...rest, kind: read, bundle: bundleForTransfer(read, bundle) };
				expect(last.result, what).toEqual(want);
			}
		},
	);

	it('reads a file of several slices whole, with progress up to its size', async () => {
		// 2-byte characters from an odd offset: every slice boundary splits one.
		const text = `{"sample_id": "s", "completion": "${'é'.repeat(READ_SLICE_BYTES)}"}`;
		const file = new Blob([text]);
		const events = await runRequest({
			type: 'call',
			id: 4,
			kind: 'replayFile',
			params: { path: 'big.jsonl', file },
		});
		const reading = events.flatMap((event) =>
			event.type === 'progress' && event.progress.phase === 'reading' ? [event.progress.done] : [],
		);
		expect(reading).toEqual([READ_SLICE_BYTES, 2 * READ_SLICE_BYTES, file.size]);
		const last = events.at(-1);
		expect(last?.type === 'result' && (last.result as { text: string }).text === text).toBe(true);
	});
});

describe('ParseInputsClient', () => {
	it('resolves a call with the handler result and reports progress, across structured clones', async () => {
		const client = createInThreadParseClient();
		const progress: ParseProgress[] = [];
		const parsed = await client.call(
			'replayFile',
			{ path: 'agent.jsonl', file: new Blob([REPLAY]) },
			{ onProgress: (event) => progress.push(event) },
		);
		expect(parsed.answers).toEqual(parseReplayFile(REPLAY, 'agent.jsonl'));
		expect(progress.map((event) => event.phase)).toEqual(['reading', 'parsing', 'hashing']);
	});

	it('rebuilds a worker error with its name and location', async () => {
		const client = createInThreadParseClient();
		await expect(
			client.call('replayFile', { path: 'bad.jsonl', file: new Blob(['not json\n']) }),
		).rejects.toMatchObject({ name: 'ReplayFileError', location: { line: 1 } });
	});

	it('rejects at once when aborted and tells the worker to cancel', async () => {
		const sent: ParseRequest[] = [];
		const client = new ParseInputsClient({
			postMessage: (message) => sent.push(message),
			onEvent: () => undefined,
			close: () => undefined,
		});
		const abort = new AbortController();
		const call = client.call('resolveEval', { files: [], name: 'x' }, { signal: abort.signal });
		abort.abort();
		await expect(call).rejects.toMatchObject({ name: 'CancelledError' });
		expect(sent.map((message) => message.type)).toEqual(['call', 'cancel']);
	});
});

describe('input caps', () => {
	it('refuses a file over the cap before reading it, naming it and the cap', () => {
		expect(() => checkInputSize({ name: 'huge.jsonl', size: MAX_INPUT_FILE_BYTES + 1 })).toThrow(
			InputTooLargeError,
		);
		expect(() => checkInputSize({ name: 'huge.jsonl', size: MAX_INPUT_FILE_BYTES + 1 })).toThrow(
			/huge\.jsonl is 64\.0 MiB: .* up to 64 MiB/u,
		);
		expect(() => checkInputSize({ name: 'ok.jsonl', size: MAX_INPUT_FILE_BYTES })).not.toThrow();
	});

	it('parses a small replay file in this thread and a big one through the worker client', async () => {
		let workerCalls = 0;
		const inThread = createInThreadParseClient();
		const client = (): ParseInputsClient => {
			workerCalls += 1;
			return inThread;
		};
		const small = await readReplayFile(new File([REPLAY], 'small.jsonl'), { client });
		expect(workerCalls).toBe(0);
		const bigText = REPLAY.repeat(Math.ceil((PARSE_IN_WORKER_BYTES + 1) / REPLAY.length));
		const big = await readReplayFile(new File([bigText], 'big.jsonl'), { client });
		expect(workerCalls).toBe(1);
		expect(small.sha256).toBe(sha256Hex(REPLAY));
		expect(big.answers).toEqual(parseReplayFile(bigText, 'big.jsonl'));
		expect(big.answerLines).toBe(big.answers.samples.length + big.answers.whens.length);
	});
});
