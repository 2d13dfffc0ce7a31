/**
 * A replay file as a TextModel (`replay:<file.jsonl>`): every call is answered from the file (see
 * src/core/model/replay-file.ts), for re-grading old completions, demos without a model, and tests.
 */
import type {
	GenerateRequest,
	GenerationEvent,
	ModelCall,
	TextModel,
} from '../core/model/generation';
import { sha256Hex } from '../core/hash/sha256';
import type { ReplayModelSpec } from '../core/model/model-spec';
import { findReplayAnswer, parseReplayFile, type ReplayFile } from '../core/model/replay-file';

export interface ReplayModel extends TextModel {
	readonly spec: ReplayModelSpec;
}

/**
 * A model that answers from `fileText` (the file named `name`); `known` is its parse and hash when
 * already made (in the parse worker), so a big file is not parsed again here.
 * @throws ReplayFileError (line-numbered) when a line is not a replay line.
 */
export function createReplayModel(
	fileText: string,
	name: string,
	known?: { readonly answers: ReplayFile; readonly sha256: string },
): ReplayModel {
	const file = known?.answers ?? parseReplayFile(fileText, name);
	const sha256 = known?.sha256 ?? sha256Hex(fileText);
	const spec: ReplayModelSpec = { source: 'replay', file: name, sha256 };
	return {
		label: `replay:${name}`,
		spec,
		abilities: { score: false, generate: true, chat: true },
		async *generate(request: GenerateRequest, call: ModelCall): AsyncGenerator<GenerationEvent> {
			const answer = findReplayAnswer(file, request, call, name);
			if (answer.completion !== '') yield { type: 'token', text: answer.completion };
			yield { type: 'done', completion: answer.completion, finishReason: 'stop' };
		},
		countTokens: (text: string) => Math.ceil(text.length / 4),
	};
}
