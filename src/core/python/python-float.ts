/**
 * Floats as the reference tools write and read them: Python `repr(float)` (shortest round-trip
 * digits, `nan`, `inf`, `1e-05`) and Python `float(text)`. Pure string work, no locale.
 */

/**
 * Python `repr(x)` of a float64: the shortest digits that round-trip, fixed notation when the
 * decimal exponent is in [-4, 16), else scientific with a sign and at least two exponent
 * digits. `-0.0`, `nan`, `inf`, `-inf` as Python prints them.
 */
export function formatPythonFloat(value: number): string {
	if (Number.isNaN(value)) return 'nan';
	if (value === Number.POSITIVE_INFINITY) return 'inf';
	if (value === Number.NEGATIVE_INFINITY) return '-inf';
	if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
	const sign = value < 0 ? '-' : '';
	// toExponential() without an argument gives the shortest round-trip digits.
	const [mantissa = '', exponentText = '0'] = Math.abs(value).toExponential().split('e');
	const digits = mantissa.replace('.', '');
	const exponent = Number(exponentText);
	if (exponent < -4 || exponent >= 16) {
		const fraction = digits.length > 1 ? `.${digits.slice(1)}` : '';
		const exponentSign = exponent < 0 ? '-' : '+';
		const exponentDigits = String(Math.abs(exponent)).padStart(2, '0');
		return `${sign}${digits[0]}${fraction}e${exponentSign}${exponentDigits}`;
	}
	if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
	const integerPart = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
	const fractionPart = digits.slice(exponent + 1);
	return `${sign}${integerPart}.${fractionPart === '' ? '0' : fractionPart}`;
}

const DECIMAL_FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const SPECIAL_FLOATS = new Map<string, number>([
	['nan', Number.NaN],
	['inf', Number.POSITIVE_INFINITY],
	['infinity', Number.POSITIVE_INFINITY],
]);

/**
 * Python `float(text)` for the decimal forms found in TSV files: `1.5`, `-0.000000`, `.5`, `5.`,
 * `1e-05`, `nan`, `inf`, `-inf`, `Infinity` (any case), surrounding whitespace ignored.
 * Returns `undefined` for anything else (the empty string, `0x10`, `1,5`), never NaN by accident.
 */
export function parsePythonFloat(text: string): number | undefined {
	const trimmed = text.trim();
	const special = SPECIAL_FLOATS.get(trimmed.replace(/^[+-]/, '').toLowerCase());
	if (special !== undefined) return trimmed.startsWith('-') ? -special : special;
	return DECIMAL_FLOAT.test(trimmed) ? Number(trimmed) : undefined;
}
