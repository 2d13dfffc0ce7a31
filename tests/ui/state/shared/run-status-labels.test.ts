// The status word of a stored run: a record left `running` that no session of this tab works on
// (a reload or a closed tab stopped it) is "interrupted", never "running".
import { describe, expect, it } from 'vitest';
import type { RunStatus } from '../../../../src/core/run/run-types';
import { storedRunStatusWord } from '../../../../src/ui/state/shared/run-status-labels';

describe('storedRunStatusWord', () => {
	it.each([
		['running', true, 'running'],
		['running', false, 'interrupted'],
		['done', false, 'done'],
		['done', true, 'done'],
		['cancelled', false, 'cancelled'],
		['failed', false, 'failed'],
	] as [RunStatus, boolean, string][])('%s, worked on now: %s → %s', (status, now, word) => {
		expect(storedRunStatusWord(status, now)).toBe(word);
	});
});
