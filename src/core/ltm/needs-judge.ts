/**
 * Which LTM tests need the judge model to be scored: static tests whose evaluator always asks it
 * (gpt_checklist, locations_directions, the `llm_checklist` rule), dynamic tests with a judge
 * `check` or `extract` step (in branches too), and the built-in dynamic tests (Restaurant).
 * Without a judge such tests are skipped, not scored 0. Pure.
 */
import { programUsesJudge } from './dynamic-test';
import { evaluatorFor } from './evaluators';
import type { LtmTestDefinition } from './shared/types';

/** Whether `test` cannot be scored without a judge model. */
export function testNeedsJudge(test: LtmTestDefinition): boolean {
	if (test.dynamic) return programUsesJudge(test.dynamic);
	return evaluatorFor(test.evaluator)?.judge === 'always';
}

/** The unique ids of the tests that need a judge model, in the order given. */
export function testsNeedingJudge(tests: readonly LtmTestDefinition[]): string[] {
	return tests.filter(testNeedsJudge).map((test) => test.uniqueId);
}
