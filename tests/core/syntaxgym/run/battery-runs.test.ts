import { describe, expect, it } from 'vitest';
import type { RunStatus } from '../../../../src/core/run/run-types';
import type { SuiteRun } from '../../../../src/core/syntaxgym/run/suite-run';
import { findInterruptedBatteries } from '../../../../src/core/syntaxgym/run/battery-runs';

function run(
	id: number,
	status: RunStatus,
	itemsDone: number,
	battery?: { id: string; index: number; size: number },
): SuiteRun {
	return {
		id,
		suiteSha256: 'a'.repeat(64),
		suiteName: `suite ${id}`,
		model: { source: 'bundled', id: 'gpt2-random-tiny', dtype: 'fp32', backend: 'wasm' },
		convention: 'reference',
		itemCount: 4,
		appVersion: '0.0.0',
		createdAt: id,
		status,
		itemsDone,
		updatedAt: id,
		scoringMs: 0,
		tokenCount: 0,
		...(battery ? { battery } : {}),
	};
}

describe('findInterruptedBatteries', () => {
	it('groups the runs of a battery left running into one entry, in suite order', () => {
		const x = (index: number) => ({ id: 'x', index, size: 3 });
		const entries = findInterruptedBatteries([
			run(9, 'running', 1, x(2)),
			run(8, 'done', 4, x(0)),
			run(7, 'running', 0),
			run(6, 'running', 2, x(1)),
		]);
		expect(entries).toEqual([
			{
				id: 'x',
				size: 3,
				runs: [
					expect.objectContaining({ id: 8 }),
					expect.objectContaining({ id: 6 }),
					expect.objectContaining({ id: 9 }),
				],
				itemsDone: 7,
				itemCount: 12,
			},
		]);
	});

	it('leaves out batteries with nothing running and runs of one suite', () => {
		const entries = findInterruptedBatteries([
			run(5, 'cancelled', 1, { id: 'y', index: 0, size: 2 }),
			run(4, 'done', 4, { id: 'y', index: 1, size: 2 }),
			run(3, 'running', 4, { id: 'z', index: 0, size: 1 }),
			run(2, 'running', 1),
		]);
		expect(entries).toEqual([]);
	});

	it('keeps the newest battery first', () => {
		const entries = findInterruptedBatteries([
			run(4, 'running', 0, { id: 'new', index: 0, size: 1 }),
			run(2, 'running', 0, { id: 'old', index: 0, size: 1 }),
		]);
		expect(entries.map((entry) => entry.id)).toEqual(['new', 'old']);
	});
});
