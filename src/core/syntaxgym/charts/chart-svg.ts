/**
 * A ChartSpec as a standalone SVG document: grouped bars (one group per category label, one bar
 * per series) with their 95% intervals as whiskers, value axis with round ticks, legend, title and
 * axis labels. For a figure to put in a paper or slides, where the PNG of the canvas is too coarse.
 * Text only; no DOM. Pure.
 */
import type { ChartSpec } from './chart-spec';

/** The figure's size in SVG user units (pixels at 100%). */
export const CHART_SVG_WIDTH = 960;
export const CHART_SVG_HEIGHT = 480;

const MARGIN = { left: 72, right: 24, top: 72, bottom: 64 } as const;
const FONT = 'font-family="system-ui, sans-serif"';

/** Characters XML gives a meaning to, escaped for text and attribute values. */
function escapeXml(text: string): string {
	return text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&apos;');
}

/** A number short enough for an attribute (0.01 px is finer than any screen). */
function px(value: number): string {
	return String(Math.round(value * 100) / 100);
}

/** A 1, 2 or 5 × 10^k step giving about `count` ticks over [min, max], and the ticks. */
export function roundTicks(min: number, max: number, count = 5): number[] {
	if (!(max > min)) return [min];
	const raw = (max - min) / count;
	const power = 10 ** Math.floor(Math.log10(raw));
	const step = ([1, 2, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
	const first = Math.ceil(min / step - 1e-9) * step;
	const ticks: number[] = [];
	for (let tick = first; tick <= max + step * 1e-9; tick += step) {
		ticks.push(Math.round(tick / step) * step);
	}
	return ticks;
}

/** The value axis: fixed bounds where the spec gives them, else from 0 and every value and
 * interval bound, out to the next round tick. */
function valueRange(spec: ChartSpec): { min: number; max: number; ticks: number[] } {
	let low = Math.min(0, spec.ySuggestedMin ?? 0);
	let high = Math.max(0, spec.ySuggestedMax ?? 0);
	for (const series of spec.series) {
		for (const value of [...series.values, ...(series.high ?? []), ...(series.low ?? [])]) {
			if (value === null || !Number.isFinite(value)) continue;
			low = Math.min(low, value);
			high = Math.max(high, value);
		}
	}
	if (!(high > low)) high = low + 1;
	const rough = roundTicks(low, high);
	const step = rough.length > 1 ? (rough[1] as number) - (rough[0] as number) : 1;
	const min = spec.yMin ?? Math.floor(low / step + 1e-9) * step;
	const max = spec.yMax ?? Math.ceil(high / step - 1e-9) * step;
	return { min, max, ticks: roundTicks(min, max) };
}

/**
 * The spec drawn as an SVG document (UTF-8 text, with the XML declaration). Series take
 * `palette` colours in order (cycled). Null values leave their bar out; an interval is drawn
 * where both its bounds are numbers.
 */
export function chartSpecToSvg(spec: ChartSpec, palette: readonly string[]): string {
	const width = CHART_SVG_WIDTH;
	const height = CHART_SVG_HEIGHT;
	const plot = {
		left: MARGIN.left,
		top: MARGIN.top,
		width: width - MARGIN.left - MARGIN.right,
		height: height - MARGIN.top - MARGIN.bottom,
	};
	const range = valueRange(spec);
	const y = (value: number): number =>
		plot.top + plot.height * (1 - (value - range.min) / (range.max - range.min));
	const colourOf = (index: number): string => palette[index % palette.length] ?? '#000000';
	const parts: string[] = [];
	parts.push(
		`<text x="${px(width / 2)}" y="24" text-anchor="middle" font-size="16" font-weight="600" ${FONT}>${escapeXml(spec.title)}</text>`,
	);
	// Legend, one row under the title.
	let legendX = plot.left;
	spec.series.forEach((series, index) => {
		parts.push(
			`<rect x="${px(legendX)}" y="38" width="14" height="14" fill="${colourOf(index)}"/>`,
			`<text x="${px(legendX + 20)}" y="50" font-size="13" ${FONT}>${escapeXml(series.label)}</text>`,
		);
		legendX += 34 + series.label.length * 7.5;
	});
	// Value axis: grid lines and tick labels.
	for (const tick of range.ticks) {
		parts.push(
			`<line class="grid" x1="${px(plot.left)}" x2="${px(plot.left + plot.width)}" y1="${px(y(tick))}" y2="${px(y(tick))}" stroke="#d0d0d0" stroke-width="1"/>`,
			`<text x="${px(plot.left - 8)}" y="${px(y(tick) + 4)}" text-anchor="end" font-size="12" ${FONT}>${escapeXml(String(tick))}</text>`,
		);
	}
	const groups = Math.max(1, spec.labels.length);
	const groupWidth = plot.width / groups;
	const barWidth = (groupWidth * 0.8) / Math.max(1, spec.series.length);
	const zero = y(Math.max(range.min, Math.min(range.max, 0)));
	spec.labels.forEach((label, group) => {
		const groupLeft = plot.left + group * groupWidth + groupWidth * 0.1;
		parts.push(
			`<text x="${px(plot.left + (group + 0.5) * groupWidth)}" y="${px(plot.top + plot.height + 18)}" text-anchor="middle" font-size="12" ${FONT}>${escapeXml(label)}</text>`,
		);
		spec.series.forEach((series, index) => {
			const value = series.values[group];
			if (value === null || value === undefined || !Number.isFinite(value)) return;
			const x = groupLeft + index * barWidth;
			const top = Math.min(y(value), zero);
			parts.push(
				`<rect class="bar" x="${px(x)}" y="${px(top)}" width="${px(barWidth)}" height="${px(Math.abs(zero - y(value)))}" fill="${colourOf(index)}"><title>${escapeXml(`${series.label}, ${label}: ${value}`)}</title></rect>`,
			);
			const low = series.low?.[group];
			const high = series.high?.[group];
			if (typeof low !== 'number' || typeof high !== 'number') return;
			if (!Number.isFinite(low) || !Number.isFinite(high)) return;
			const centre = x + barWidth / 2;
			const cap = Math.min(6, barWidth / 3);
			parts.push(
				`<path class="whisker" d="M${px(centre)} ${px(y(low))}V${px(y(high))}M${px(centre - cap)} ${px(y(low))}H${px(centre + cap)}M${px(centre - cap)} ${px(y(high))}H${px(centre + cap)}" stroke="#222222" stroke-width="1.5" fill="none"/>`,
			);
		});
	});
	// Axes and their labels.
	parts.push(
		`<line x1="${px(plot.left)}" x2="${px(plot.left)}" y1="${px(plot.top)}" y2="${px(plot.top + plot.height)}" stroke="#444444"/>`,
		`<line x1="${px(plot.left)}" x2="${px(plot.left + plot.width)}" y1="${px(zero)}" y2="${px(zero)}" stroke="#444444"/>`,
		`<text x="${px(plot.left + plot.width / 2)}" y="${px(height - 16)}" text-anchor="middle" font-size="13" ${FONT}>${escapeXml(spec.xLabel)}</text>`,
		`<text transform="translate(18 ${px(plot.top + plot.height / 2)}) rotate(-90)" text-anchor="middle" font-size="13" ${FONT}>${escapeXml(spec.yLabel)}</text>`,
	);
	return [
		'<?xml version="1.0" encoding="UTF-8"?>',
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(spec.title)}">`,
		`<rect width="${width}" height="${height}" fill="#ffffff"/>`,
		...parts,
		'</svg>',
		'',
	].join('\n');
}
