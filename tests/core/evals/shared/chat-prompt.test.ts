// The one reading of chat prompts in Evals files: upstream's is_chat_prompt (a list of mappings)
// and the message schema (string role and content, a string name kept).
import { describe, expect, it } from 'vitest';
import { isChatLike, parseChat, readPrompt } from '../../../../src/core/evals/shared/chat-prompt';
import type { JsonValue } from '../../../../src/core/evals/shared/types';

describe('isChatLike', () => {
	it.each<{ value: JsonValue | undefined; chat: boolean }>([
		{ value: [{ role: 'user', content: 'x' }], chat: true },
		{ value: [{}], chat: true },
		{ value: [], chat: true },
		{ value: ['x'], chat: false },
		{ value: [{ role: 'user' }, ['nested']], chat: false },
		{ value: 'text', chat: false },
		{ value: { role: 'user', content: 'x' }, chat: false },
		{ value: undefined, chat: false },
	])('$value → $chat', ({ value, chat }) => {
		expect(isChatLike(value)).toBe(chat);
	});
});

describe('parseChat', () => {
	it('keeps role, content and a string name, in that order; drops other keys and a non-string name', () => {
		const messages = parseChat([
			{ name: 'example_user', content: 'c', role: 'system', extra: 1 },
			{ role: 'user', content: 'd', name: 4 },
		]);
		expect(messages).toEqual([
			{ role: 'system', content: 'c', name: 'example_user' },
			{ role: 'user', content: 'd' },
		]);
		expect(Object.keys(messages?.[0] ?? {})).toEqual(['role', 'content', 'name']);
	});

	it.each<{ name: string; value: JsonValue }>([
		{ name: 'a message without content', value: [{ role: 'user' }] },
		{ name: 'a number as content', value: [{ role: 'user', content: 3 }] },
		{ name: 'a null role', value: [{ role: null, content: 'x' }] },
		{ name: 'a string item', value: ['hello'] },
		{ name: 'a string', value: 'hello' },
	])('$name is not a chat', ({ value }) => {
		expect(parseChat(value)).toBeUndefined();
	});

	it('does not change its input', () => {
		const value = [{ role: 'user', content: 'x', extra: true }];
		parseChat(value);
		expect(value).toEqual([{ role: 'user', content: 'x', extra: true }]);
	});
});

describe('readPrompt', () => {
	it.each<{ value: JsonValue | undefined; kind: string }>([
		{ value: 'Say hi', kind: 'text' },
		{ value: [{ role: 'user', content: 'hi' }], kind: 'chat' },
		{ value: [{ role: 'user', content: 3 }], kind: 'bad-chat' },
		{ value: ['hi'], kind: 'neither' },
		{ value: 3, kind: 'neither' },
		{ value: undefined, kind: 'neither' },
	])('$value → $kind', ({ value, kind }) => {
		expect(readPrompt(value).kind).toBe(kind);
	});
});
