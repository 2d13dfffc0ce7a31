import { describe, expect, it } from 'vitest';
import {
	locateInBattery,
	planBattery,
	splitByWeight,
} from '../../../../src/core/syntaxgym/run/battery-plan';
import type { PendingSentence } from '../../../../src/core/syntaxgym/run/item-assembly';

/** Item-major sentences of `items` items with conditions a and b, texts tagged by `suite`. */
function sentences(suite: string, items: number): PendingSentence[] {
	return Array.from({ length: items }, (_, index) =>
		['a', 'b'].map((conditionName) => ({
			itemNumber: index + 1,
			conditionName,
			text: `${suite} ${index + 1}${conditionName}`,
		})),
	).flat();
}

describe('planBattery', () => {
	it('pools the pending sentences of every suite, suite after suite, finished items left out', () => {
		const plan = planBattery([
			{ sentences: sentences('A', 2), finished: new Set([1]) },
			{ sentences: sentences('B', 1), finished: new Set() },
			{ sentences: sentences('C', 2), finished: new Set([1, 2]) },
			{ sentences: sentences('D', 2), finished: new Set([2]) },
		]);
		expect(plan.pending.map((s) => s.text)).toEqual([
			'A 2a',
			'A 2b',
			'B 1a',
			'B 1b',
			'D 1a',
			'D 1b',
		]);
		expect(plan.suites.map((s) => [s.offset, s.pending.length])).toEqual([
			[0, 2],
			[2, 2],
			[4, 0],
			[4, 2],
		]);
		// The first pending item alone, then the rest in one request.
		expect(plan.requests).toEqual([
			[0, 2],
			[2, 6],
		]);
	});

	it('maps every request index back to its suite and pending sentence, and nothing else', () => {
		const plan = planBattery([
			{ sentences: sentences('A', 1), finished: new Set() },
			{ sentences: sentences('B', 3), finished: new Set([1, 2, 3]) },
			{ sentences: sentences('C', 2), finished: new Set([1]) },
		]);
		const located = plan.pending.map((_, index) => locateInBattery(plan, index));
		expect(located).toEqual([
			{ suiteIndex: 0, index: 0 },
			{ suiteIndex: 0, index: 1 },
			{ suiteIndex: 2, index: 0 },
			{ suiteIndex: 2, index: 1 },
		]);
		for (const [at, where] of located.entries()) {
			const suite = plan.suites[where?.suiteIndex ?? -1];
			expect(suite?.pending[where?.index ?? -1]).toBe(plan.pending[at]);
		}
		for (const outside of [-1, 4, 1.5, Number.NaN]) {
			expect(locateInBattery(plan, outside)).toBeNull();
		}
	});

	it('starts with the first suite that has pending sentences, one request when that is all', () => {
		const onlyOne = planBattery([
			{ sentences: sentences('A', 1), finished: new Set([1]) },
			{ sentences: sentences('B', 2), finished: new Set([2]) },
		]);
		expect(onlyOne.requests).toEqual([[0, 2]]);
		const nothing = planBattery([{ sentences: sentences('A', 2), finished: new Set([1, 2]) }]);
		expect(nothing.requests).toEqual([]);
		expect(planBattery([]).pending).toEqual([]);
	});

	it('does not join the first item with the same item number of the next suite', () => {
		const plan = planBattery([
			{ sentences: sentences('A', 1), finished: new Set() },
			{ sentences: sentences('B', 1), finished: new Set() },
		]);
		expect(plan.requests).toEqual([
			[0, 2],
			[2, 4],
		]);
	});
});

describe('splitByWeight', () => {
	it('shares a total in proportion to the weights', () => {
		expect(splitByWeight(100, [1, 3, 0])).toEqual([25, 75, 0]);
		const shares = splitByWeight(1000, [7, 11, 13]);
		expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1000, 9);
	});

	it('shares equally when no weight is positive, and ignores negative weights', () => {
		expect(splitByWeight(90, [0, 0, 0])).toEqual([30, 30, 30]);
		expect(splitByWeight(10, [-5, 5])).toEqual([0, 10]);
		expect(splitByWeight(10, [])).toEqual([]);
	});
});
