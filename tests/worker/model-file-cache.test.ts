import { describe, expect, it } from 'vitest';
import { cachedFileOwner, listCachedModels } from '../../src/worker/model-file-cache';

describe('cachedFileOwner', () => {
	it.each<[string, string, ReturnType<typeof cachedFileOwner>]>([
		[
			'https://huggingface.co/Xenova/gpt2/resolve/main/onnx/model.onnx',
			'/models/',
			{ id: 'Xenova/gpt2', source: 'hub' },
		],
		[
			'https://huggingface.co/org%2Fname/resolve/main/config.json',
			'/models/',
			{ id: 'org/name', source: 'hub' },
		],
		['https://huggingface.co/resolve/main/config.json', '/models/', undefined],
		[
			'http://localhost/models/gpt2-en-small/onnx/model.onnx',
			'/models/',
			{ id: 'gpt2-en-small', source: 'bundled' },
		],
		[
			'http://localhost/benchtop/models/tiny/config.json',
			'/benchtop/models/',
			{ id: 'tiny', source: 'bundled' },
		],
		['http://localhost/assets/ort-wasm-simd-threaded.wasm', '/models/', undefined],
		['http://localhost/models/', '/models/', undefined],
	])('%s under %s', (url, bundledModelsPath, expected) => {
		expect(cachedFileOwner(url, bundledModelsPath)).toEqual(expected);
	});
});

describe('listCachedModels', () => {
	it('is empty without Cache Storage (Node)', async () => {
		expect(await listCachedModels('/models/')).toEqual([]);
	});
});
