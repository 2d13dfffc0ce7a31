// The suite runs of a battery read back together, in the battery's suite order.
import { beforeEach, describe, expect, it } from 'vitest';
import {
	createSuiteRun,
	listBatteryRuns,
	updateSuiteRun,
} from '../../../src/storage/syntaxgym/suite-runs-repository';
import { clearDatabase } from '../clear-database';
import { runDraft } from '../fixtures';

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
