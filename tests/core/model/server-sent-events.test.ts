import { describe, expect, it } from 'vitest';
import {
	EventStreamTooLargeError,
	ServerSentEventParser,
} from '../../../src/core/model/server-sent-events';

function parseAll(chunks: readonly string[]): string[] {
	const parser = new ServerSentEventParser();
	return [...chunks.flatMap((c) => parser.feed(c)), ...parser.end()];
}

describe('ServerSentEventParser', () => {
	it.each([
		{ name: 'one event', chunks: ['data: {"a":1}\n\n'], events: ['{"a":1}'] },
		{
			name: 'split anywhere',
			chunks: ['da', 'ta: x', 'y\n', '\ndata: [DONE]\n\n'],
			events: ['xy', '[DONE]'],
		},
		{ name: 'CRLF split between \\r and \\n', chunks: ['data: a\r', '\n\r\n'], events: ['a'] },
		{ name: 'multi-line data', chunks: ['data: a\ndata: b\n\n'], events: ['a\nb'] },
		{
			name: 'comments and other fields',
			chunks: [': ping\nevent: x\nid: 3\ndata:z\n\n'],
			events: ['z'],
		},
		{ name: 'no final blank line', chunks: ['data: last'], events: ['last'] },
		{ name: 'blank lines only', chunks: ['\n\n\n'], events: [] },
	])('$name', ({ chunks, events }) => {
		expect(parseAll(chunks)).toEqual(events);
	});
});

describe('ServerSentEventParser caps', () => {
	it('refuses a stream whose pending event grows past the cap', () => {
		const parser = new ServerSentEventParser(1024);
		expect(() => {
			for (let i = 0; i < 100; i += 1) parser.feed(`data: ${'x'.repeat(100)}\n`);
		}).toThrow(EventStreamTooLargeError);
	});

	it('keeps events under the cap', () => {
		const parser = new ServerSentEventParser(1024);
		const events: string[] = [];
		for (let i = 0; i < 100; i += 1) events.push(...parser.feed(`data: ${i}\n\n`));
		expect(events).toHaveLength(100);
		expect(events[99]).toBe('99');
	});
});
