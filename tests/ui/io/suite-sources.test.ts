// Suite sources: strict UTF-8 decoding, size limits, URL fetch errors as messages, and linked suites.
import { describe, expect, it } from 'vitest';
import {
	MAX_SUITE_BYTES,
	decodeSuiteBytes,
	fetchSuiteText,
	fileNameOfUrl,
	linkedSuiteRequest,
	listBundledSuites,
	loadBundledSuiteText,
	readSuiteFile,
} from '../../../src/ui/io/suite-sources';

describe('decodeSuiteBytes', () => {
	it.each([
		['plain UTF-8', [0x7b, 0x7d], { ok: true, text: '{}' }],
		['UTF-8 with BOM', [0xef, 0xbb, 0xbf, 0x7b, 0x7d], { ok: true, text: '{}' }],
		['é in UTF-8', [0x22, 0xc3, 0xa9, 0x22], { ok: true, text: '"é"' }],
	])('%s', (_, bytes, expected) => {
		expect(decodeSuiteBytes(new Uint8Array(bytes), 'x.json')).toEqual(expected);
	});

	it('refuses Latin-1 bytes with a message naming the file', () => {
		const result = decodeSuiteBytes(new Uint8Array([0x22, 0xe9, 0x22]), 'latin.json');
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.message).toMatch(/^latin\.json is not UTF-8 text/);
	});
});

describe('fetchSuiteText', () => {
	it('turns a network failure into a message', async () => {
		const result = await fetchSuiteText('https://example.org/s.json', () =>
			Promise.reject(new TypeError('Failed to fetch')),
		);
		expect(result).toMatchObject({ ok: false });
		if (!result.ok)
			expect(result.message).toMatch(/Could not fetch https:\/\/example\.org\/s\.json/);
	});

	it('reports an HTTP error status and a declared size over the limit', async () => {
		const notFound = await fetchSuiteText(
			'https://example.org/s.json',
			async () => new Response('nope', { status: 404, statusText: 'Not Found' }),
		);
		expect(notFound).toEqual({
			ok: false,
			message: 'https://example.org/s.json answered 404 Not Found.',
		});
		const huge = await fetchSuiteText(
			'https://example.org/s.json',
			async () =>
				new Response('{}', { headers: { 'content-length': String(MAX_SUITE_BYTES + 1) } }),
		);
		expect(huge.ok).toBe(false);
	});

	it('stops reading an endless body just past the 10 MB cap, with a message', async () => {
		let cancelled = false;
		const endless = new ReadableStream<Uint8Array>({
			pull(controller) {
				controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
			},
			cancel() {
				cancelled = true;
			},
		});
		const result = await fetchSuiteText(
			'https://example.org/endless.json',
			async () => new Response(endless),
		);
		expect(result).toEqual({
			ok: false,
			message:
				'https://example.org/endless.json is larger than 10 MB; stopped reading at 10.0 MB. Suites larger than 10 MB are not accepted.',
		});
		expect(cancelled).toBe(true);
	});

	it('stops when the body stalls, and when no answer comes by the deadline', async () => {
		const stalled = await fetchSuiteText(
			'https://example.org/slow.json',
			async () =>
				new Response(
					new ReadableStream<Uint8Array>({
						start(controller) {
							controller.enqueue(new TextEncoder().encode('{"meta"'));
						},
					}),
				),
			{ idleMs: 20 },
		);
		expect(stalled).toEqual({
			ok: false,
			message:
				'https://example.org/slow.json sent nothing for 0.02 s; stopped reading at 0.0 MB. Try again later, or download the file and drop it here.',
		});
		const silent = await fetchSuiteText(
			'https://example.org/silent.json',
			(_url, init) =>
				new Promise<Response>((_resolve, reject) => {
					init?.signal?.addEventListener('abort', () => reject(new DOMException('', 'AbortError')));
				}),
			{ deadlineMs: 20 },
		);
		expect(silent).toEqual({
			ok: false,
			message:
				'https://example.org/silent.json did not finish within 0.02 s; stopped reading at 0.0 MB. Try again later, or download the file and drop it here.',
		});
	});

	it('refuses non-http URLs', async () => {
		const result = await fetchSuiteText('javascript:alert(1)');
		expect(result).toEqual({
			ok: false,
			message: 'Only http(s) URLs can be opened, not javascript:',
		});
	});
});

describe('linkedSuiteRequest', () => {
	const page = 'https://benchtop.example/app/?suite=x';

	it('asks before fetching from another host, naming the host', () => {
		expect(linkedSuiteRequest('http://192.168.1.1/suite.json', page)).toEqual({
			action: 'ask',
			url: 'http://192.168.1.1/suite.json',
			host: '192.168.1.1',
		});
		// Protocol-relative, another port, another scheme: all another origin.
		expect(linkedSuiteRequest('//evil.example/s.json', page)).toMatchObject({
			action: 'ask',
			host: 'evil.example',
		});
		expect(linkedSuiteRequest('https://benchtop.example:8443/s.json', page)).toMatchObject({
			action: 'ask',
			host: 'benchtop.example:8443',
		});
		expect(linkedSuiteRequest('http://benchtop.example/s.json', page)).toMatchObject({
			action: 'ask',
		});
	});

	it("opens the page's own files at once, and hands on what fetchSuiteText refuses", () => {
		expect(linkedSuiteRequest('/models/x/config.json', page)).toEqual({
			action: 'open',
			url: 'https://benchtop.example/models/x/config.json',
		});
		expect(linkedSuiteRequest('javascript:alert(1)', page)).toEqual({
			action: 'open',
			url: 'javascript:alert(1)',
		});
	});
});

describe('bundled suites', () => {
	it('lists every suite file with its index entry and loads its text', async () => {
		const entries = listBundledSuites();
		expect(entries.length).toBeGreaterThanOrEqual(6);
		expect(entries.every((entry) => entry.items >= 6)).toBe(true);
		const text = await loadBundledSuiteText(entries[0]?.file ?? '');
		expect(text.ok && JSON.parse(text.text).meta.name).toBe(entries[0]?.name);
		expect(await loadBundledSuiteText('nope.json')).toEqual({
			ok: false,
			message: 'There is no bundled suite named nope.json.',
		});
	});

	it('names a URL by its last path segment', () => {
		expect(fileNameOfUrl('https://x.org/a/my%20suite.json?v=1')).toBe('my suite.json');
	});
});

describe('readSuiteFile: minimal pairs become a suite', () => {
	const jsonl =
		'{"sentence_good": "The dogs bark.", "sentence_bad": "The dogs barks.", "UID": "demo"}\n';

	it.each([
		['pairs.jsonl', jsonl],
		['pairs.json', jsonl],
		['pairs.csv', 'good,bad\nThe dogs bark.,The dogs barks.\n'],
	])('%s', async (name, text) => {
		const result = await readSuiteFile(new File([text], name));
		expect(result.ok).toBe(true);
		if (!result.ok) return;
		const suite = JSON.parse(result.text) as { items: unknown[]; predictions: unknown[] };
		expect(suite.items).toHaveLength(1);
		expect(suite.predictions).toEqual([{ type: 'formula', formula: '(1;%bad%) > (1;%good%)' }]);
	});

	it('a suite file is passed through unchanged', async () => {
		const text = '{"meta": {"name": "x"}, "items": []}';
		expect(await readSuiteFile(new File([text], 'suite.json'))).toEqual({ ok: true, text });
	});

	it('a broken pair gives the located message', async () => {
		const result = await readSuiteFile(new File([`${jsonl}{"sentence_good": "a"}\n`], 'p.jsonl'));
		expect(result).toEqual({
			ok: false,
			message: expect.stringMatching(
				/^p\.jsonl:2:1: "sentence_bad" is missing.*drop the file again\.$/,
			),
		});
	});
});
