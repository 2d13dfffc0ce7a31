import { describe, expect, it } from 'vitest';
import { findStopIndex, safeEmitLength } from '../../../src/core/model/stop-sequences';

describe('findStopIndex', () => {
	it.each([
		{ text: 'a\nb', stops: ['\n'], at: 1 },
		{ text: 'abc###def', stops: ['def', '###'], at: 3 },
		{ text: 'abc', stops: ['x'], at: -1 },
		{ text: 'abc', stops: [''], at: -1 },
		{ text: 'abc', stops: [], at: -1 },
	])('$text with $stops → $at', ({ text, stops, at }) => {
		expect(findStopIndex(text, stops)).toBe(at);
	});
});

describe('safeEmitLength', () => {
	it.each([
		{ text: 'hello', stops: [], safe: 5 },
		{ text: 'hello #', stops: ['###'], safe: 6 },
		{ text: 'hello ##', stops: ['###'], safe: 6 },
		{ text: 'hello\nUs', stops: ['\nUser:'], safe: 5 },
		{ text: 'hello\nX', stops: ['\nUser:'], safe: 7 },
		{ text: 'caf\uFFFD', stops: [], safe: 3 },
	])('$text with $stops → $safe', ({ text, stops, safe }) => {
		expect(safeEmitLength(text, stops)).toBe(safe);
	});
});
