import { describe, expect, it } from 'vitest';
import type { ChartSpec } from '../../../../src/core/syntaxgym/charts/chart-spec';
import {
	CHART_SVG_HEIGHT,
	chartSpecToSvg,
	roundTicks,
} from '../../../../src/core/syntaxgym/charts/chart-svg';

const PALETTE = ['#0072B2', '#E69F00'];

/** Every `<rect class="bar">` as numbers. */
function bars(
	svg: string,
): { x: number; y: number; width: number; height: number; fill: string }[] {
	return [
		...svg.matchAll(
			/<rect class="bar" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" fill="([^"]+)">/g,
		),
	].map((m) => ({
		x: Number(m[1]),
		y: Number(m[2]),
		width: Number(m[3]),
		height: Number(m[4]),
		fill: m[5] ?? '',
	}));
}

/** Every whisker as [x, y at one end, y at the other]. */
function whiskers(svg: string): [number, number, number][] {
	return [...svg.matchAll(/<path class="whisker" d="M([\d.]+) ([\d.]+)V([\d.]+)/g)].map((m) => [
		Number(m[1]),
		Number(m[2]),
		Number(m[3]),
	]);
}

const SPEC: ChartSpec = {
	title: 'Mean <surprisal> & "friends"',
	xLabel: 'Word position',
	yLabel: 'Surprisal (bits)',
	labels: ['1', '2', '3'],
	series: [
		{ label: 'ambiguous', values: [2, 8, null], low: [1, 6, null], high: [3, 10, null] },
		{ label: 'unambiguous', values: [4, 1, 6], low: [null, 0.5, 5], high: [null, 1.5, 7] },
	],
};

describe('roundTicks', () => {
	it.each<[number, number]>([
		[0, 10],
		[0, 23.7],
		[-3.2, 0.4],
		[0, 1],
		[12, 13.5],
	])('[%d, %d]: evenly spaced 1, 2 or 5 × 10^k steps inside the range', (min, max) => {
		const ticks = roundTicks(min, max);
		expect(ticks.length).toBeGreaterThanOrEqual(2);
		expect(ticks.length).toBeLessThanOrEqual(11);
		const step = (ticks[1] as number) - (ticks[0] as number);
		const mantissa = step / 10 ** Math.floor(Math.log10(step));
		expect([1, 2, 5, 10].some((m) => Math.abs(m - mantissa) < 1e-9)).toBe(true);
		ticks.forEach((tick, i) => {
			expect(tick).toBeGreaterThanOrEqual(min - 1e-9);
			expect(tick).toBeLessThanOrEqual(max + 1e-9);
			if (i > 0) expect(tick - (ticks[i - 1] as number)).toBeCloseTo(step, 9);
		});
	});
});

describe('chartSpecToSvg', () => {
	const svg = chartSpecToSvg(SPEC, PALETTE);

	it('is one SVG document with its text escaped', () => {
		expect(svg.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns=')).toBe(true);
		expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
		expect(svg).toContain('Mean &lt;surprisal&gt; &amp; &quot;friends&quot;');
		expect(svg).not.toContain('<surprisal>');
		// Every element opened is closed (self-closed or by its end tag).
		const opened = [...svg.matchAll(/<([a-z]+)[^>]*?(\/?)>/g)].filter((m) => m[2] !== '/');
		const closed = [...svg.matchAll(/<\/([a-z]+)>/g)];
		expect(opened.map((m) => m[1]).sort()).toEqual(closed.map((m) => m[1]).sort());
	});

	it('draws one bar per value, its height proportional to the value, inside the plot', () => {
		const drawn = bars(svg);
		// 5 values (one null left out), in series order per group.
		expect(drawn).toHaveLength(5);
		expect(drawn.map((bar) => bar.fill)).toEqual([
			'#0072B2',
			'#E69F00',
			'#0072B2',
			'#E69F00',
			'#E69F00',
		]);
		const values = [2, 4, 8, 1, 6];
		const unit = (drawn[0]?.height ?? 0) / 2;
		drawn.forEach((bar, i) => {
			expect(bar.height).toBeCloseTo((values[i] as number) * unit, 1);
			expect(bar.y).toBeGreaterThanOrEqual(0);
			expect(bar.y + bar.height).toBeLessThanOrEqual(CHART_SVG_HEIGHT);
		});
		// All bars stand on the same baseline (the zero line).
		expect(new Set(drawn.map((bar) => Math.round(bar.y + bar.height)))).toHaveProperty('size', 1);
		// Groups left to right.
		expect(drawn.map((bar) => bar.x)).toEqual([...drawn.map((bar) => bar.x)].sort((a, b) => a - b));
	});

	it('draws a whisker where both bounds exist, on the same scale as the bars, centred on its bar', () => {
		const drawn = bars(svg);
		const lines = whiskers(svg);
		// Intervals: ambiguous at 1 and 2, unambiguous at 2 and 3.
		expect(lines).toHaveLength(4);
		const base = (drawn[0]?.y ?? 0) + (drawn[0]?.height ?? 0);
		const unit = (drawn[0]?.height ?? 0) / 2;
		const expected: [number, number, number][] = [
			[0, 1, 3],
			[2, 6, 10],
			[3, 0.5, 1.5],
			[4, 5, 7],
		];
		expected.forEach(([barIndex, low, high], i) => {
			const bar = drawn[barIndex];
			const line = lines[i];
			if (!bar || !line) throw new Error('missing bar or whisker');
			expect(line[0]).toBeCloseTo(bar.x + bar.width / 2, 1);
			expect(base - line[1]).toBeCloseTo(low * unit, 1);
			expect(base - line[2]).toBeCloseTo(high * unit, 1);
		});
	});

	it('names every series in the legend and every category under its group', () => {
		for (const text of ['ambiguous', 'unambiguous', 'Word position', 'Surprisal (bits)']) {
			expect(svg).toContain(`>${text}</text>`);
		}
		for (const label of SPEC.labels) expect(svg).toContain(`>${label}</text>`);
	});

	it('keeps a fixed value range (accuracies from 0 to 1)', () => {
		const accuracy = chartSpecToSvg(
			{ ...SPEC, yMin: 0, yMax: 1, series: [{ label: 'a', values: [0.5, 1, 0.25] }] },
			PALETTE,
		);
		const drawn = bars(accuracy);
		const full = drawn[1]?.height ?? 0;
		expect(drawn[0]?.height).toBeCloseTo(full / 2, 1);
		expect(drawn[2]?.height).toBeCloseTo(full / 4, 1);
	});
});
