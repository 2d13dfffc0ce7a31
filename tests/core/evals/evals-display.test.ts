import { describe, expect, it } from 'vitest';
import {
	clipText,
	etaText,
	formatMetricValue,
	graderLines,
	idealCell,
	metricLabel,
	paramValueText,
	reportMetricText,
	splitAtChoice,
	verdictCell,
	type EvalsSampleRowView,
} from '../../../src/core/evals';

function row(fields: Partial<EvalsSampleRowView>): EvalsSampleRowView {
	return {
		sampleId: 'e.dev.0',
		position: 0,
		calls: [],
		completion: '',
		ideals: [],
		picked: null,
		invalid: false,
		...fields,
	};
}

describe('metricLabel', () => {
	it.each([
		['accuracy', 'share of samples judged correct'],
		[
			'boostrap_std',
			'spread of accuracy over 1000 bootstrap resamples (upstream spells it “boostrap”)',
		],
		['f1_score', 'mean word-overlap F1 with the best ideal'],
		['score', 'mean grader score of the choices'],
		['metascore', 'share where the grader agreed with the human label'],
		['counts/Y', 'samples where the grader chose “Y”'],
		['usage_completion_tokens', 'completion tokens summed'],
		['something_else', ''],
	])('%s → %j', (key, label) => {
		expect(metricLabel(key)).toBe(label);
	});
});

describe('formatMetricValue', () => {
	it.each([
		[12, '12'],
		[0, '0'],
		[0.5, '0.5000'],
		[2 / 3, '0.6667'],
		[Number.NaN, 'NaN'],
	])('%s → %s', (value, text) => {
		expect(formatMetricValue(value)).toBe(text);
	});
});

describe('reportMetricText', () => {
	it.each<[Record<string, number> | null, string, string]>([
		[{ accuracy: 0.25 }, 'accuracy', '0.2500'],
		[{ accuracy: 1 }, 'accuracy', '1'],
		[{ accuracy: 1 }, 'f1_score', '—'],
		[null, 'accuracy', '—'],
	])('%j, %s → %s', (report, key, text) => {
		expect(reportMetricText(report, key)).toBe(text);
	});
});

describe('verdictCell', () => {
	it.each<[Partial<EvalsSampleRowView>, string]>([
		[{ correct: true }, 'correct'],
		[{ correct: false }, 'wrong'],
		[{ choice: 'Y' }, 'Y'],
		[{ choice: '__invalid__', invalid: true }, 'invalid'],
		[{}, '—'],
	])('%j → %s', (fields, cell) => {
		expect(verdictCell(row(fields))).toBe(cell);
	});
});

describe('clipText', () => {
	it.each<[string, number | undefined, string]>([
		['short', undefined, 'short'],
		['x'.repeat(160), undefined, 'x'.repeat(160)],
		['x'.repeat(161), undefined, `${'x'.repeat(160)}…`],
		['abcdef', 3, 'abc…'],
	])('%j (%s)', (text, length, clipped) => {
		expect(clipText(text, length)).toBe(clipped);
	});
});

describe('graderLines', () => {
	it.each([
		['  a\nb\n', ['a', 'b']],
		['Y', ['Y']],
		['', ['']],
		['a\n\nb', ['a', '', 'b']],
	])('%j → %j', (text, lines) => {
		expect(graderLines(text)).toEqual(lines);
	});
});

describe('splitAtChoice', () => {
	it.each<[string, string, [string, string, string] | null]>([
		['So: Y', 'Y', ['So: ', 'Y', '']],
		['Y then Y', 'Y', ['', 'Y', ' then Y']],
		['nothing here', 'Y', null],
		['any', '', null],
	])('%j at %j', (line, choice, parts) => {
		expect(splitAtChoice(line, choice)).toEqual(parts);
	});
});

describe('paramValueText', () => {
	it.each<[unknown, string]>([
		[undefined, 'not sent'],
		[0, '0'],
		[0.7, '0.7'],
		[['\n'], '["\\n"]'],
	])('%j → %s', (value, text) => {
		expect(paramValueText(value)).toBe(text);
	});
});

describe('etaText', () => {
	it.each<[number | null, string]>([
		[null, ''],
		[0.2, 'about 1 s left'],
		[59.5, 'about 60 s left'],
		[60, 'about 1 min left'],
		[125, 'about 3 min left'],
	])('%s → %j', (seconds, text) => {
		expect(etaText(seconds)).toBe(text);
	});
});

describe('idealCell', () => {
	it('shows leading and trailing spaces, tabs and line breaks as the completion cell does', () => {
		expect(idealCell([' yellow'])).toBe('⎵yellow');
		expect(idealCell(['yellow '])).toBe('yellow⎵');
		expect(idealCell(['yellow'])).toBe('yellow');
		expect(idealCell([' Paris', '\tParis\n'])).toBe('⎵Paris | →Paris↵\n');
	});

	it('clips long ideals', () => {
		expect(idealCell(['x'.repeat(200)])).toBe(`${'x'.repeat(160)}…`);
	});
});
