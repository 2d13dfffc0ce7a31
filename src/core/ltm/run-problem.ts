/**
 * Why a Memory run cannot start yet, in the page's words: a run going on, no definitions (or
 * definitions with errors), the agent's or judge's problem, a setting out of range. Pure.
 */

/** The numbers the user sets for a run; null: the default. */
export interface LtmRunSettings {
	/** Memory span in tokens (null: the definitions' own). */
	readonly memorySpan: number | null;
	/** History kept for an endpoint or replay agent, in its tokens (null: all of it). */
	readonly contextTokens: number | null;
	/** Max new tokens per agent reply (null: the provider's default). */
	readonly maxNewTokens: number | null;
}

/** What decides whether a run can start. Model problems are read only when they matter. */
export interface LtmRunReadiness {
	readonly running: boolean;
	/** Whether definitions are loaded without errors. */
	readonly loaded: boolean;
	/** Whether the definitions given have diagnostics (when not loaded). */
	readonly hasDiagnostics: boolean;
	readonly agentProblem: () => string | null;
	/** The judge's problem; null when the run has no judge. */
	readonly judgeProblem: (() => string | null) | null;
	readonly settings: LtmRunSettings;
}

function isWholeAtLeast(value: number, least: number): boolean {
	return Number.isInteger(value) && value >= least;
}

/** The first setting out of range, in words, or null. */
export function ltmSettingsProblem(settings: LtmRunSettings): string | null {
	const { memorySpan, contextTokens, maxNewTokens } = settings;
	if (memorySpan !== null && !isWholeAtLeast(memorySpan, 1)) {
		return 'The memory span must be a whole number of tokens, 1 or more (or empty for the definitions’ own).';
	}
	if (contextTokens !== null && !isWholeAtLeast(contextTokens, 16)) {
		return 'The agent context must be a whole number of 16 tokens or more (or empty for all).';
	}
	if (maxNewTokens !== null && !isWholeAtLeast(maxNewTokens, 1)) {
		return 'Max new tokens must be a whole number of 1 or more (or empty).';
	}
	return null;
}

/** Why Run cannot start, or null. */
export function ltmRunProblem(readiness: LtmRunReadiness): string | null {
	if (readiness.running) return 'A run is going on.';
	if (!readiness.loaded) {
		return readiness.hasDiagnostics
			? 'These definitions have errors (see above).'
			: 'Pick an example or drop definitions.';
	}
	const agent = readiness.agentProblem();
	if (agent) return `Agent: ${agent}`;
	if (readiness.judgeProblem) {
		const judge = readiness.judgeProblem();
		if (judge) return `Judge: ${judge}`;
	}
	return ltmSettingsProblem(readiness.settings);
}
