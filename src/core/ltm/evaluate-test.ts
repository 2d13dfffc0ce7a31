/**
 * Scores one finished static test: picks its evaluator, runs it (with the judge where needed) and
 * normalises to score / max_score (0 when max ≤ 0), max 1 (L1). A test whose evaluator always
 * needs a judge is skipped, not scored 0, when none is set.
 */
import type { Judge } from './evaluators/evaluator';
import { evaluatorFor } from './evaluators';
import type { LtmTestDefinition, TestEvaluation } from './shared/types';

/** Reason recorded for a test skipped for want of a judge. */
export const NEEDS_JUDGE_REASON = 'needs a judge model (--judge) to be scored: skipped';

export async function evaluateTest(
	test: LtmTestDefinition,
	questions: readonly string[],
	responses: readonly string[],
	judge: Judge | undefined,
	allTests: readonly LtmTestDefinition[] = [],
): Promise<TestEvaluation> {
	const evaluator = evaluatorFor(test.evaluator);
	if (!evaluator) {
		return {
			status: 'skipped',
			reasons: [`${String(test.evaluator)} tests are scored while they run`],
		};
	}
	if (evaluator.judge === 'always' && !judge)
		return { status: 'skipped', reasons: [NEEDS_JUDGE_REASON] };
	if (responses.length === 0) {
		return {
			status: 'scored',
			score: 0,
			reasons: ['The agent gave no answer to any question.'],
			flags: [],
		};
	}
	const verdict = await evaluator.evaluate(
		{ questions, responses, expected: test.expectedResponses, test, allTests },
		judge,
	);
	return {
		status: 'scored',
		score: verdict.maxScore > 0 ? verdict.score / verdict.maxScore : 0,
		reasons: [...verdict.reasons],
		flags: [...(verdict.flags ?? [])],
	};
}
