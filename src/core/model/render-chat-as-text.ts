/**
 * The OpenAI Evals conversions between chat prompts and text prompts (upstream
 * `evals/prompt/base.py`): a chat for a completion (base) model becomes prefixed lines, a string for
 * a chat model becomes one system message. Pure; no chat template of any model is involved here.
 */
import { lstripPython } from '../python/python-whitespace';
import type { ChatMessage } from './generation';

/** Prefixes that differ from the capitalised role: by `name` first, else by `role`. */
const PREFIX_BY_NAME_OR_ROLE: Readonly<Record<string, string>> = {
	system: '',
	example_user: 'User: ',
	example_assistant: 'Assistant: ',
};

/** What a completion prompt ends with (upstream's "Assistant: " prefix with its trailing space removed). */
export const COMPLETION_SUFFIX = 'Assistant:';

/**
 * Python's `str.capitalize()` for a role name: first character upper case, the rest lower case
 * (`"USER"` → `"User"`). Differs from CPython only for characters whose title case is not their
 * upper case (e.g. `ǆ`), which no role name uses.
 */
function capitalizeRole(role: string): string {
	const [first = '', ...rest] = Array.from(role);
	return first.toUpperCase() + rest.join('').toLowerCase();
}

/**
 * Renders a chat as one text prompt, as upstream `chat_prompt_to_text_prompt`:
 * - a single message (any role) gives its content alone, nothing added;
 * - otherwise each message gives `prefix + content + "\n"`, the prefix chosen by the message's
 *   `name` if it has one, else by its `role`: `""` for system, `"User: "` for example_user,
 *   `"Assistant: "` for example_assistant, else the capitalised role/name plus `": "`;
 * - with `forCompletion`, `"Assistant:"` (no trailing space) is appended;
 * - leading whitespace (Python's definition) is stripped from the result.
 * Model-graded placeholder values use `forCompletion: false`; sending a chat to a base model uses true.
 */
export function renderChatAsText(
	messages: readonly ChatMessage[],
	options: { readonly forCompletion: boolean },
): string {
	if (messages.length === 1) return messages[0]?.content ?? '';
	let text = '';
	for (const message of messages) {
		const key = message.name ?? message.role;
		const prefix = PREFIX_BY_NAME_OR_ROLE[key] ?? `${capitalizeRole(key)}: `;
		text += `${prefix}${message.content}\n`;
	}
	if (options.forCompletion) text += COMPLETION_SUFFIX;
	return lstripPython(text);
}

/**
 * A text prompt sent to a chat model, as upstream `text_prompt_to_chat_prompt`: the whole text as a
 * single **system** message (not a user message).
 */
export function chatFromStringPrompt(text: string): ChatMessage[] {
	return [{ role: 'system', content: text }];
}
