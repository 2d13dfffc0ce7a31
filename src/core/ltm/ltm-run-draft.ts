/**
 * What a new Memory run stores before its first step: the definitions' hashes and tests, the
 * agent and judge specs (never a key), the agent's parameters and context limits, replay texts,
 * span and isolation; for a run set up on the page, or a re-run of a shared run. Pure.
 */
import { sha256Hex, sha256HexOfBytes } from '../hash/sha256';
import type { LtmRunRecord } from './ltm-run-record';
import type { GenerationParams } from '../model/generation';
import type { TextModelSpec } from '../model/model-spec';
import type { LocalAgentLimits } from './local-agent-limits';
import type { LtmSharePayload } from './share-payload';
import type { LtmBenchmark } from './shared/types';

/** What a new run needs; status, progress, times and title are set when it is stored. */
export type LtmRunDraft = Omit<
	LtmRunRecord,
	'id' | 'kind' | 'title' | 'status' | 'progress' | 'updatedAt' | 'summary' | 'errorMessage'
>;

/** Definitions as given on the page: texts by path, or a zip's bytes. */
export type GivenLtmDefinitions =
	| { readonly kind: 'texts'; readonly files: ReadonlyMap<string, string> }
	| { readonly kind: 'zip'; readonly name: string; readonly bytes: Uint8Array };

/** The SHA-256 of each given file by its path (a zip: of its bytes, by its name). */
export function definitionsFileHashes(given: GivenLtmDefinitions): Record<string, string> {
	const files: Record<string, string> = {};
	if (given.kind === 'zip') files[given.name] = sha256HexOfBytes(given.bytes);
	else for (const [path, text] of given.files) files[path] = sha256Hex(text);
	return files;
}

/**
 * The agent's generation parameters: a local agent (`localLimits` given) answers greedily with
 * its limit's new tokens; another agent gets the user's max new tokens, if any.
 */
export function ltmAgentParams(
	localLimits: LocalAgentLimits | null,
	maxNewTokens: number | null,
): GenerationParams {
	const newTokens = localLimits ? localLimits.maxNewTokens : maxNewTokens;
	return {
		...(localLimits ? { temperature: 0 } : {}),
		...(newTokens !== null ? { max_tokens: newTokens } : {}),
	};
}

/**
 * The history kept and the largest filler message: a local agent's limits, else the user's
 * context tokens with half of them per message, else none (the whole conversation).
 */
export function ltmContextLimits(
	localLimits: LocalAgentLimits | null,
	contextTokens: number | null,
): { maxContextTokens?: number; maxMessageTokens?: number } {
	if (localLimits) {
		return {
			maxContextTokens: localLimits.maxContextTokens,
			maxMessageTokens: localLimits.maxMessageTokens,
		};
	}
	if (contextTokens === null) return {};
	return { maxContextTokens: contextTokens, maxMessageTokens: Math.floor(contextTokens / 2) };
}

/** A run set up on the page: loaded definitions, chosen models and the user's settings. */
export interface LtmRunSetup {
	/** The definitions as loaded for the run (span and isolation applied). */
	readonly benchmark: LtmBenchmark;
	/** {@link definitionsFileHashes} of the definitions given. */
	readonly files: Record<string, string>;
	readonly agent: TextModelSpec;
	/** null: no judge. */
	readonly judge: TextModelSpec | null;
	readonly replayTexts: Record<string, string>;
	/** A local agent's limits (localAgentLimits of its positions); null for another agent. */
	readonly localLimits: LocalAgentLimits | null;
	readonly maxNewTokens: number | null;
	readonly contextTokens: number | null;
	readonly createdAt: number;
}

/** The draft of a run set up on the page. */
export function buildLtmRunDraft(setup: LtmRunSetup): LtmRunDraft {
	const { benchmark, judge } = setup;
	return {
		runName: benchmark.config.runName,
		definitions: { files: setup.files, benchmark },
		models: { agent: setup.agent, ...(judge ? { judge } : {}) },
		agentParams: ltmAgentParams(setup.localLimits, setup.maxNewTokens),
		...ltmContextLimits(setup.localLimits, setup.contextTokens),
		replayTexts: setup.replayTexts,
		memorySpan: benchmark.config.memorySpan,
		isolated: benchmark.config.isolated,
		createdAt: setup.createdAt,
	};
}

/** The draft of a re-run of a shared run: its definitions, models and settings as shared. */
export function ltmRunDraftOfShare(shared: LtmSharePayload, createdAt: number): LtmRunDraft {
	return {
		runName: shared.runName,
		definitions: { files: {}, benchmark: shared.benchmark },
		models: shared.models,
		agentParams: shared.agentParams,
		...(shared.maxContextTokens !== undefined ? { maxContextTokens: shared.maxContextTokens } : {}),
		...(shared.maxMessageTokens !== undefined ? { maxMessageTokens: shared.maxMessageTokens } : {}),
		replayTexts: shared.replayTexts,
		memorySpan: shared.memorySpan,
		isolated: shared.isolated,
		createdAt,
	};
}
