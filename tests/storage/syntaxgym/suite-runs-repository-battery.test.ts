// The suite runs of a battery: read back together in the battery's suite order, stored together
// with their suites (all or none), and updated together.
import { beforeEach, describe, expect, it } from 'vitest';
import {
	createSuiteRun,
	createSuiteRuns,
	deleteSuiteRun,
	getSuiteRun,
	listBatteryRuns,
	listSuiteRuns,
	updateSuiteRun,
	updateSuiteRuns,
} from '../../../src/storage/syntaxgym/suite-runs-repository';
import { getSuite, listSuites } from '../../../src/storage/syntaxgym/suites-repository';
import { clearDatabase } from '../clear-database';
import { runDraft, SUITE_TEXT } from '../fixtures';

beforeEach(clearDatabase);

describe('listBatteryRuns', () => {
	it("lists a battery's runs in suite order, and only them", async () => {
		const battery = (index: number) => ({ battery: { id: 'battery-1', index, size: 3 } });
		const third = await createSuiteRun(runDraft({ suiteName: 'c', ...battery(2) }));
		const alone = await createSuiteRun(runDraft({ suiteName: 'alone' }));
		const first = await createSuiteRun(runDraft({ suiteName: 'a', ...battery(0) }));
		await createSuiteRun(runDraft({ battery: { id: 'battery-2', index: 0, size: 1 } }));
		const second = await createSuiteRun(runDraft({ suiteName: 'b', ...battery(1) }));
		await updateSuiteRun(second.id, { status: 'done' });
		const runs = await listBatteryRuns('battery-1');
		expect(runs.map((run) => run.id)).toEqual([first.id, second.id, third.id]);
		expect(runs[1]).toMatchObject({
			status: 'done',
			battery: { id: 'battery-1', index: 1, size: 3 },
		});
		expect(runs.map((run) => run.id)).not.toContain(alone.id);
		expect(await listBatteryRuns('no-such-battery')).toEqual([]);
	});
});

describe('createSuiteRuns', () => {
	const suite = (name: string) => ({
		text: SUITE_TEXT.replace('tiny agreement', name),
		name,
		origin: 'paste' as const,
		sourceName: `${name}.json`,
	});

	it('saves each suite and stores a run of it, in order, the run naming its suite', async () => {
		const runs = await createSuiteRuns(
			['a', 'b', 'c'].map((name, index) => ({
				suite: suite(name),
				draft: (suiteSha256) =>
					runDraft({ suiteSha256, suiteName: name, battery: { id: 'b-1', index, size: 3 } }),
			})),
		);
		expect(runs.map((run) => run.suiteName)).toEqual(['a', 'b', 'c']);
		expect(runs.map((run) => run.status)).toEqual(['running', 'running', 'running']);
		for (const run of runs) {
			expect((await getSuite(run.suiteSha256))?.name).toBe(run.suiteName);
		}
		expect((await listBatteryRuns('b-1')).map((run) => run.id)).toEqual(runs.map((r) => r.id));
	});

	it('stores nothing when one of them fails (no suite, no run half-stored)', async () => {
		const starts = ['a', 'b'].map((name) => ({
			suite: suite(name),
			draft: (suiteSha256: string) => {
				if (name === 'b') throw new Error('no draft for b');
				return runDraft({ suiteSha256, suiteName: name });
			},
		}));
		await expect(createSuiteRuns(starts)).rejects.toThrow('no draft for b');
		expect(await listSuites()).toEqual([]);
		expect(await listSuiteRuns()).toEqual([]);
	});
});

describe('updateSuiteRuns', () => {
	it('updates each run from its stored record; a run gone gives undefined and the rest go on', async () => {
		const first = await createSuiteRun(runDraft({ suiteName: 'a' }));
		const gone = await createSuiteRun(runDraft({ suiteName: 'gone' }));
		const third = await createSuiteRun(runDraft({ suiteName: 'c' }));
		await updateSuiteRun(first.id, { tokenCount: 10 });
		await deleteSuiteRun(gone.id);
		const seen: (string | undefined)[] = [];
		const updated = await updateSuiteRuns([first.id, gone.id, third.id], (stored, index) => {
			seen.push(stored?.suiteName);
			return { status: 'done', tokenCount: (stored?.tokenCount ?? 0) + index + 1 };
		});
		expect(seen).toEqual(['a', undefined, 'c']);
		expect(updated.map((run) => run?.tokenCount)).toEqual([11, undefined, 3]);
		expect(await getSuiteRun(first.id)).toMatchObject({ status: 'done', tokenCount: 11 });
		expect(await getSuiteRun(gone.id)).toBeUndefined();
		expect(await getSuiteRun(third.id)).toMatchObject({ status: 'done', tokenCount: 3 });
	});
});
