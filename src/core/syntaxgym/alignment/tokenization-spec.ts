/**
 * What the string alignment must know about a model's tokenizer (lm-zoo model spec:
 * `vocabulary` + `tokenizer`), and the default used when the user gives no spec. Data only.
 */

/** Where a subword tokenizer puts its sentinel: `Ġword`/`▁word` (initial), `##ing` (medial), `wor@@` (final). */
export type SentinelPosition = 'initial' | 'medial' | 'final';

export interface SubwordSentinel {
	/**
	 * Characters stripped from the token before matching, as Python's `str.lstrip(pattern)`
	 * (`rstrip` for `final`): a set of characters, not a literal prefix.
	 */
	readonly pattern: string;
	readonly position: SentinelPosition;
}

export interface TokenizationSpec {
	/** Out-of-vocabulary tokens (lm-zoo `vocabulary.unk_types`), resolved by look-ahead. */
	readonly unkTypes: readonly string[];
	/** Tokens added before the sentence (BOS): go to the current region (lm-zoo `prefix_types`). */
	readonly prefixTypes: readonly string[];
	/** Tokens ending the sentence (EOS): go to the current region and end the walk (`suffix_types`). */
	readonly suffixTypes: readonly string[];
	/** Tokens assigned to no region (`special_types`). */
	readonly specialTypes: readonly string[];
	/** `tokenizer.cased`: when false, region text is lowercased before matching. */
	readonly cased: boolean;
	/** Subword sentinels to strip when a token does not match as written (tried in order). */
	readonly sentinels: readonly SubwordSentinel[];
	/** Moses `@-@`, `@,@`, `@.@` tokens match `-`, `,`, `.` (lm-zoo `tokenizer.behaviors: ["moses"]`). */
	readonly moses: boolean;
	/**
	 * lm-zoo `tokenizer.drop_token_pattern` (a regular expression): a region word that the
	 * pattern deletes entirely is skipped, as the model drops it.
	 */
	readonly dropTokenPattern?: string;
}

/**
 * Used when the user gives no spec: unk `<unk>`/`<UNK>`; BOS `<s>`/`<bos>`; EOS `<eos>`/`</s>`;
 * GPT-2's `<|endoftext|>` is both BOS and EOS (a prefix type is checked first, so a trailing one
 * lands in the last region, as with lm-zoo's Docker GPT-2); sentinels `Ġ`, `▁` (initial) and
 * `##` (medial); Moses splits; cased.
 */
export const DEFAULT_TOKENIZATION_SPEC: TokenizationSpec = {
	unkTypes: ['<unk>', '<UNK>'],
	prefixTypes: ['<s>', '<bos>', '<|endoftext|>'],
	suffixTypes: ['<eos>', '</s>', '<|endoftext|>'],
	specialTypes: [],
	cased: true,
	sentinels: [
		{ pattern: 'Ġ', position: 'initial' },
		{ pattern: '▁', position: 'initial' },
		{ pattern: '##', position: 'medial' },
	],
	moses: true,
};
