/**
 * UTF-8 encoding and decoding of strings, the one implementation in the pure core (it has no
 * TextEncoder): used by hashing, the ONNX protobuf writer and the token-offset alignment.
 */

/** UTF-8 bytes of `text`; a lone surrogate becomes U+FFFD (EF BF BD), as TextEncoder does. */
export function encodeUtf8(text: string): Uint8Array {
	const bytes: number[] = [];
	for (const char of text) {
		let code = char.codePointAt(0) ?? 0xfffd;
		if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd;
		if (code < 0x80) bytes.push(code);
		else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 0x3f));
		else if (code < 0x10000) {
			bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
		} else {
			bytes.push(
				0xf0 | (code >> 18),
				0x80 | ((code >> 12) & 0x3f),
				0x80 | ((code >> 6) & 0x3f),
				0x80 | (code & 0x3f),
			);
		}
	}
	return Uint8Array.from(bytes);
}

/** The string of well-formed UTF-8 bytes (a malformed sequence becomes U+FFFD per byte). */
export function decodeUtf8(bytes: Uint8Array): string {
	let text = '';
	let i = 0;
	while (i < bytes.length) {
		const b0 = bytes[i] ?? 0;
		const length = b0 < 0x80 ? 1 : b0 >= 0xf0 ? 4 : b0 >= 0xe0 ? 3 : b0 >= 0xc0 ? 2 : 0;
		let code = length === 1 ? b0 : length === 0 ? -1 : b0 & (0xff >> (length + 1));
		for (let k = 1; k < length && code >= 0; k++) {
			const b = bytes[i + k];
			code = b !== undefined && (b & 0xc0) === 0x80 ? (code << 6) | (b & 0x3f) : -1;
		}
		if (code < 0 || code > 0x10ffff) {
			text += '\uFFFD';
			i += 1;
		} else {
			text += String.fromCodePoint(code);
			i += length;
		}
	}
	return text;
}
