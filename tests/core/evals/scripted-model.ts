// A TextModel whose completions come from a function of the request: the runner's tests check what
// it was asked (prompt, params, call) and what it answered. Test helper only.
import type {
	GenerateRequest,
	GenerationEvent,
	ModelCall,
	TextModel,
} from '../../../src/core/model/generation';

export interface ScriptedCall {
	readonly request: GenerateRequest;
	readonly call: ModelCall;
}

export function scriptedModel(
	label: string,
	answer: (request: GenerateRequest, call: ModelCall) => string,
	options: { chat?: boolean; usage?: boolean } = {},
): TextModel & { readonly calls: ScriptedCall[] } {
	const calls: ScriptedCall[] = [];
	return {
		label,
		calls,
		abilities: { score: false, generate: true, chat: options.chat ?? true },
		countTokens: (text: string) => text.length,
		async *generate(request: GenerateRequest, call: ModelCall): AsyncIterable<GenerationEvent> {
			calls.push({ request, call });
			const completion = answer(request, call);
			await Promise.resolve();
			yield { type: 'token', text: completion };
			yield {
				type: 'done',
				completion,
				finishReason: 'stop',
				...(options.usage
					? { usage: { promptTokens: 10, completionTokens: completion.length } }
					: {}),
			};
		},
	};
}

/** The last user/system message text of a request (chat) or its text. */
export function promptText(request: GenerateRequest): string {
	const prompt = request.prompt;
	return prompt.kind === 'text'
		? prompt.text
		: (prompt.messages[prompt.messages.length - 1]?.content ?? '');
}
