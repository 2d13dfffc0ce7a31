/**
 * Output paths built from untrusted names (dataset names, example ids, eval names): each name
 * becomes one safe path segment (percent-encoded where needed), and a join refuses any segment
 * that could leave its base folder. Pure (no node:path): the CLI also resolves and checks on disk.
 */
import { BenchtopError } from '../errors';
import { encodeUtf8 } from '../formats/utf8';

/** A name or relative path that cannot be made a path inside the output folder. */
export class UnsafePathError extends BenchtopError {
	override name = 'UnsafePathError';
}

/** Longest segment in UTF-8 bytes (the common file-name limit of ext4, APFS and NTFS). */
export const MAX_SEGMENT_BYTES = 255;

/**
 * Characters written as `%XX`: `%` itself (so the encoding is one-to-one), both separators, the
 * characters Windows refuses in names (`:` also makes drive letters and alternate streams), and
 * the C0 and C1 control characters (NUL included).
 */
// eslint-disable-next-line no-control-regex -- control characters are what this must catch
const ENCODED_CHARACTERS = /[%/\\:*?"<>|\u0000-\u001f\u007f-\u009f]/gu;

/** Windows device names, reserved with any extension and in any case (`nul.json`, `Com1`). */
const RESERVED_STEM = /^(con|prn|aux|nul|conin\$|conout\$|(com|lpt)[0-9¹²³])$/iu;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u;

function percentEncode(character: string): string {
	return [...encodeUtf8(character)]
		.map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
		.join('');
}

/**
 * One untrusted name as one path segment. Ordinary names (`Delayed Recall`, `0_0.json`,
 * `Prospective Memory`) come back unchanged; otherwise the offending characters are
 * percent-encoded (UTF-8, upper-case hex): `%`, `/`, `\`, `:`, `*`, `?`, `"`, `<`, `>`, `|`,
 * control characters, trailing dots and spaces (Windows drops them, so `..` is `%2E%2E`), and the
 * first letter of a Windows device name (`NUL.json` is `%4EUL.json`). `decodeURIComponent` gives
 * the name back, and two names never share a segment.
 * @throws UnsafePathError for an empty name, a lone UTF-16 surrogate, or a segment over
 * MAX_SEGMENT_BYTES.
 */
export function safePathSegment(name: string): string {
	if (name === '') throw new UnsafePathError('an empty name cannot name a file or folder');
	if (LONE_SURROGATE.test(name))
		throw new UnsafePathError(`the name ${JSON.stringify(name)} is not valid Unicode text`);
	let segment = name.replace(ENCODED_CHARACTERS, percentEncode);
	const trailing = /[. ]+$/u.exec(segment);
	if (trailing) {
		segment = segment.slice(0, trailing.index) + [...trailing[0]].map(percentEncode).join('');
	}
	const stem = segment.split('.')[0]!.trimEnd();
	if (RESERVED_STEM.test(stem)) segment = percentEncode(segment[0]!) + segment.slice(1);
	if (encodeUtf8(segment).length > MAX_SEGMENT_BYTES) {
		throw new UnsafePathError(
			`the name ${JSON.stringify(name.slice(0, 40))}… is too long for a file name (over ${MAX_SEGMENT_BYTES} bytes)`,
		);
	}
	return segment;
}

/** Characters no safe segment holds (ENCODED_CHARACTERS without `%`). */
// eslint-disable-next-line no-control-regex -- control characters are what this must catch
const UNSAFE_CHARACTERS = /[/\\:*?"<>|\u0000-\u001f\u007f-\u009f]/u;

/**
 * Whether `segment` can be used as one path segment as it is: what safePathSegment returns (or
 * any other name without a separator, drive letter, control character, trailing dot or space,
 * device name or lone surrogate, within MAX_SEGMENT_BYTES). `%` is allowed: it encodes.
 */
export function isSafePathSegment(segment: string): boolean {
	return (
		segment !== '' &&
		!UNSAFE_CHARACTERS.test(segment) &&
		!LONE_SURROGATE.test(segment) &&
		!/[. ]$/u.test(segment) &&
		!RESERVED_STEM.test(segment.split('.')[0]!.trimEnd()) &&
		encodeUtf8(segment).length <= MAX_SEGMENT_BYTES
	);
}

/** A `/`-separated relative path of untrusted names, each made a safe segment. */
export function safeRelativePath(...names: readonly string[]): string {
	if (names.length === 0) throw new UnsafePathError('a path needs at least one name');
	return names.map(safePathSegment).join('/');
}

/**
 * `base/relativePath` with `/` separators, where every segment of `relativePath` must already be
 * safe (see safeRelativePath): no `..`, `.`, empty segment (so no absolute path), backslash,
 * drive letter, control character or device name, so the result cannot leave `base`.
 * @throws UnsafePathError naming the first refused segment.
 */
export function containedPath(base: string, relativePath: string): string {
	const segments = relativePath.split('/');
	for (const segment of segments) {
		if (!isSafePathSegment(segment)) {
			throw new UnsafePathError(
				`refused to write ${JSON.stringify(relativePath)}: the part ${JSON.stringify(segment)} could lead outside the output folder`,
			);
		}
	}
	if (base === '') return segments.join('/');
	return `${base.endsWith('/') ? base : `${base}/`}${segments.join('/')}`;
}
