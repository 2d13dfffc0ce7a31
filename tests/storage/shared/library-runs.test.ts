// The Library's list (issue 26 item 2): runs of every kind in one list, newest first, an Evals run
// without its heavy input, and the records no page can show apart.
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../../src/storage/shared/db';
import { createEvalsRun } from '../../../src/storage/evals/evals-runs-repository';
import { createLtmRun } from '../../../src/storage/ltm/ltm-runs-repository';
import { createSuiteRun } from '../../../src/storage/syntaxgym/suite-runs-repository';
import { listLibraryRuns } from '../../../src/storage/shared/runs-repository';
import { clearDatabase } from '../clear-database';
import { evalsRunDraft, ltmRunDraft, runDraft } from '../fixtures';

beforeEach(clearDatabase);

describe('listLibraryRuns', () => {
	it('lists suite, Evals and Memory runs newest first, and unreadable records apart', async () => {
		const suite = await createSuiteRun(runDraft({ createdAt: 1_700_000_000_000 }));
		const evals = await createEvalsRun(evalsRunDraft({ createdAt: 1_700_000_300_000 }));
		const ltm = await createLtmRun(ltmRunDraft({ createdAt: 1_700_000_200_000 }));
		// Same time as the suite run: the later id comes first.
		const tie = await createSuiteRun(runDraft({ createdAt: 1_700_000_000_000 }));
		const badId = (await db.runs.add({ kind: 'ltm', title: 'x' } as never)) as number;

		const { runs, unreadable } = await listLibraryRuns();
		expect(runs.map((run) => [run.id, run.kind])).toEqual([
			[evals.id, 'evals'],
			[ltm.id, 'ltm'],
			[tie.id, 'suite'],
			[suite.id, 'suite'],
		]);
		const listedEvals = runs[0];
		expect(listedEvals && 'spec' in listedEvals).toBe(false);
		expect(listedEvals?.title).toBe(evals.evalName);
		expect(unreadable.map((record) => [record.id, record.kind])).toEqual([[badId, 'ltm']]);
	});

	it('an empty store lists nothing', async () => {
		expect(await listLibraryRuns()).toEqual({ runs: [], unreadable: [] });
	});
});
