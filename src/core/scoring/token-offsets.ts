/**
 * Token → character offsets ([start, end) in UTF-16 code units) for tokenizers that give none:
 * byte-level BPE, SentencePiece with byte fallback, and incremental decoding. Pure: the tokenizer
 * comes in as data (token strings, ids, added tokens) or a `decode` callback, never as an import.
 */
import { TokenOffsetError } from '../errors';
import { encodeUtf8 } from '../formats/utf8';

/** How offsets are reconstructed for a tokenizer (see `detectTokenizerKind`). */
export type TokenizerKind = 'byte-level-bpe' | 'sentencepiece' | 'generic';

/** Unicode normalization a tokenizer applies before splitting (Qwen2: NFC). */
export type NormalizationForm = 'NFC' | 'NFD' | 'NFKC' | 'NFKD';

/** An entry of tokenizer.json `added_tokens`: matched as literal text, never byte-mapped. */
export interface AddedToken {
	readonly id: number;
	readonly content: string;
	readonly special: boolean;
}

/**
 * Where a token sits in the text: [start, end) in UTF-16 code units (JS string indices).
 * - A token holding part of a multi-byte character gets that whole character: its start is the
 *   start of the character holding its first byte and its end the end of the character holding
 *   its last byte. Tokens that share a split character therefore overlap (`é` as `Ã`+`©`: both
 *   [k, k+1)); the first of them owns it, so start offsets are right for region assignment.
 * - A special token that is not text of the sentence (BOS, EOS, other added special tokens) is
 *   zero-width at the current position (BOS at 0, EOS at text.length) with `special: true`.
 * - A dummy-prefix space that has no source character (SentencePiece `▁Hello` for `Hello`) is
 *   not counted: `▁Hello` is [0, 5), a lone `▁` is zero-width at 0 (non-special).
 */
export interface TokenSpan {
	readonly start: number;
	readonly end: number;
	readonly special: boolean;
}

export interface TokenOffsetsInput {
	/** The text exactly as it was tokenized. */
	readonly text: string;
	readonly kind: TokenizerKind;
	/** Vocabulary strings (`Ġcat`, `▁cat`, `<0xE2>`, `<|endoftext|>`), one per token.
	 * Required for `byte-level-bpe` and `sentencepiece`. */
	readonly tokens?: readonly string[];
	/** Token ids, one per token. Required for `generic`; used to recognise added tokens. */
	readonly ids?: readonly number[];
	/** tokenizer.json `added_tokens` (see `readTokenizerFacts`). Without them only the literal
	 * text of a token can tell an added token apart. */
	readonly addedTokens?: readonly AddedToken[];
	/** The tokenizer's Unicode normalizer; offsets are mapped back to the original text. */
	readonly normalization?: NormalizationForm;
	/**
	 * Decodes ids to text with special tokens skipped and `clean_up_tokenization_spaces` off.
	 * Required for `generic`. When given with another kind, it is the fallback if that kind's
	 * reconstruction fails (the generic result is verified just the same).
	 */
	readonly decode?: (ids: readonly number[]) => string;
}

/**
 * Character offsets of every token of `input.text`. The spans are verified to reassemble the
 * text (`verifySpansReassemble`); when they cannot, throws `TokenOffsetError` naming the first
 * token that does not fit. Never returns partial or approximate offsets.
 */
export function computeTokenOffsets(input: TokenOffsetsInput): TokenSpan[] {
	const normalized =
		input.normalization === undefined ? input.text : input.text.normalize(input.normalization);
	const spansOf = (kind: TokenizerKind): TokenSpan[] => {
		const spans =
			kind === 'generic'
				? genericSpans(normalized, input)
				: byteAlignedSpans(normalized, input, kind);
		const mapped =
			normalized === input.text
				? spans
				: mapSpansToOriginal(input.text, input.normalization, spans);
		const check = verifySpansReassemble(input.text, mapped);
		if (!check.ok) {
			throw new TokenOffsetError(`Token offsets do not reassemble the text: ${check.reason}`, {
				tokenIndex: check.tokenIndex,
				charIndex: check.charIndex,
			});
		}
		return mapped;
	};
	if (input.kind === 'generic' || input.decode === undefined) return spansOf(input.kind);
	try {
		return spansOf(input.kind);
	} catch (error) {
		if (!(error instanceof TokenOffsetError)) throw error;
		try {
			return spansOf('generic');
		} catch (fallbackError) {
			const reason = fallbackError instanceof Error ? fallbackError.message : String(fallbackError);
			throw new TokenOffsetError(
				`${error.message} (incremental decoding failed too: ${reason})`,
				error.location,
			);
		}
	}
}

/** The outcome of `verifySpansReassemble`. */
export type ReassemblyCheck =
	| { readonly ok: true }
	| {
			readonly ok: false;
			readonly tokenIndex: number;
			readonly charIndex: number;
			readonly reason: string;
	  };

/**
 * Checks that the non-special spans, in order, tile the text: each starts where the text covered
 * so far ends, or inside the last covered character it shares with the previous token (a split
 * multi-byte character), ends after it starts, and together they cover [0, text.length).
 * Special spans must be zero-width at the covered position.
 */
export function verifySpansReassemble(text: string, spans: readonly TokenSpan[]): ReassemblyCheck {
	let covered = 0;
	let previousStart = 0;
	for (let i = 0; i < spans.length; i++) {
		const span = spans[i];
		if (span === undefined) continue;
		const { start, end } = span;
		const fail = (reason: string): ReassemblyCheck => ({
			ok: false,
			tokenIndex: i,
			charIndex: covered,
			reason: `token ${i} [${start}, ${end}) ${reason} (text covered up to ${covered} of ${text.length}: ${quoteExcerpt(text, covered)})`,
		});
		if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > text.length) {
			return fail('lies outside the text');
		}
		if (end < start) return fail('ends before it starts');
		if (span.special) {
			if (start !== end) return fail('is special but not zero-width');
			continue;
		}
		if (start === end) {
			if (start !== covered) return fail('is zero-width away from the covered position');
			continue;
		}
		if (start > covered) return fail('leaves a gap');
		if (start < covered && start < previousStart) return fail('starts before the previous token');
		if (start < covered) {
			if (end < covered) return fail('lies inside text already covered');
			if ([...text.slice(start, covered)].length !== 1) {
				return fail('overlaps the previous token by more than one character');
			}
		}
		previousStart = start;
		covered = Math.max(covered, end);
	}
	if (covered !== text.length) {
		return {
			ok: false,
			tokenIndex: spans.length,
			charIndex: covered,
			reason: `the tokens cover ${covered} of ${text.length} characters; missing ${quoteExcerpt(text, covered)}`,
		};
	}
	return { ok: true };
}

/** What the offsets need to know of a tokenizer, read from its tokenizer.json. */
export interface TokenizerFacts {
	readonly kind: TokenizerKind;
	readonly addedTokens: readonly AddedToken[];
	/** Set when the normalizer is a Unicode normal form (SentencePiece `Precompiled` → NFKC). */
	readonly normalization?: NormalizationForm;
}

/**
 * Which offset reconstruction fits a tokenizer.json: `pre_tokenizer` or `decoder` ByteLevel →
 * `byte-level-bpe`; Metaspace, a `▁` replacement or `model.byte_fallback` → `sentencepiece`;
 * anything else (WordPiece, unknown) → `generic`. Unparseable input → `generic`.
 */
export function detectTokenizerKind(tokenizerJson: unknown): TokenizerKind {
	if (!isRecord(tokenizerJson)) return 'generic';
	const parts = [tokenizerJson['pre_tokenizer'], tokenizerJson['decoder']];
	if (parts.some((part) => componentTypes(part).includes('ByteLevel'))) return 'byte-level-bpe';
	if (parts.some((part) => componentTypes(part).includes('Metaspace'))) return 'sentencepiece';
	const model = tokenizerJson['model'];
	if (isRecord(model) && model['byte_fallback'] === true) return 'sentencepiece';
	const replacesMetaspace = [tokenizerJson['normalizer'], tokenizerJson['decoder']].some((part) =>
		componentsOf(part).some(
			(c) => c['type'] === 'Replace' && JSON.stringify(c).includes(METASPACE),
		),
	);
	return replacesMetaspace ? 'sentencepiece' : 'generic';
}

/** Kind, added tokens and Unicode normalization of a tokenizer.json (unknown input tolerated). */
export function readTokenizerFacts(tokenizerJson: unknown): TokenizerFacts {
	const kind = detectTokenizerKind(tokenizerJson);
	const addedTokens: AddedToken[] = [];
	let normalization: NormalizationForm | undefined;
	if (isRecord(tokenizerJson)) {
		const added = tokenizerJson['added_tokens'];
		if (Array.isArray(added)) {
			for (const entry of added as unknown[]) {
				if (!isRecord(entry)) continue;
				const { id, content, special } = entry;
				if (typeof id === 'number' && typeof content === 'string') {
					addedTokens.push({ id, content, special: special === true });
				}
			}
		}
		for (const type of componentTypes(tokenizerJson['normalizer'])) {
			if (type === 'NFC' || type === 'NFD' || type === 'NFKC' || type === 'NFKD') {
				normalization = type;
			} else if (type === 'Precompiled') {
				normalization = 'NFKC';
			}
		}
	}
	return normalization === undefined ? { kind, addedTokens } : { kind, addedTokens, normalization };
}

/**
 * The bytes a byte-level BPE vocabulary string stands for (GPT-2 `bytes_to_unicode`, inverted):
 * `Ġcat` → 20 63 61 74. Returns null when a character is not in the 256-entry table (an added
 * token such as `<|endoftext|>` is literal text and must be treated as such by the caller).
 */
export function decodeByteLevelToken(token: string): Uint8Array | null {
	const table = byteLevelDecoder();
	const bytes = new Uint8Array(token.length);
	for (let i = 0; i < token.length; i++) {
		const byte = table[token.charCodeAt(i)];
		if (byte === undefined || byte < 0) return null;
		bytes[i] = byte;
	}
	return bytes;
}

/** The character GPT-2's `bytes_to_unicode` maps a byte (0–255) to. */
export function encodeByteLevelByte(byte: number): string {
	return String.fromCharCode(byteLevelEncoder()[byte] ?? 0);
}

// ----------------------------------------------------------------------------- byte alignment

const METASPACE = '\u2581';
/** A SentencePiece `▁`: a space in the text, a literal `▁`, or a dummy prefix with no source. */
const METASPACE_UNIT = -1;
const UTF8_METASPACE = [0xe2, 0x96, 0x81];
const BYTE_PIECE = /^<0x([0-9A-Fa-f]{2})>$/;

/** Bytes (or METASPACE_UNIT) a token stands for; null when the token is not byte-mappable. */
function tokenUnits(token: string, kind: TokenizerKind): number[] | null {
	if (kind === 'byte-level-bpe') {
		const bytes = decodeByteLevelToken(token);
		return bytes === null ? null : Array.from(bytes);
	}
	const bytePiece = BYTE_PIECE.exec(token);
	if (bytePiece?.[1] !== undefined) return [Number.parseInt(bytePiece[1], 16)];
	const units: number[] = [];
	for (const char of token) {
		if (char === METASPACE) units.push(METASPACE_UNIT);
		else units.push(...encodeUtf8(char));
	}
	return units;
}

/** The text as UTF-8 bytes, with the UTF-16 span of each byte. */
interface ByteText {
	readonly text: string;
	readonly bytes: Uint8Array;
	readonly charOfByte: { readonly starts: Int32Array; readonly ends: Int32Array };
}

/** The UTF-16 index where byte `byteIndex` starts (the text's length at or past its end). */
function positionAt(byteText: ByteText, byteIndex: number): number {
	const { text, bytes, charOfByte } = byteText;
	return byteIndex < bytes.length ? (charOfByte.starts[byteIndex] ?? text.length) : text.length;
}

/**
 * An added token at byte `cursor`: its literal text where the text has it, else (a special token)
 * an empty span; undefined when a non-special added token's text is not there.
 */
function addedTokenSpan(
	added: AddedToken,
	byteText: ByteText,
	cursor: number,
): { span: TokenSpan; cursor: number } | undefined {
	const { bytes, charOfByte, text } = byteText;
	const literal = encodeUtf8(added.content);
	if (literal.length > 0 && startsWithBytes(bytes, cursor, literal)) {
		return {
			span: {
				start: positionAt(byteText, cursor),
				end: charOfByte.ends[cursor + literal.length - 1] ?? text.length,
				special: false,
			},
			cursor: cursor + literal.length,
		};
	}
	if (!added.special) return undefined;
	const position = positionAt(byteText, cursor);
	return { span: { start: position, end: position, special: true }, cursor };
}

/**
 * Matches a token's units against the text's bytes from `cursor`: the new cursor and the first
 * byte consumed (-1 when none, as for a lone dummy prefix space), or what went wrong.
 */
function consumeUnits(
	units: readonly number[],
	bytes: Uint8Array,
	cursor: number,
	sectionStart: boolean,
): { cursor: number; consumedFirst: number } | { problem: string } {
	let consumedFirst = -1;
	for (let u = 0; u < units.length; u++) {
		const unit = units[u] ?? 0;
		const atSectionStart = sectionStart && u === 0;
		const isSpace = unit === 0x20 || unit === METASPACE_UNIT;
		if (unit === METASPACE_UNIT && startsWithBytes(bytes, cursor, UTF8_METASPACE)) {
			if (consumedFirst < 0) consumedFirst = cursor;
			cursor += UTF8_METASPACE.length;
		} else if (bytes[cursor] === (unit === METASPACE_UNIT ? 0x20 : unit)) {
			if (consumedFirst < 0) consumedFirst = cursor;
			cursor += 1;
		} else if (isSpace && atSectionStart) {
			// A dummy prefix space (Metaspace prepend, add_prefix_space): no source character.
		} else {
			return {
				problem:
					cursor >= bytes.length ? 'runs past the end of the text' : 'does not match the text',
			};
		}
	}
	return { cursor, consumedFirst };
}

/** Byte-level BPE and SentencePiece: align each token's bytes with the text's UTF-8 bytes. */
function byteAlignedSpans(
	text: string,
	input: TokenOffsetsInput,
	kind: TokenizerKind,
): TokenSpan[] {
	const tokens = input.tokens;
	if (tokens === undefined) {
		throw new TokenOffsetError(`Offsets for ${kind} tokenizers need the token strings.`, {});
	}
	if (input.ids !== undefined && input.ids.length !== tokens.length) {
		throw new TokenOffsetError(
			`Got ${tokens.length} token strings but ${input.ids.length} ids; pass one of each per token.`,
			{},
		);
	}
	const bytes = encodeUtf8(text);
	const byteText: ByteText = { text, bytes, charOfByte: utf16SpanOfEachByte(text, bytes.length) };
	const addedById = new Map((input.addedTokens ?? []).map((t) => [t.id, t]));
	const addedByContent = new Map((input.addedTokens ?? []).map((t) => [t.content, t]));

	const spans: TokenSpan[] = [];
	let cursor = 0;
	let sectionStart = true;
	for (let i = 0; i < tokens.length; i++) {
		const token = tokens[i] ?? '';
		const id = input.ids?.[i];
		const added = id !== undefined ? addedById.get(id) : addedByContent.get(token);
		const tokenStart = cursor;
		const mismatch = (what: string): TokenOffsetError =>
			new TokenOffsetError(
				`token ${i} (${JSON.stringify(token)}) ${what} at character ${positionAt(byteText, tokenStart)} (${quoteExcerpt(text, positionAt(byteText, tokenStart))}).`,
				{ tokenIndex: i, charIndex: positionAt(byteText, tokenStart) },
			);
		if (added !== undefined) {
			const matched = addedTokenSpan(added, byteText, cursor);
			if (matched === undefined) {
				throw mismatch('is an added token whose text does not match the text');
			}
			spans.push(matched.span);
			cursor = matched.cursor;
			sectionStart = true;
			continue;
		}
		const units = tokenUnits(token, kind);
		if (units === null) throw mismatch('is not a byte-level vocabulary string');
		const consumed = consumeUnits(units, bytes, cursor, sectionStart);
		if ('problem' in consumed) throw mismatch(consumed.problem);
		cursor = consumed.cursor;
		if (consumed.consumedFirst < 0) {
			const position = positionAt(byteText, cursor);
			spans.push({ start: position, end: position, special: false });
		} else {
			spans.push({
				start: positionAt(byteText, consumed.consumedFirst),
				end: byteText.charOfByte.ends[cursor - 1] ?? text.length,
				special: false,
			});
		}
		sectionStart = false;
	}
	if (cursor !== bytes.length) {
		const position = positionAt(byteText, cursor);
		throw new TokenOffsetError(
			`the tokens cover ${position} of ${text.length} characters; not covered: ${quoteExcerpt(text, position)}.`,
			{ tokenIndex: tokens.length, charIndex: position },
		);
	}
	return spans;
}

// ----------------------------------------------------------------------------- generic

/**
 * Incremental decoding: token i spans from the end of what the first i tokens decode to, to the
 * end of what the first i+1 decode to. A prefix that ends inside a multi-byte character decodes
 * to U+FFFD; the token then ends at the end of that character of the text.
 */
function genericSpans(text: string, input: TokenOffsetsInput): TokenSpan[] {
	const { ids, decode } = input;
	if (ids === undefined || decode === undefined) {
		throw new TokenOffsetError('Generic offsets need the token ids and a decode callback.', {});
	}
	const specialIds = new Set((input.addedTokens ?? []).filter((t) => t.special).map((t) => t.id));
	const spans: TokenSpan[] = [];
	const prefix: number[] = [];
	let committed = 0;
	let leadingSpace: LeadingSpaceMode | undefined;
	for (let i = 0; i < ids.length; i++) {
		const id = ids[i] ?? -1;
		if (specialIds.has(id)) {
			spans.push({ start: committed, end: committed, special: true });
			continue;
		}
		prefix.push(id);
		const raw = decode(prefix);
		const modes = leadingSpace === undefined ? LEADING_SPACE_MODES : [leadingSpace];
		let decoded = raw;
		let complete: string | undefined;
		// The first mode that explains a non-empty prefix is kept for the rest of the text.
		for (const mode of modes) {
			const candidate = applyLeadingSpaceMode(mode, raw, text);
			const match = longestMatchingPrefix(candidate, text);
			if (match === undefined) continue;
			if (complete === undefined || (complete.length === 0 && match.length > 0)) {
				decoded = candidate;
				complete = match;
			}
			if (match.length > 0) {
				leadingSpace = mode;
				break;
			}
		}
		if (complete === undefined || complete.length < committed) {
			throw new TokenOffsetError(
				`token ${i} (id ${id}): the first ${i + 1} tokens decode to ${JSON.stringify(raw.slice(-40))}, which is not how the text continues at character ${committed} (${quoteExcerpt(text, committed)}).`,
				{ tokenIndex: i, charIndex: committed },
			);
		}
		const partial = complete.length < decoded.length;
		const end = partial
			? complete.length + codePointLength(text, complete.length)
			: complete.length;
		if (partial && complete.length >= text.length) {
			throw new TokenOffsetError(
				`token ${i} (id ${id}) ends inside a character that the text does not have.`,
				{ tokenIndex: i, charIndex: complete.length },
			);
		}
		spans.push({ start: committed, end: Math.max(end, committed), special: false });
		committed = complete.length;
	}
	return spans;
}

/**
 * How decoded text relates to the text at its start: as is; with a dummy-prefix space the text
 * lacks (RoBERTa-style `add_prefix_space`); or without a real leading space that the decoder
 * strips (Llama's `Strip` decoder after a `▁` that stood for the text's own space).
 */
type LeadingSpaceMode = 'as-is' | 'drop-space' | 'add-space';
const LEADING_SPACE_MODES: readonly LeadingSpaceMode[] = ['as-is', 'drop-space', 'add-space'];

function applyLeadingSpaceMode(mode: LeadingSpaceMode, decoded: string, text: string): string {
	if (mode === 'drop-space') return decoded.startsWith(' ') ? decoded.slice(1) : decoded;
	if (mode === 'add-space') return text.startsWith(' ') ? ` ${decoded}` : decoded;
	return decoded;
}

/** `decoded` without the U+FFFD of a trailing partial character, if the text starts with it. */
function longestMatchingPrefix(decoded: string, text: string): string | undefined {
	let complete = decoded;
	while (!text.startsWith(complete) && complete.endsWith('\uFFFD'))
		complete = complete.slice(0, -1);
	return text.startsWith(complete) ? complete : undefined;
}

// ----------------------------------------------------------------------------- normalization

/**
 * Maps spans computed on `text.normalize(form)` back to `text`. An original boundary k is usable
 * when normalizing the two sides separately gives the whole normalized text; a span's start maps
 * to the last usable boundary at or before it, its end to the first at or after it.
 */
function mapSpansToOriginal(
	text: string,
	form: NormalizationForm | undefined,
	spans: readonly TokenSpan[],
): TokenSpan[] {
	if (form === undefined) return [...spans];
	const whole = text.normalize(form);
	const boundaries: { original: number; normalized: number }[] = [];
	for (let k = 0; k <= text.length; k++) {
		if (k > 0 && k < text.length && isLowSurrogate(text.charCodeAt(k))) continue;
		const left = text.slice(0, k).normalize(form);
		if (left + text.slice(k).normalize(form) === whole) {
			boundaries.push({ original: k, normalized: left.length });
		}
	}
	const startOf = (n: number): number => {
		let best = 0;
		for (const b of boundaries) if (b.normalized <= n) best = b.original;
		return best;
	};
	const endOf = (n: number): number => {
		for (const b of boundaries) if (b.normalized >= n) return b.original;
		return text.length;
	};
	return spans.map((span) => {
		const start = startOf(span.start);
		const end = span.end === span.start ? start : Math.max(start, endOf(span.end));
		return { start, end, special: span.special };
	});
}

// ----------------------------------------------------------------------------- small pieces

let byteLevelDecoderTable: Int16Array | undefined;
let byteLevelEncoderTable: Uint16Array | undefined;

/** GPT-2's `bytes_to_unicode`: printable Latin-1 bytes map to themselves, the rest to 256+n. */
function byteLevelEncoder(): Uint16Array {
	if (byteLevelEncoderTable !== undefined) return byteLevelEncoderTable;
	const table = new Uint16Array(256);
	let next = 256;
	for (let byte = 0; byte < 256; byte++) {
		const printable =
			(byte >= 0x21 && byte <= 0x7e) || (byte >= 0xa1 && byte <= 0xac) || byte >= 0xae;
		table[byte] = printable ? byte : next++;
	}
	byteLevelEncoderTable = table;
	return table;
}

function byteLevelDecoder(): Int16Array {
	if (byteLevelDecoderTable !== undefined) return byteLevelDecoderTable;
	const encoder = byteLevelEncoder();
	const table = new Int16Array(512).fill(-1);
	for (let byte = 0; byte < 256; byte++) table[encoder[byte] ?? 0] = byte;
	byteLevelDecoderTable = table;
	return table;
}

/** For each UTF-8 byte of `text`: the UTF-16 [start, end) of the character it belongs to. */
function utf16SpanOfEachByte(
	text: string,
	byteCount: number,
): { starts: Int32Array; ends: Int32Array } {
	const starts = new Int32Array(byteCount);
	const ends = new Int32Array(byteCount);
	let byte = 0;
	let unit = 0;
	for (const char of text) {
		const width = encodeUtf8(char).length;
		for (let k = 0; k < width; k++) {
			starts[byte + k] = unit;
			ends[byte + k] = unit + char.length;
		}
		byte += width;
		unit += char.length;
	}
	return { starts, ends };
}

function startsWithBytes(bytes: ArrayLike<number>, at: number, prefix: ArrayLike<number>): boolean {
	if (at + prefix.length > bytes.length) return false;
	for (let k = 0; k < prefix.length; k++) if (bytes[at + k] !== prefix[k]) return false;
	return true;
}

function codePointLength(text: string, index: number): number {
	const cp = text.codePointAt(index);
	return cp !== undefined && cp > 0xffff ? 2 : 1;
}

function isLowSurrogate(unit: number): boolean {
	return unit >= 0xdc00 && unit <= 0xdfff;
}

function quoteExcerpt(text: string, at: number): string {
	const excerpt = text.slice(at, at + 20);
	return excerpt.length === 0 ? 'end of text' : JSON.stringify(excerpt);
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A tokenizer.json component and, for `Sequence`s, its parts (`pretokenizers`, `decoders`, …). */
function componentsOf(value: unknown): Record<string, unknown>[] {
	if (!isRecord(value)) return [];
	const nested = ['pretokenizers', 'decoders', 'normalizers', 'processors'].flatMap((key) => {
		const list = value[key];
		return Array.isArray(list) ? (list as unknown[]).flatMap(componentsOf) : [];
	});
	return [value, ...nested];
}

function componentTypes(value: unknown): string[] {
	return componentsOf(value).flatMap((c) => (typeof c['type'] === 'string' ? [c['type']] : []));
}
