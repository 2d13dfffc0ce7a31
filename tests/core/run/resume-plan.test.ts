// The one resume rule of every run kind: unfinished statuses with work left are resumable, and a
// run left `running` is the one a reload interrupted.
import { describe, expect, it } from 'vitest';
import { UNFINISHED_STATUSES } from '../../../src/core/run/resume-plan';
import { SUITE_RESUME } from '../../../src/core/syntaxgym/run/suite-run';
import { LTM_RESUME } from '../../../src/core/ltm/ltm-run-record';
import { EVALS_RESUME } from '../../../src/core/evals/evals-run-record';
import { RUN_STATUSES, type RunStatus } from '../../../src/core/run/run-types';

describe('resume rule', () => {
	it('offers every unfinished status and never a finished run', () => {
		for (const status of RUN_STATUSES) {
			const plan = SUITE_RESUME.resumePlan({ status, itemsDone: 2, itemCount: 5 });
			if (status === 'done') expect(plan).toBeNull();
			else expect(plan).toEqual({ done: 2, total: 5, interrupted: status === 'running' });
		}
		expect([...UNFINISHED_STATUSES].sort()).toEqual(
			RUN_STATUSES.filter((status: RunStatus) => status !== 'done').sort(),
		);
	});

	it('does not offer a suite run with every item stored', () => {
		expect(SUITE_RESUME.resumePlan({ status: 'cancelled', itemsDone: 5, itemCount: 5 })).toBeNull();
	});

	it('offers an Evals run with every sample done but no report (the report is work left)', () => {
		const progress = { done: 4, total: 4, tokens: 0, elapsedMs: 0 };
		expect(EVALS_RESUME.resumePlan({ status: 'cancelled', progress })).toEqual({
			done: 4,
			total: 4,
			interrupted: false,
		});
		expect(
			EVALS_RESUME.resumePlan({ status: 'cancelled', progress, report: { accuracy: 1 } }),
		).toBeNull();
		expect(
			EVALS_RESUME.resumePlan({ status: 'failed', progress: { ...progress, done: 1 }, report: {} }),
		).toEqual({ done: 1, total: 4, interrupted: false });
	});

	it('offers an unfinished LTM run whatever its (lagging) counts', () => {
		const progress = { testsDone: 3, testsTotal: 3, tokens: 0, elapsedMs: 0 };
		expect(LTM_RESUME.resumePlan({ status: 'running', progress })).toEqual({
			done: 3,
			total: 3,
			interrupted: true,
		});
		expect(LTM_RESUME.resumePlan({ status: 'done', progress })).toBeNull();
	});

	it('words each kind for the shared messages', () => {
		expect([SUITE_RESUME, EVALS_RESUME, LTM_RESUME].map((rule) => rule.noun)).toEqual([
			'items',
			'samples',
			'tests',
		]);
	});
});
