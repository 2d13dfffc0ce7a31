// What a suite run session shows of its progress and its end: finished items, a battery suite's
// counts, and the cancel wording of a run and of a battery.
import { describe, expect, it } from 'vitest';
import type { SuiteRun } from '../../../../src/core/syntaxgym/run/suite-run';
import {
	itemsFinished,
	suiteProgress,
	suiteRunCancelledMessage,
} from '../../../../src/core/syntaxgym/run/suite-run-progress';

function storedRun(id: number, itemsDone: number, itemCount: number): SuiteRun {
	return {
		id,
		suiteName: `suite ${id}`,
		suiteSha256: 'ab'.repeat(32),
		model: { source: 'bundled', id: 'gpt2-random-tiny', dtype: 'fp32', backend: 'wasm' },
		convention: 'reference',
		itemCount,
		appVersion: '1.0.0',
		createdAt: 0,
		status: 'cancelled',
		itemsDone,
		updatedAt: 0,
		scoringMs: 0,
		tokenCount: 0,
	};
}

describe('itemsFinished / suiteProgress', () => {
	const items = [
		{ itemNumber: 1, done: 2, total: 2 },
		{ itemNumber: 2, done: 1, total: 2 },
		{ itemNumber: 3, done: 0, total: 3 },
		{ itemNumber: 4, done: 3, total: 3 },
	];

	it('counts an item once its every condition is scored', () => {
		expect(itemsFinished(items)).toBe(2);
		expect(itemsFinished([])).toBe(0);
	});

	it("gives a battery suite's run, name and item counts", () => {
		expect(suiteProgress(storedRun(7, 0, 4), items)).toEqual({
			runId: 7,
			suiteName: 'suite 7',
			itemsDone: 2,
			itemsTotal: 4,
		});
	});
});

describe('suiteRunCancelledMessage', () => {
	it('says how many items of a run are kept', () => {
		expect(suiteRunCancelledMessage(null, [storedRun(1, 3, 10)])).toBe(
			'Run cancelled after 3 of 10 items; they are kept and the run can be resumed.',
		);
	});

	it("sums a battery's suites", () => {
		const runs = [storedRun(1, 4, 4), storedRun(2, 1, 6), storedRun(3, 0, 5)];
		expect(suiteRunCancelledMessage('b-1', runs)).toBe(
			'Battery cancelled after 5 of 15 items in 3 suites; they are kept and the battery can be resumed.',
		);
	});
});
