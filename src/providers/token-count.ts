/**
 * cl100k_base token counting (js-tiktoken), as upstream LTM reports gaps (`tokens_to_answer`) and
 * as the CLI counts for endpoint agents. The encoder is built once, on first use. Node and
 * browser safe (no node:* imports), but kept out of core: it carries a 1.7 MB rank table.
 */
import { Tiktoken } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';

let encoder: Tiktoken | undefined;

/** Number of cl100k_base tokens of `text` (special-token text is counted as plain text). */
export function countCl100kTokens(text: string): number {
	encoder ??= new Tiktoken(cl100kBase);
	return encoder.encode(text, [], []).length;
}
