import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/core/model/generation';
import {
	chatFromStringPrompt,
	renderChatAsText,
} from '../../../src/core/model/render-chat-as-text';

// Expected texts were produced by upstream's `chat_prompt_to_text_prompt` (evals/prompt/base.py)
// run in Python 3 on the same messages.
const CASES: { name: string; messages: ChatMessage[]; completion: string; plain: string }[] = [
	{
		name: 'a single message is its content alone, even with leading spaces',
		messages: [{ role: 'user', content: '  Hi' }],
		completion: '  Hi',
		plain: '  Hi',
	},
	{
		name: 'system has no prefix, user is "User: "',
		messages: [
			{ role: 'system', content: 'Be brief.' },
			{ role: 'user', content: '2+2?' },
		],
		completion: 'Be brief.\nUser: 2+2?\nAssistant:',
		plain: 'Be brief.\nUser: 2+2?\n',
	},
	{
		name: 'leading whitespace of the whole text is stripped',
		messages: [
			{ role: 'system', content: '\n  Lead' },
			{ role: 'user', content: 'q' },
		],
		completion: 'Lead\nUser: q\nAssistant:',
		plain: 'Lead\nUser: q\n',
	},
	{
		name: 'few-shot names pick the prefix',
		messages: [
			{ role: 'system', content: 'Sys' },
			{ role: 'system', name: 'example_user', content: 'a' },
			{ role: 'system', name: 'example_assistant', content: 'b' },
			{ role: 'user', content: 'c' },
		],
		completion: 'Sys\nUser: a\nAssistant: b\nUser: c\nAssistant:',
		plain: 'Sys\nUser: a\nAssistant: b\nUser: c\n',
	},
	{
		name: 'other roles are capitalised as Python capitalize()',
		messages: [
			{ role: 'USER', content: 'x' },
			{ role: 'tool', content: 'y' },
		],
		completion: 'User: x\nTool: y\nAssistant:',
		plain: 'User: x\nTool: y\n',
	},
	{
		name: 'a name wins over the role',
		messages: [
			{ role: 'user', name: 'alice', content: 'x' },
			{ role: 'assistant', content: 'y' },
		],
		completion: 'Alice: x\nAssistant: y\nAssistant:',
		plain: 'Alice: x\nAssistant: y\n',
	},
	{ name: 'no messages', messages: [], completion: 'Assistant:', plain: '' },
	{
		name: "Python's whitespace set (ideographic space, NEL) is stripped",
		messages: [
			{ role: 'system', content: '\u3000\x85 z' },
			{ role: 'assistant', content: '' },
		],
		completion: 'z\nAssistant: \nAssistant:',
		plain: 'z\nAssistant: \n',
	},
];

describe('renderChatAsText', () => {
	it.each(CASES)('$name', ({ messages, completion, plain }) => {
		const before = JSON.stringify(messages);
		expect(renderChatAsText(messages, { forCompletion: true })).toBe(completion);
		expect(renderChatAsText(messages, { forCompletion: false })).toBe(plain);
		expect(JSON.stringify(messages)).toBe(before);
	});
});

describe('chatFromStringPrompt', () => {
	it('wraps a string as one system message', () => {
		expect(chatFromStringPrompt('Q: 1+1?\nA:')).toEqual([
			{ role: 'system', content: 'Q: 1+1?\nA:' },
		]);
	});
});
