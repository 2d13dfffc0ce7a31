/**
 * The live conversation: the agent's reply as it streams, token by token, from a model wrapped
 * so that its calls and tokens are reported. Pure (the caller keeps the reply).
 */
import type {
	CancelSignal,
	GenerateRequest,
	GenerationEvent,
	ModelCall,
	TextModel,
} from '../model/generation';

/** The agent's reply being generated now. */
export interface LiveReply {
	readonly testId: string;
	readonly text: string;
}

/** The reply a call starts: its test, no text yet. */
export function startLiveReply(call: ModelCall): LiveReply {
	return { testId: call.sampleId, text: '' };
}

/** `live` with `text` appended (null stays null: no reply is being generated). */
export function appendLiveReply(live: LiveReply | null, text: string): LiveReply | null {
	return live ? { testId: live.testId, text: live.text + text } : null;
}

/** `model` whose streamed tokens are reported to `onToken` (the live conversation). */
export function streamingModel(
	model: TextModel,
	onStart: (call: ModelCall) => void,
	onToken: (text: string) => void,
): TextModel {
	return {
		label: model.label,
		get abilities() {
			return model.abilities;
		},
		countTokens: (text) => model.countTokens(text),
		async *generate(
			request: GenerateRequest,
			call: ModelCall,
			signal?: CancelSignal,
		): AsyncGenerator<GenerationEvent> {
			onStart(call);
			for await (const event of model.generate(request, call, signal)) {
				if (event.type === 'token') onToken(event.text);
				yield event;
			}
		},
	};
}
