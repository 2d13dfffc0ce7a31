/**
 * A model loaded in an InferenceEngine (Node: the CLI and `serve`) as a TextModel: tokens stream
 * from the engine's `onToken`, a cancel ends with `finishReason: 'cancelled'`.
 */
import type {
	CancelSignal,
	GenerateRequest,
	GenerationEvent,
	ModelCall,
	TextModel,
} from '../core/model/generation';
import type { InferenceEngine } from '../worker/engine';
import { CancelledError } from '../worker/engine-errors';
import type { ModelInfo } from '../worker/protocol';

export interface EngineTextModel extends TextModel {
	readonly info: ModelInfo;
	readonly engine: InferenceEngine;
}

function toAbortSignal(signal: CancelSignal | undefined): {
	signal?: AbortSignal;
	dispose: () => void;
} {
	if (!signal) return { dispose: () => undefined };
	if (signal instanceof AbortSignal) return { signal, dispose: () => undefined };
	const controller = new AbortController();
	const timer = setInterval(() => {
		if (signal.aborted) controller.abort();
	}, 20);
	return { signal: controller.signal, dispose: () => clearInterval(timer) };
}

/** `info` must be loaded in `engine`. */
export function createEngineTextModel(
	engine: InferenceEngine,
	info: ModelInfo,
	label = `${info.spec.source}:${info.spec.id}`,
): EngineTextModel {
	return {
		label,
		info,
		engine,
		abilities: { score: true, generate: true, chat: info.hasChatTemplate === true },
		async *generate(
			request: GenerateRequest,
			_call: ModelCall,
			cancel?: CancelSignal,
		): AsyncGenerator<GenerationEvent> {
			const { signal, dispose } = toAbortSignal(cancel);
			const queue: string[] = [];
			let wake: (() => void) | undefined;
			let settled = false;
			const run = engine
				.generate(
					{ modelKey: info.modelKey, prompt: request.prompt, params: request.params },
					{
						...(signal ? { signal } : {}),
						onToken: (text) => {
							queue.push(text);
							wake?.();
						},
					},
				)
				.finally(() => {
					settled = true;
					wake?.();
				});
			run.catch(() => undefined);
			let completion = '';
			try {
				for (;;) {
					while (queue.length > 0) {
						const text = queue.shift() ?? '';
						completion += text;
						yield { type: 'token', text };
					}
					if (settled) break;
					await new Promise<void>((resolve) => {
						wake = resolve;
					});
					wake = undefined;
				}
				const result = await run;
				yield {
					type: 'done',
					completion: result.completion,
					finishReason: result.finishReason,
					usage: result.usage,
				};
			} catch (error) {
				if (error instanceof CancelledError) {
					yield { type: 'done', completion, finishReason: 'cancelled' };
					return;
				}
				throw error;
			} finally {
				dispose();
			}
		},
		async countTokens(text: string): Promise<number> {
			const { tokens } = await engine.tokenize({
				modelKey: info.modelKey,
				text,
				convention: 'reference',
			});
			return tokens.filter((t) => t.special !== true).length;
		},
	};
}
