import { describe, expect, it } from 'vitest';
import { buildSentence } from '../../../../src/core/syntaxgym/suite/build-sentences';
import { splitCriticalSpans } from '../../../../src/core/syntaxgym/suite/critical-spans';

function sentence(contents: string[]) {
	return buildSentence(1, {
		conditionName: 'match',
		regions: contents.map((content, index) => ({ regionNumber: index + 1, content })),
	});
}

describe('splitCriticalSpans', () => {
	const cases: [string, string[], number[], [string, number | null][]][] = [
		[
			'a middle region',
			['The key', 'to the cabinets', 'is', 'on the table.'],
			[3],
			[
				['The key to the cabinets ', null],
				['is', 3],
				[' on the table.', null],
			],
		],
		[
			'first and last regions',
			['The key', 'is', 'here.'],
			[1, 3],
			[
				['The key', 1],
				[' is ', null],
				['here.', 3],
			],
		],
		['no critical region', ['A', 'b.'], [], [['A b.', null]]],
		['an empty critical region is skipped', ['A', '', 'b.'], [2], [['A b.', null]]],
	];
	it.each(cases)('%s', (_name, contents, critical, expected) => {
		const built = sentence(contents);
		const spans = splitCriticalSpans(built, critical);
		expect(spans.map((span) => [span.text, span.criticalRegion])).toEqual(expected);
		expect(spans.map((span) => span.text).join('')).toBe(built.text);
	});
});
