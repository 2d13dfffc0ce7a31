// Where a dropped or imported file goes: a run bundle of any kind (its first key names a bundle
// format, as every writer puts it), else a suite or a log.
import { describe, expect, it } from 'vitest';
import { looksLikeRunBundle } from '../../../src/core/run/task-run-json';

describe('looksLikeRunBundle', () => {
	it.each([
		['{\n\t"format": "benchtop-run",\n\t"formatVersion": 1', true],
		['\uFEFF{"format":"benchtop-run"}', true],
		['{\n\t"format": "benchtop-run/2",\n\t"kind": "suite"', true],
		['{"format": "benchtop-run/3"', true],
		['{\n\t"format": "benchtop-evals-run/1",\n\t"run": {', true],
		['{"format": "benchtop-ltm-run/1"}', true],
		['{"kind": "evals", "format": "benchtop-run/2"}', false],
		['{"meta": {"name": "x"}, "format": "benchtop-run"}', false],
		['{"format": "benchtop-runner"', false],
		['[1, 2]', false],
		['', false],
	])('%j → %s', (head, expected) => {
		expect(looksLikeRunBundle(head)).toBe(expected);
	});
});
