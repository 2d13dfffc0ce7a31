/**
 * Python's `json.loads` (the C scanner) in TypeScript: the same accepted language (NaN, Infinity)
 * and the same error messages and positions, which `sanitizeAndParseJson` repairs by. Pure.
 */

/** A decode error as Python raises it: `msg` and the index `pos` where it happened. */
export class PythonJsonError extends Error {
	override name = 'PythonJsonError';
	constructor(
		readonly msg: string,
		readonly pos: number,
	) {
		super(`${msg}: char ${pos}`);
	}
}

/** A JSON number written with a fraction or exponent (Python `float`), kept apart from ints. */
export class PythonFloat {
	constructor(readonly value: number) {}
}

export interface PythonJsonOptions {
	/** Return floats as `PythonFloat` (so `3.0` and `3` differ, as Python's types do). */
	readonly keepFloats?: boolean;
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const NUMBER = /^(-?(?:0|[1-9]\d*))(\.\d+)?([eE][-+]?\d+)?/;

class StopScan {
	constructor(readonly pos: number) {}
}

/** `json.loads(text)`: throws PythonJsonError with Python's message and position. */
export function parsePythonJson(text: string, options: PythonJsonOptions = {}): unknown {
	const parser = new Parser(text, options.keepFloats === true);
	const start = parser.skipWhitespace(0);
	let value: unknown;
	let end: number;
	try {
		[value, end] = parser.scan(start);
	} catch (stop) {
		if (stop instanceof StopScan) throw new PythonJsonError('Expecting value', stop.pos);
		throw stop;
	}
	end = parser.skipWhitespace(end);
	if (end !== text.length) throw new PythonJsonError('Extra data', end);
	return value;
}

class Parser {
	constructor(
		private readonly s: string,
		private readonly keepFloats: boolean,
	) {}

	skipWhitespace(index: number): number {
		let i = index;
		while (i < this.s.length && WHITESPACE.has(this.s[i]!)) i++;
		return i;
	}

	scan(index: number): [unknown, number] {
		const s = this.s;
		if (index >= s.length) throw new StopScan(index);
		const char = s[index];
		if (char === '"') return this.string(index + 1);
		if (char === '{') return this.object(index + 1);
		if (char === '[') return this.array(index + 1);
		if (char === 'n' && s.startsWith('null', index)) return [null, index + 4];
		if (char === 't' && s.startsWith('true', index)) return [true, index + 4];
		if (char === 'f' && s.startsWith('false', index)) return [false, index + 5];
		const number = NUMBER.exec(s.slice(index, index + 400));
		if (number) {
			const [whole, , fraction, exponent] = number;
			const value = Number(whole);
			const isFloat = fraction !== undefined || exponent !== undefined;
			return [isFloat && this.keepFloats ? new PythonFloat(value) : value, index + whole.length];
		}
		if (char === 'N' && s.startsWith('NaN', index)) return [Number.NaN, index + 3];
		if (char === 'I' && s.startsWith('Infinity', index))
			return [Number.POSITIVE_INFINITY, index + 8];
		if (char === '-' && s.startsWith('-Infinity', index))
			return [Number.NEGATIVE_INFINITY, index + 9];
		throw new StopScan(index);
	}

	private string(index: number): [string, number] {
		const s = this.s;
		const begin = index - 1;
		let out = '';
		let i = index;
		for (;;) {
			if (i >= s.length) throw new PythonJsonError('Unterminated string starting at', begin);
			const char = s[i]!;
			if (char === '"') return [out, i + 1];
			if (char === '\\') {
				const next = s[i + 1];
				if (next === undefined) throw new PythonJsonError('Unterminated string starting at', begin);
				const simple: Record<string, string> = {
					'"': '"',
					'\\': '\\',
					'/': '/',
					b: '\b',
					f: '\f',
					n: '\n',
					r: '\r',
					t: '\t',
				};
				if (next in simple) {
					out += simple[next];
					i += 2;
					continue;
				}
				if (next === 'u') {
					const hex = s.slice(i + 2, i + 6);
					if (!/^[0-9a-fA-F]{4}$/.test(hex))
						throw new PythonJsonError('Invalid \\uXXXX escape', i + 1);
					out += String.fromCharCode(parseInt(hex, 16));
					i += 6;
					continue;
				}
				throw new PythonJsonError('Invalid \\escape', i);
			}
			if (char.charCodeAt(0) < 0x20) throw new PythonJsonError('Invalid control character at', i);
			out += char;
			i++;
		}
	}

	private object(index: number): [Record<string, unknown>, number] {
		const s = this.s;
		const result: Record<string, unknown> = {};
		let i = this.skipWhitespace(index);
		if (s[i] === '}') return [result, i + 1];
		for (;;) {
			if (s[i] !== '"') {
				throw new PythonJsonError('Expecting property name enclosed in double quotes', i);
			}
			const [key, afterKey] = this.string(i + 1);
			i = this.skipWhitespace(afterKey);
			if (s[i] !== ':') throw new PythonJsonError("Expecting ':' delimiter", i);
			i = this.skipWhitespace(i + 1);
			let value: unknown;
			try {
				[value, i] = this.scan(i);
			} catch (stop) {
				if (stop instanceof StopScan) throw new PythonJsonError('Expecting value', stop.pos);
				throw stop;
			}
			Object.defineProperty(result, key, {
				value,
				enumerable: true,
				writable: true,
				configurable: true,
			});
			i = this.skipWhitespace(i);
			if (s[i] === '}') return [result, i + 1];
			if (s[i] !== ',') throw new PythonJsonError("Expecting ',' delimiter", i);
			i = this.skipWhitespace(i + 1);
		}
	}

	private array(index: number): [unknown[], number] {
		const s = this.s;
		const result: unknown[] = [];
		let i = this.skipWhitespace(index);
		if (s[i] === ']') return [result, i + 1];
		for (;;) {
			let value: unknown;
			try {
				[value, i] = this.scan(i);
			} catch (stop) {
				if (stop instanceof StopScan) throw new PythonJsonError('Expecting value', stop.pos);
				throw stop;
			}
			result.push(value);
			i = this.skipWhitespace(i);
			if (s[i] === ']') return [result, i + 1];
			if (s[i] !== ',') throw new PythonJsonError("Expecting ',' delimiter", i);
			i = this.skipWhitespace(i + 1);
		}
	}
}
