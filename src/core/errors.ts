/**
 * Named errors of the core. Each message says what is wrong and how to fix it; each carries the
 * location it knows (JSON pointer, formula column, sentence/token, file line). Errors cross the
 * worker boundary as `{ name, message }` and are rebuilt by name.
 */
/** One problem found in a suite (or in a formula inside it), located and with a fix hint. */
export interface Diagnostic {
	readonly severity: 'error' | 'warning';
	/** Stable kebab-case identifier, e.g. `region-number-mismatch`, for tests and docs. */
	readonly code: string;
	/** What is wrong, in one sentence. */
	readonly message: string;
	/** How to fix it, in one sentence. */
	readonly hint: string;
	/** RFC 6901 JSON pointer to the offending value, e.g. `/items/3/conditions/1/regions/2/content`. */
	readonly pointer: string;
	/** 1-based line and column of that value in the JSON text, where the text is known. */
	readonly line?: number;
	readonly column?: number;
	/** 1-based column inside the formula string, for formula problems. */
	readonly formulaColumn?: number;
}

/**
 * What a failure means to the person who ran it: `input` (a file, a flag or a definition must
 * change; the CLI exits 2) or `run` (the run itself failed: endpoint, model, storage, I/O; exit 1).
 */
export type FailureKind = 'input' | 'run';

export class BenchtopError extends Error {
	override name = 'BenchtopError';
	/** Bad input unless a subclass says the run failed. */
	readonly failureKind: FailureKind = 'input';
}

/** A suite that cannot be used. `diagnostics` holds every located error (and the warnings). */
export class SuiteValidationError extends BenchtopError {
	override name = 'SuiteValidationError';
	constructor(
		message: string,
		readonly diagnostics: readonly Diagnostic[],
	) {
		super(message);
	}
}

/** A formula that does not parse. `column` is 1-based within the formula string. */
export class FormulaSyntaxError extends BenchtopError {
	override name = 'FormulaSyntaxError';
	constructor(
		message: string,
		readonly column: number,
	) {
		super(message);
	}
}

/** A formula that parses but cannot be evaluated (missing condition or region value). */
export class FormulaEvaluationError extends BenchtopError {
	override name = 'FormulaEvaluationError';
	constructor(
		message: string,
		readonly column: number,
	) {
		super(message);
	}
}

/** Tokens that cannot be matched to the regions of a sentence. Never a partial result. */
export class AlignmentError extends BenchtopError {
	override name = 'AlignmentError';
	constructor(
		message: string,
		readonly location: { readonly sentenceIndex?: number; readonly tokenIndex?: number },
	) {
		super(message);
	}
}

/** A malformed input file (TSV, text). `line`/`column` are 1-based. */
export class InputFormatError extends BenchtopError {
	override name = 'InputFormatError';
	constructor(
		message: string,
		readonly location: {
			readonly source?: string;
			readonly line?: number;
			readonly column?: number;
		},
	) {
		super(message);
	}
}

/**
 * Token character offsets that cannot be reconstructed: the tokens do not reassemble the text.
 * `tokenIndex` is the first token that does not fit, `charIndex` the UTF-16 offset in the text
 * where it should have started. Never accompanied by partial offsets.
 */
export class TokenOffsetError extends BenchtopError {
	override name = 'TokenOffsetError';
	constructor(
		message: string,
		readonly location: { readonly tokenIndex?: number; readonly charIndex?: number },
	) {
		super(message);
	}
}

/** A text whose model input (special tokens included) is longer than the model's positions. */
export class SequenceLengthError extends BenchtopError {
	override name = 'SequenceLengthError';
	constructor(
		message: string,
		readonly textIndex: number,
		readonly tokenCount: number,
		readonly maxPositions: number,
	) {
		super(message);
	}
}

/** Why a share link cannot be made or opened; `kind` says which case, the message what to do. */
export type ShareLinkErrorKind =
	| 'not-a-share-link'
	| 'too-large'
	| 'newer-version'
	| 'truncated'
	| 'tampered'
	| 'malformed'
	| 'invalid-payload';

/** A share link that cannot be made (`too-large`, `invalid-payload`) or opened (the others). */
export class ShareLinkError extends BenchtopError {
	override name = 'ShareLinkError';
	constructor(
		readonly kind: ShareLinkErrorKind,
		message: string,
	) {
		super(message);
	}
}
