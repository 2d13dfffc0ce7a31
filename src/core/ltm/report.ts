/**
 * Reports of an LTM run in upstream's shapes: one TestResult JSON per test (score normalised,
 * max_score 1) and the summary (L14): per dataset the mean and population std, score = sum of
 * dataset means, score_std, accuracy %, ltm = mean gap of perfect tests, speed, verbosity. Log
 * lines in upstream's forms (goodai-log.ts); goodai-files.ts writes the files as Python does. Pure.
 */
import { LTM_DIVERGENCES } from './divergences';
import {
	endText,
	entryEpochMicros,
	goodaiEventOf,
	goodaiLogLine,
	pythonDatetimeText,
} from './goodai-log';
import type { LtmRunState } from './scheduler';
import { firstLineIndex } from './scheduler';
import { UnsafePathError, safeRelativePath } from '../security/contained-path';
import type { JsonValue, LtmTestDefinition } from './shared/types';

/** Upstream's TestResult file (`<Dataset Name>/<example_id>_0.json`). */
export interface TestResultJson {
	readonly task_log: string[];
	readonly actual_responses: string[];
	readonly score: number;
	readonly max_score: 1;
	readonly reasoning: string[];
	readonly tokens: number;
	readonly characters: number;
	readonly full_log: string[];
	readonly expected_responses: readonly JsonValue[];
	readonly needles: number;
}

/** A scored test with its file. Skipped tests have no file. */
export interface LtmTestReport {
	readonly test: LtmTestDefinition;
	/** `<Dataset Name>/<example_id>_0.json` */
	readonly path: string;
	readonly result: TestResultJson;
	readonly flags: readonly string[];
	readonly overrun: boolean;
}

export interface LtmSummaryJson {
	readonly run_name: string;
	readonly memory_span: number;
	readonly datasets: Record<string, { mean: number; std: number; tests: number }>;
	readonly score: number;
	readonly score_std: number;
	/** 100 · score / number of datasets. */
	readonly accuracy: number;
	/** Mean `tokens` of the tests that scored their maximum (the "LTM score"). */
	readonly ltm: number;
	/** Agent reply tokens per second of agent time. */
	readonly speed: number;
	/** Agent reply tokens (generated ones; canned filler replies excluded). */
	readonly verbosity: number;
	readonly total_tokens: number;
	readonly skipped: { readonly test: string; readonly reason: string }[];
	readonly overruns: string[];
	readonly isolated: boolean;
	/** Known differences from upstream runs (LTM_DIVERGENCES). */
	readonly divergences: readonly string[];
}

export interface LtmReport {
	readonly tests: readonly LtmTestReport[];
	readonly summary: LtmSummaryJson;
}

/**
 * `YYYY-MM-DD HH:MM:SS.ffffff` of the run's start plus a virtual-clock offset (Python
 * `str(datetime)`; how the microseconds come about: goodai-log.ts `entryEpochMicros`).
 */
export function formatLogTime(startTime: string, clockS: number): string {
	return pythonDatetimeText(entryEpochMicros(startTime, clockS));
}

/** Population mean and standard deviation (0 and 0 for an empty list). */
export function meanAndStd(values: readonly number[]): { mean: number; std: number } {
	if (values.length === 0) return { mean: 0, std: 0 };
	const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
	const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length;
	return { mean, std: Math.sqrt(variance) };
}

/** Per-test score and gap → the summary numbers (L14). */
export function summarizeScores(
	tests: readonly { dataset: string; score: number; tokens: number }[],
): Pick<LtmSummaryJson, 'datasets' | 'score' | 'score_std' | 'accuracy' | 'ltm'> {
	const byDataset = new Map<string, number[]>();
	for (const test of tests)
		byDataset.set(test.dataset, [...(byDataset.get(test.dataset) ?? []), test.score]);
	const datasets: Record<string, { mean: number; std: number; tests: number }> = {};
	let score = 0;
	let scoreStd = 0;
	for (const [name, scores] of [...byDataset.entries()].sort(([a], [b]) =>
		a < b ? -1 : a > b ? 1 : 0,
	)) {
		const { mean, std } = meanAndStd(scores);
		datasets[name] = { mean, std, tests: scores.length };
		score += mean;
		scoreStd += std;
	}
	const perfect = tests.filter((test) => test.score === 1);
	const ltm =
		perfect.length === 0 ? 0 : perfect.reduce((sum, test) => sum + test.tokens, 0) / perfect.length;
	const count = byDataset.size;
	return {
		datasets,
		score,
		score_std: scoreStd,
		accuracy: count === 0 ? 0 : (100 * score) / count,
		ltm,
	};
}

/**
 * Where a test's result file goes: `<Dataset Name>/<example_id>_0.json`, each name a safe path
 * segment (a hostile name is percent-encoded, so no path leaves the folder or zip it is written
 * to); a name no file can have (over 255 bytes, broken Unicode) gives `unnamed/<position>_0.json`.
 */
export function resultFilePath(test: LtmTestDefinition, position: number): string {
	try {
		return safeRelativePath(test.datasetName, `${test.exampleId}_0.json`);
	} catch (error) {
		if (error instanceof UnsafePathError) return `unnamed/${position}_0.json`;
		throw error;
	}
}

/**
 * The summary of a (finished or partial) run from its outcomes alone (no log line is formatted),
 * cheap enough to show after every step; buildLtmReport's summary is this one.
 */
export function buildLtmSummary(state: LtmRunState): LtmSummaryJson {
	const scored: { dataset: string; score: number; tokens: number; id: string; overrun: boolean }[] =
		[];
	const skipped: { test: string; reason: string }[] = [];
	for (const test of state.tests) {
		const outcome = state.outcomes[test.uniqueId];
		if (!outcome) continue;
		if (outcome.evaluation.status === 'skipped') {
			skipped.push({ test: test.uniqueId, reason: outcome.evaluation.reasons.join(' ') });
			continue;
		}
		scored.push({
			dataset: test.datasetName,
			score: outcome.evaluation.score,
			tokens: outcome.tokens,
			id: test.uniqueId,
			overrun: outcome.overrun,
		});
	}
	return {
		run_name: state.config.runName + (state.config.isolated ? ' (isolated)' : ''),
		memory_span: state.config.memorySpan,
		...summarizeScores(scored),
		speed: state.agentDurationMs > 0 ? state.agentTokens / (state.agentDurationMs / 1000) : 0,
		verbosity: state.agentTokens,
		total_tokens: state.totalTokens,
		skipped,
		overruns: scored.filter((entry) => entry.overrun).map((entry) => entry.id),
		isolated: state.config.isolated,
		divergences: LTM_DIVERGENCES,
	};
}

/**
 * Upstream's `full_log` of a test: every line upstream logs, from the test's first script line
 * to its evaluation (its `ENDS` line, or the end of the log while it runs), in upstream's forms.
 */
function fullLog(state: LtmRunState, id: string): string[] {
	const start = firstLineIndex(state, id);
	if (start === -1) return [];
	const end = state.log.findIndex(
		(entry, index) => index > start && entry.kind === 'system' && entry.text === endText(id),
	);
	return state.log
		.slice(start, end === -1 ? undefined : end)
		.filter((entry) => goodaiEventOf(entry) !== undefined)
		.map((entry) => goodaiLogLine(state.startTime, entry));
}

/** Builds every report of a (finished or partial) run from its state. */
export function buildLtmReport(state: LtmRunState): LtmReport {
	const tests: LtmTestReport[] = [];
	state.tests.forEach((test, position) => {
		const outcome = state.outcomes[test.uniqueId];
		if (!outcome || outcome.evaluation.status === 'skipped') return;
		const id = test.uniqueId;
		const taskLog = state.log
			.filter((entry) => entry.testId === id && entry.role !== 'system')
			.map((entry) => goodaiLogLine(state.startTime, entry));
		tests.push({
			test,
			path: resultFilePath(test, position),
			flags: outcome.evaluation.flags,
			overrun: outcome.overrun,
			result: {
				task_log: taskLog,
				actual_responses: [...outcome.responses],
				score: outcome.evaluation.score,
				max_score: 1,
				reasoning: [...outcome.evaluation.reasons],
				tokens: outcome.tokens,
				characters: outcome.characters,
				full_log: fullLog(state, id),
				expected_responses: test.expectedResponses,
				needles: test.isQuestion.filter((question) => !question).length,
			},
		});
	});
	return { tests, summary: buildLtmSummary(state) };
}
