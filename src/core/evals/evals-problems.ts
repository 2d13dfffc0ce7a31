/**
 * Problems of an Evals registry or sample as the page lists them: a message, located where known,
 * each shown once.
 */
import { describeError } from '../messages/describe-error';
import { EvalsError, formatLocation } from './shared/errors';
import type { EvalsLocation } from './shared/types';

/** A problem with the registry or a sample, located where known. */
export interface EvalsProblem {
	readonly message: string;
	readonly location?: EvalsLocation;
}

/** A thrown value as a problem: an EvalsError keeps its location, anything else says what failed. */
export function problemOf(error: unknown): EvalsProblem {
	if (error instanceof EvalsError) {
		return error.location
			? { message: error.message, location: error.location }
			: { message: error.message };
	}
	return { message: describeError(error) };
}

/** The problems with repeats (same message at the same place) left out, first kept. */
export function dedupeProblems(problems: readonly EvalsProblem[]): EvalsProblem[] {
	const seen = new Set<string>();
	return problems.filter((problem) => {
		const key = problem.location
			? formatLocation(problem.location) + problem.message
			: problem.message;
		if (seen.has(key)) return false;
		seen.add(key);
		return true;
	});
}
