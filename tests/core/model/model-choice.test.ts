import { describe, expect, it } from 'vitest';
import {
	NO_LOAD_BYTES,
	accumulateLoadProgress,
	checkHubModelId,
	checkHubRevision,
	checkLocalModelFiles,
	stripFolderName,
	sumLoadBytes,
	type LoadProgressEvent,
} from '../../../src/core/model/model-choice';

describe('checkHubModelId / checkHubRevision', () => {
	it.each([
		['Xenova/distilgpt2', null],
		['onnx-community/Qwen2.5-0.5B-Instruct', null],
		['  Xenova/gpt2  ', null],
		['', 'Type a model id'],
		['gpt2', 'owner/name'],
		['a/b/c', 'owner/name'],
		['../etc/passwd', 'owner/name'],
		['owner/na..me', 'owner/name'],
		['https://huggingface.co/Xenova/gpt2', 'owner/name'],
	])('id %j', (id, expected) => {
		const problem = checkHubModelId(id);
		if (expected === null) expect(problem).toBeNull();
		else expect(problem).toContain(expected);
	});

	it.each([
		['', null],
		['main', null],
		['refs/pr/3', null],
		['0123abcd', null],
		['../x', 'revision'],
		['a b', 'revision'],
	])('revision %j', (revision, expected) => {
		const problem = checkHubRevision(revision);
		if (expected === null) expect(problem).toBeNull();
		else expect(problem).toContain(expected);
	});
});

describe('accumulateLoadProgress / sumLoadBytes', () => {
	const fold = (events: LoadProgressEvent[]) =>
		sumLoadBytes(events.reduce(accumulateLoadProgress, NO_LOAD_BYTES));

	it.each<[string, LoadProgressEvent[], { loaded: number; total: number }]>([
		['nothing yet', [], { loaded: 0, total: 0 }],
		['initiate only', [{ status: 'initiate', file: 'a' }], { loaded: 0, total: 0 }],
		[
			'two files in flight',
			[
				{ status: 'progress', file: 'config.json', loaded: 100, total: 100 },
				{ status: 'progress', file: 'onnx/model.onnx', loaded: 400, total: 1000 },
			],
			{ loaded: 500, total: 1100 },
		],
		[
			'a file without content-length',
			[{ status: 'progress', file: 'onnx/model.onnx', loaded: 700 }],
			{ loaded: 700, total: 700 },
		],
		[
			'done completes a file',
			[
				{ status: 'progress', file: 'm', loaded: 10, total: 50 },
				{ status: 'done', file: 'm' },
			],
			{ loaded: 50, total: 50 },
		],
		[
			'progress_total wins',
			[
				{ status: 'progress', file: 'm', loaded: 10, total: 50 },
				{ status: 'progress_total', loaded: 300, total: 900 },
			],
			{ loaded: 300, total: 900 },
		],
		[
			'garbage numbers are ignored',
			[{ status: 'progress', file: 'm', loaded: Number.NaN, total: -5 }],
			{ loaded: 0, total: 0 },
		],
	])('%s', (_name, events, expected) => {
		expect(fold(events)).toEqual(expected);
	});

	it('does not change its input', () => {
		const before = accumulateLoadProgress(NO_LOAD_BYTES, {
			status: 'progress',
			file: 'm',
			loaded: 1,
			total: 2,
		});
		const copy = structuredClone(before);
		accumulateLoadProgress(before, { status: 'progress', file: 'm', loaded: 2, total: 2 });
		expect(before).toEqual(copy);
	});
});

describe('stripFolderName / checkLocalModelFiles', () => {
	it.each([
		['my-model/onnx/model.onnx', 'onnx/model.onnx'],
		['my-model/config.json', 'config.json'],
		['loose.json', 'loose.json'],
	])('%s -> %s', (path, expected) => {
		expect(stripFolderName(path)).toBe(expected);
	});

	it.each<[string[], string | null]>([
		[['config.json', 'tokenizer.json', 'onnx/model.onnx'], null],
		[['config.json', 'tokenizer.json', 'onnx/model_quantized.onnx', 'README.md'], null],
		[[], 'Pick a model folder'],
		[['config.json', 'onnx/model.onnx'], 'tokenizer.json missing'],
		[['config.json', 'tokenizer.json', 'model.onnx'], 'onnx/model.onnx missing'],
	])('%j', (paths, expected) => {
		const problem = checkLocalModelFiles(paths);
		if (expected === null) expect(problem).toBeNull();
		else expect(problem).toContain(expected);
	});
});
