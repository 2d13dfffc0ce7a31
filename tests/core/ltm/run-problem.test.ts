// Why a Memory run cannot start: a run going on, definitions missing or with errors, the
// agent's then the judge's problem, then each setting out of range; model problems are read
// only when they decide.
import { describe, expect, it } from 'vitest';
import {
	ltmRunProblem,
	ltmSettingsProblem,
	type LtmRunReadiness,
	type LtmRunSettings,
} from '../../../src/core/ltm/run-problem';

const NO_SETTINGS: LtmRunSettings = { memorySpan: null, contextTokens: null, maxNewTokens: null };

function ready(overrides: Partial<LtmRunReadiness> = {}): LtmRunReadiness {
	return {
		running: false,
		loaded: true,
		hasDiagnostics: false,
		agentProblem: () => null,
		judgeProblem: null,
		settings: NO_SETTINGS,
		...overrides,
	};
}

describe('ltmSettingsProblem', () => {
	const SPAN =
		'The memory span must be a whole number of tokens, 1 or more (or empty for the definitions’ own).';
	const CONTEXT =
		'The agent context must be a whole number of 16 tokens or more (or empty for all).';
	const NEW_TOKENS = 'Max new tokens must be a whole number of 1 or more (or empty).';
	it.each([
		[{}, null],
		[{ memorySpan: 1, contextTokens: 16, maxNewTokens: 1 }, null],
		[{ memorySpan: 0 }, SPAN],
		[{ memorySpan: 1.5 }, SPAN],
		[{ memorySpan: Number.NaN }, SPAN],
		[{ contextTokens: 15 }, CONTEXT],
		[{ contextTokens: 16.5 }, CONTEXT],
		[{ maxNewTokens: 0 }, NEW_TOKENS],
		[{ maxNewTokens: -3 }, NEW_TOKENS],
		[{ maxNewTokens: Number.POSITIVE_INFINITY }, NEW_TOKENS],
		// The first setting out of range is named.
		[{ memorySpan: 0, contextTokens: 1, maxNewTokens: 0 }, SPAN],
		[{ contextTokens: 1, maxNewTokens: 0 }, CONTEXT],
	])('%o → %s', (settings, expected) => {
		expect(ltmSettingsProblem({ ...NO_SETTINGS, ...settings })).toBe(expected);
	});
});

describe('ltmRunProblem', () => {
	it('is null when everything is set', () => {
		expect(ltmRunProblem(ready())).toBeNull();
		expect(ltmRunProblem(ready({ judgeProblem: () => null }))).toBeNull();
	});

	it.each<[Partial<LtmRunReadiness>, string]>([
		[{ running: true, loaded: false, hasDiagnostics: true }, 'A run is going on.'],
		[{ loaded: false }, 'Pick an example or drop definitions.'],
		[{ loaded: false, hasDiagnostics: true }, 'These definitions have errors (see above).'],
		[{ agentProblem: () => 'Pick a replay file (JSONL).' }, 'Agent: Pick a replay file (JSONL).'],
		[{ judgeProblem: () => 'Pick a replay file (JSONL).' }, 'Judge: Pick a replay file (JSONL).'],
		[{ agentProblem: () => 'no agent', judgeProblem: () => 'no judge' }, 'Agent: no agent'],
		[
			{ judgeProblem: () => 'no judge', settings: { ...NO_SETTINGS, maxNewTokens: 0 } },
			'Judge: no judge',
		],
		[
			{ settings: { ...NO_SETTINGS, maxNewTokens: 0 } },
			'Max new tokens must be a whole number of 1 or more (or empty).',
		],
	])('%o → %s', (overrides, expected) => {
		expect(ltmRunProblem(ready(overrides))).toBe(expected);
	});

	it('reads the models only when they decide (a replay check can be slow)', () => {
		const asked: string[] = [];
		const agentProblem = (): string | null => (asked.push('agent'), 'no agent');
		const judgeProblem = (): string | null => (asked.push('judge'), null);
		ltmRunProblem(ready({ running: true, agentProblem, judgeProblem }));
		ltmRunProblem(ready({ loaded: false, agentProblem, judgeProblem }));
		expect(asked).toEqual([]);
		ltmRunProblem(ready({ agentProblem, judgeProblem }));
		expect(asked).toEqual(['agent']);
	});
});
