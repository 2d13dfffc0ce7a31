import { describe, expect, it } from 'vitest';
import {
	concatBytes,
	encodeMessageField,
	encodeStringField,
	encodeVarint,
	encodeVarintField,
	readFields,
	readString,
	readVarint,
	WIRE_LEN,
	WIRE_VARINT,
} from '../../../src/core/onnx/protobuf-wire';

describe('encodeVarint / readVarint', () => {
	it.each<[number, number[]]>([
		[0, [0x00]],
		[1, [0x01]],
		[127, [0x7f]],
		[128, [0x80, 0x01]],
		[300, [0xac, 0x02]],
		[2 ** 32, [0x80, 0x80, 0x80, 0x80, 0x10]],
		[-1, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]],
	])('%d ↔ %j', (value, bytes) => {
		expect([...encodeVarint(value)]).toEqual(bytes);
		if (value >= 0) expect(readVarint(Uint8Array.from(bytes), 0)).toEqual([value, bytes.length]);
	});

	it('rejects truncated input', () => {
		expect(() => readVarint(Uint8Array.from([0x80]), 0)).toThrow(RangeError);
	});
});

describe('readFields', () => {
	it('walks varint, string and nested message fields with their byte ranges', () => {
		const inner = encodeStringField(1, 'x');
		const bytes = concatBytes([
			encodeVarintField(1, 150),
			encodeStringField(2, 'name'),
			encodeMessageField(3, [inner]),
		]);
		const fields = readFields(bytes);
		expect(fields.map((f) => [f.field, f.wireType])).toEqual([
			[1, WIRE_VARINT],
			[2, WIRE_LEN],
			[3, WIRE_LEN],
		]);
		expect(fields[0]?.varint).toBe(150);
		expect(readString(bytes, fields[1]!)).toBe('name');
		const nested = readFields(bytes, fields[2]!.valueStart, fields[2]!.valueEnd);
		expect(readString(bytes, nested[0]!)).toBe('x');
		expect(fields.at(-1)?.end).toBe(bytes.length);
	});

	it('rejects a field that overruns its message and unknown wire types', () => {
		expect(() => readFields(Uint8Array.from([0x12, 0x05, 0x61]))).toThrow(RangeError);
		expect(() => readFields(Uint8Array.from([0x0b]))).toThrow(/wire type 3/);
	});
});
