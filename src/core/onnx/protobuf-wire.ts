/**
 * The protobuf wire format, just enough to walk and splice ONNX messages without decoding them:
 * field iteration over a byte range and encoders for the few field kinds we write. Pure.
 */
import { decodeUtf8, encodeUtf8 } from '../formats/utf8';

export const WIRE_VARINT = 0;
export const WIRE_I64 = 1;
export const WIRE_LEN = 2;
export const WIRE_I32 = 5;

/** One field of a message: its number, wire type and where it lies in the buffer. */
export interface WireField {
	readonly field: number;
	readonly wireType: number;
	/** Offset of the tag (the whole field is `bytes[start, end)`). */
	readonly start: number;
	readonly end: number;
	/** LEN fields: the payload is `bytes[valueStart, valueEnd)`. Other kinds: the value bytes. */
	readonly valueStart: number;
	readonly valueEnd: number;
	/** VARINT fields: the value (exact below 2^53). */
	readonly varint: number;
}

/** Reads a varint at `offset`; returns the value (exact below 2^53) and the next offset. */
export function readVarint(bytes: Uint8Array, offset: number): [value: number, next: number] {
	let value = 0;
	let scale = 1;
	let position = offset;
	for (;;) {
		if (position >= bytes.length) throw new RangeError(`Truncated varint at byte ${offset}.`);
		const byte = bytes[position++] ?? 0;
		value += (byte & 0x7f) * scale;
		if ((byte & 0x80) === 0) return [value, position];
		scale *= 128;
		if (position - offset > 10) throw new RangeError(`Varint longer than 10 bytes at ${offset}.`);
	}
}

/** The fields of the message in `bytes[start, end)`, in order; throws on malformed input. */
export function readFields(bytes: Uint8Array, start = 0, end = bytes.length): WireField[] {
	const fields: WireField[] = [];
	let position = start;
	while (position < end) {
		const fieldStart = position;
		const [tag, afterTag] = readVarint(bytes, position);
		const field = Math.floor(tag / 8);
		const wireType = tag % 8;
		let valueStart = afterTag;
		let valueEnd: number;
		let varint = 0;
		switch (wireType) {
			case WIRE_VARINT: {
				const [value, next] = readVarint(bytes, afterTag);
				varint = value;
				valueEnd = next;
				break;
			}
			case WIRE_I64:
				valueEnd = afterTag + 8;
				break;
			case WIRE_I32:
				valueEnd = afterTag + 4;
				break;
			case WIRE_LEN: {
				const [length, next] = readVarint(bytes, afterTag);
				valueStart = next;
				valueEnd = next + length;
				break;
			}
			default:
				throw new RangeError(`Unsupported wire type ${wireType} at byte ${fieldStart}.`);
		}
		if (valueEnd > end)
			throw new RangeError(`Field ${field} at byte ${fieldStart} overruns its message.`);
		fields.push({
			field,
			wireType,
			start: fieldStart,
			end: valueEnd,
			valueStart,
			valueEnd,
			varint,
		});
		position = valueEnd;
	}
	return fields;
}

/** The UTF-8 string payload of a LEN field. */
export function readString(bytes: Uint8Array, field: WireField): string {
	return decodeUtf8(bytes.subarray(field.valueStart, field.valueEnd));
}

/** Varint bytes of a non-negative integer below 2^53, or of a negative int64 (10 bytes). */
export function encodeVarint(value: number): Uint8Array {
	if (!Number.isSafeInteger(value)) throw new RangeError(`Not a safe integer: ${value}`);
	const out: number[] = [];
	let rest = value < 0 ? BigInt.asUintN(64, BigInt(value)) : BigInt(value);
	do {
		let byte = Number(rest & 0x7fn);
		rest >>= 7n;
		if (rest !== 0n) byte |= 0x80;
		out.push(byte);
	} while (rest !== 0n);
	return Uint8Array.from(out);
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
	let length = 0;
	for (const part of parts) length += part.length;
	const out = new Uint8Array(length);
	let offset = 0;
	for (const part of parts) {
		out.set(part, offset);
		offset += part.length;
	}
	return out;
}

function encodeTag(field: number, wireType: number): Uint8Array {
	return encodeVarint(field * 8 + wireType);
}

/** A VARINT field. */
export function encodeVarintField(field: number, value: number): Uint8Array {
	return concatBytes([encodeTag(field, WIRE_VARINT), encodeVarint(value)]);
}

/** A LEN field holding `payload` (bytes, an embedded message, or packed values). */
export function encodeBytesField(field: number, payload: Uint8Array): Uint8Array {
	return concatBytes([encodeTag(field, WIRE_LEN), encodeVarint(payload.length), payload]);
}

/** A LEN field holding a UTF-8 string. */
export function encodeStringField(field: number, value: string): Uint8Array {
	return encodeBytesField(field, encodeUtf8(value));
}

/** An embedded message made of already-encoded fields. */
export function encodeMessageField(field: number, parts: readonly Uint8Array[]): Uint8Array {
	return encodeBytesField(field, concatBytes(parts));
}
