/**
 * Chat prompts read from Evals files (sample `input`, few-shot `sample`, a spec's `prompt`, chat
 * valued sample fields): the one place that decides what a chat is. Upstream's `is_chat_prompt`
 * (a list of mappings) says whether a value is meant as a chat; the valibot schema says whether
 * each message is usable. Pure; callers word their own errors.
 */
import * as v from 'valibot';
import type { ChatMessage } from '../../model/generation';
import type { JsonValue } from './types';

/**
 * One message: string `role` and `content`; `name` (the few-shot convention) kept when it is a
 * string and dropped otherwise; other keys dropped. Key order is `role, content, name`, as the log
 * writes prompts.
 */
export const ChatMessageSchema = v.pipe(
	v.looseObject({ role: v.string(), content: v.string() }),
	v.transform((message): ChatMessage =>
		typeof message.name === 'string'
			? { role: message.role, content: message.content, name: message.name }
			: { role: message.role, content: message.content },
	),
);

/** A chat: a list of messages. */
export const ChatSchema = v.array(ChatMessageSchema);

/** Upstream `is_chat_prompt`: a list whose items are all mappings (an empty list counts). */
export function isChatLike(
	value: JsonValue | undefined,
): value is readonly { readonly [key: string]: JsonValue }[] {
	return (
		Array.isArray(value) &&
		(value as readonly JsonValue[]).every(
			(item) => item !== null && typeof item === 'object' && !Array.isArray(item),
		)
	);
}

/** The messages of `value`, or undefined when it is not a list of usable messages. */
export function parseChat(value: JsonValue | undefined): ChatMessage[] | undefined {
	const result = v.safeParse(ChatSchema, value);
	return result.success ? result.output : undefined;
}

/**
 * A prompt as a sample or spec writes it: a string, a chat, or (`kind: 'bad-chat'`) a list of
 * mappings with a message lacking a string role or content, or (`kind: 'neither'`) anything else.
 */
export function readPrompt(
	value: JsonValue | undefined,
):
	| { readonly kind: 'text'; readonly prompt: string }
	| { readonly kind: 'chat'; readonly prompt: ChatMessage[] }
	| { readonly kind: 'bad-chat' | 'neither' } {
	if (typeof value === 'string') return { kind: 'text', prompt: value };
	if (!isChatLike(value)) return { kind: 'neither' };
	const messages = parseChat(value);
	return messages ? { kind: 'chat', prompt: messages } : { kind: 'bad-chat' };
}
