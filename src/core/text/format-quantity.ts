/**
 * Numbers as the app shows them: bytes, durations, rates, percentages, surprisal. Pure; the UI
 * only calls these, so every view rounds the same way. English, no locale data.
 */

const BYTE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;

/** `1536` → `1.5 kB` (decimal units, as browsers and the Hub report sizes). */
export function formatBytes(bytes: number): string {
	if (!Number.isFinite(bytes) || bytes < 0) return '–';
	let value = bytes;
	let unit = 0;
	while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
		value /= 1000;
		unit++;
	}
	const digits = unit === 0 || value >= 100 ? 0 : value >= 10 ? 1 : 2;
	return `${value.toFixed(digits)} ${BYTE_UNITS[unit]}`;
}

/** `65_000` → `1 min 5 s`; under ten seconds with one decimal (`2.5 s`). */
export function formatDurationMs(milliseconds: number): string {
	if (!Number.isFinite(milliseconds) || milliseconds < 0) return '–';
	if (milliseconds < 1000) return `${Math.round(milliseconds)} ms`;
	const seconds = milliseconds / 1000;
	if (seconds < 10) return `${seconds.toFixed(1)} s`;
	const whole = Math.round(seconds);
	const hours = Math.floor(whole / 3600);
	const minutes = Math.floor((whole % 3600) / 60);
	const rest = whole % 60;
	if (hours > 0) return `${hours} h ${minutes} min`;
	if (minutes > 0) return `${minutes} min ${rest} s`;
	return `${rest} s`;
}

/** A share in [0, 1] as a percentage with `digits` decimals (`0.625` → `62.5%`). */
export function formatPercent(share: number, digits = 1): string {
	if (!Number.isFinite(share)) return '–';
	return `${(share * 100).toFixed(digits)}%`;
}

/** Surprisal in bits for display: 2 decimals, `–` for NaN/null. */
export function formatBits(bits: number | null | undefined, digits = 2): string {
	if (bits === null || bits === undefined || Number.isNaN(bits)) return '–';
	if (!Number.isFinite(bits)) return bits > 0 ? '∞' : '−∞';
	return bits.toFixed(digits);
}

/** A rate per second with a sensible number of digits (`123.4` → `123`, `4.56` → `4.6`). */
export function formatRate(perSecond: number): string {
	if (!Number.isFinite(perSecond) || perSecond < 0) return '–';
	return perSecond >= 100
		? perSecond.toFixed(0)
		: perSecond >= 10
			? perSecond.toFixed(1)
			: perSecond.toFixed(2);
}
