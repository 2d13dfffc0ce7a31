/**
 * Token ids back to text as a completion and a text's token offsets read them: special tokens left
 * out, no clean-up. A transformers.js tokenizer refuses to decode no ids; here they are ''.
 */

/** The part of a transformers.js tokenizer that decodes. */
export interface IdDecoder {
	decode(
		ids: number[],
		options: { skip_special_tokens: boolean; clean_up_tokenization_spaces: boolean },
	): string;
}

/** `ids` as text (special tokens left out, no clean-up); no ids is the empty text. */
export function decodeTextIds(tokenizer: IdDecoder, ids: readonly number[]): string {
	if (ids.length === 0) return '';
	return tokenizer.decode([...ids], {
		skip_special_tokens: true,
		clean_up_tokenization_spaces: false,
	});
}
