import { describe, expect, it } from 'vitest';
import { bundledByteProgress, countedResponse, pickProgress } from '../../src/worker/load-progress';

describe('pickProgress', () => {
	it.each<[Record<string, unknown>, ReturnType<typeof pickProgress>]>([
		[
			{ status: 'progress', name: 'm', file: 'f', progress: 50, loaded: 5, total: 10, x: 1 },
			{ status: 'progress', name: 'm', file: 'f', progress: 50, loaded: 5, total: 10 },
		],
		[{ status: 'ready', task: 'text-generation' }, { status: 'ready' }],
		[{ file: 3, loaded: '5' }, { status: 'progress' }],
	])('%j', (info, expected) => {
		expect(pickProgress(info)).toEqual(expected);
	});
});

describe('bundledByteProgress', () => {
	it.each<[string, number, number | undefined, boolean, Record<string, unknown>]>([
		[
			'http://localhost/models/gpt2/onnx/model.onnx',
			5,
			10,
			false,
			{
				status: 'progress',
				name: 'gpt2',
				file: 'onnx/model.onnx',
				loaded: 5,
				total: 10,
				progress: 50,
			},
		],
		[
			'http://localhost/models/gpt2/config.json',
			7,
			undefined,
			true,
			{ status: 'done', name: 'gpt2', file: 'config.json', loaded: 7 },
		],
		[
			'http://localhost/other/file.bin',
			1,
			undefined,
			false,
			{ status: 'progress', name: 'gpt2', file: '/other/file.bin', loaded: 1 },
		],
	])('%s', (url, loaded, total, done, expected) => {
		const seen: Record<string, unknown>[] = [];
		bundledByteProgress('/models/', 'gpt2', (info) => seen.push(info))(url, loaded, total, done);
		expect(seen).toEqual([expected]);
	});
});

describe('countedResponse', () => {
	it('reports the bytes read and keeps the body and headers', async () => {
		const reports: unknown[][] = [];
		const response = new Response(new Uint8Array(10).fill(65), {
			headers: { 'content-length': '10' },
		});
		const counted = countedResponse(response, 'u', (...args) => reports.push(args));
		expect(await counted.text()).toBe('A'.repeat(10));
		expect(counted.headers.get('content-length')).toBe('10');
		expect(reports).toEqual([
			['u', 10, 10, false],
			['u', 10, 10, true],
		]);
	});

	it('leaves a failed response alone', () => {
		const response = new Response('missing', { status: 404 });
		expect(countedResponse(response, 'u', () => undefined)).toBe(response);
	});
});
