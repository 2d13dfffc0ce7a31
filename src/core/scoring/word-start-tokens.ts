/**
 * Which vocabulary tokens start a word, for the beginning-of-word correction's boundary term
 * P(the next token starts a word | context) (see `word-surprisal.ts`). Pure: the tokenizer's
 * id → token table and a few facts come in as data; it never tokenizes.
 */

/** What the rule needs to know of a tokenizer. */
export interface WordStartVocabulary {
	/** Vocabulary string of every id (`Ġcat`, `▁the`, `<|endoftext|>`); holes are allowed. */
	readonly idToToken: readonly (string | undefined)[];
	/** Width of the model's logits (ids ≥ it are never predicted; ids below it without a string
	 * are padding rows of the output layer). */
	readonly vocabSize: number;
	/** The tokenizer's ids for the text `" "` alone, without special tokens (GPT-2: `[220]`,
	 * the token `Ġ`; Llama: `▁`). */
	readonly spaceTokenIds: readonly number[];
	/** The BOS and EOS token strings, if any (`<|endoftext|>`, `<s>`, `</s>`). */
	readonly bosToken?: string;
	readonly eosToken?: string;
	/** Added tokens (tokenizer.json `added_tokens`) with `lstrip: true`: they take the space
	 * before them, so they start a word (see {@link readLstripAddedTokenIds}). */
	readonly lstripTokenIds?: readonly number[];
}

export type WordStartTokens =
	| {
			readonly ok: true;
			/** The word-start marker: the first character of the space token (`Ġ`, `▁`). */
			readonly marker: string;
			/** Ids (ascending, each < vocabSize) of the tokens that start a word. */
			readonly ids: readonly number[];
	  }
	| { readonly ok: false; readonly reason: string };

/** The first code point of a string (`Ġ` of `Ġcat`), or '' for ''. */
function firstCharacter(text: string): string {
	const code = text.codePointAt(0);
	return code === undefined ? '' : String.fromCodePoint(code);
}

/**
 * The tokens that start a word, by minicons' rule for `bow_correction=True`
 * (`IncrementalLMScorer.__init__`, kanishkamisra/minicons), exactly:
 * - The marker is the first character of the vocabulary string of the first id the tokenizer
 *   gives for `" "`: `Ġ` for byte-level BPE (GPT-2, Pythia, Qwen), `▁` for SentencePiece
 *   (Llama). A tokenizer whose `" "` gives no id, or whose marker is its BOS or EOS token
 *   string, has no marker: `ok: false` (minicons then applies no correction).
 * - A token starts a word when its vocabulary string starts with the marker (`Ġcat`, `Ġ`,
 *   `ĠĊ`, `▁the`), or when it is an added token with `lstrip` (it takes the space before it).
 * - Nothing else starts a word: not a newline or tab token without the marker (`Ċ`, `ĊĊ`,
 *   `ĉ`), not punctuation (`.`), not special tokens such as EOS (`<|endoftext|>`, `</s>`)
 *   unless they carry the marker or `lstrip`, and not ids without a string.
 * Only ids below `vocabSize` are listed (the logits have no other rows).
 */
export function findWordStartTokens(vocabulary: WordStartVocabulary): WordStartTokens {
	const { idToToken, vocabSize, spaceTokenIds, bosToken, eosToken } = vocabulary;
	const spaceId = spaceTokenIds[0];
	const spaceToken = spaceId === undefined ? undefined : idToToken[spaceId];
	const marker = spaceToken === undefined ? '' : firstCharacter(spaceToken);
	if (marker === '') {
		return {
			ok: false,
			reason: 'the tokenizer gives no token for a space, so no token marks the start of a word',
		};
	}
	if (marker === bosToken || marker === eosToken) {
		return {
			ok: false,
			reason: `the tokenizer's space token starts with its ${marker === bosToken ? 'BOS' : 'EOS'} token, which marks no word start`,
		};
	}
	const starts = new Set<number>();
	const width = Math.min(vocabSize, idToToken.length);
	for (let id = 0; id < width; id++) {
		const token = idToToken[id];
		if (token !== undefined && token.startsWith(marker)) starts.add(id);
	}
	for (const id of vocabulary.lstripTokenIds ?? []) {
		if (Number.isInteger(id) && id >= 0 && id < vocabSize) starts.add(id);
	}
	return { ok: true, marker, ids: [...starts].sort((a, b) => a - b) };
}

/** Ids of tokenizer.json's `added_tokens` with `lstrip: true` (unknown input tolerated: []). */
export function readLstripAddedTokenIds(tokenizerJson: unknown): number[] {
	if (typeof tokenizerJson !== 'object' || tokenizerJson === null) return [];
	const added = (tokenizerJson as Record<string, unknown>)['added_tokens'];
	if (!Array.isArray(added)) return [];
	const ids: number[] = [];
	for (const entry of added as unknown[]) {
		if (typeof entry !== 'object' || entry === null) continue;
		const { id, lstrip } = entry as Record<string, unknown>;
		if (typeof id === 'number' && lstrip === true) ids.push(id);
	}
	return ids;
}
