/**
 * A scored token: what every engine (the worker, Node, an endpoint's echoed logprobs) gives for
 * each token of a text, whatever family of task asked. Plain data.
 */

/**
 * One token of one sentence with its surprisal in bits (-log2 p). `start`/`end` are UTF-16
 * offsets into the sentence ([start, end)); engines always give them, imported lm-zoo files
 * (token strings only) do not. A token with no left context has surprisalBits 0 (reference).
 */
export interface ScoredToken {
	readonly token: string;
	readonly surprisalBits: number;
	readonly start?: number;
	readonly end?: number;
	/** BOS/EOS and other special tokens that are not text of the sentence. */
	readonly special?: boolean;
	/**
	 * −log₂ P(the token after this one starts a word | the text through this token): the
	 * beginning-of-word correction's boundary term (see `core/scoring/word-surprisal.ts`).
	 * Present only when scoring was asked for word boundaries (`wordBoundaries`).
	 */
	readonly boundarySurprisalBits?: number;
	/**
	 * The entropy in bits of the distribution after this token (the one the next token is drawn
	 * from): −Σ p log₂ p over the vocabulary. Given with `boundarySurprisalBits` by the engines
	 * whose scoring graph computes it (the worker's and Node's; not an endpoint's).
	 */
	readonly nextEntropyBits?: number;
}
