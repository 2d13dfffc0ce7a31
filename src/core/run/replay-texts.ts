/**
 * The replay files' text a run keeps by SHA-256 (so a run on replay models resumes after a reload
 * and its share link re-runs alone), from the models chosen for its roles. Pure.
 */
import type { TextModelSpec } from '../model/model-spec';

/** A model chosen for a role: its spec, and the replay file's text when it is a replay. */
export interface ChosenModel {
	readonly spec: TextModelSpec;
	readonly replayText?: string;
}

/** Each replay choice's text by its spec's SHA-256; other choices and absent roles (null) add nothing. */
export function replayTextsOf(choices: readonly (ChosenModel | null)[]): Record<string, string> {
	const replayTexts: Record<string, string> = {};
	for (const choice of choices) {
		if (choice?.replayText !== undefined && choice.spec.source === 'replay') {
			replayTexts[choice.spec.sha256] = choice.replayText;
		}
	}
	return replayTexts;
}
