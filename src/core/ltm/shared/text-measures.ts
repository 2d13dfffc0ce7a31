/**
 * Text measures the LTM evaluators share: upstream's `standardise` (lowercase, ASCII punctuation
 * removed), ROUGE-L F as rouge_score computes it (ASCII [a-z0-9] tokens, Porter stems for tokens
 * longer than 3 characters), and Python's `repr` of strings and string lists. Pure.
 */
import { stemmer } from 'stemmer';

/** Python's `string.punctuation`: the 32 printable ASCII symbols. */
const ASCII_PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;

/** Lowercase and drop ASCII punctuation (Unicode punctuation such as ’ is kept). */
export function standardise(text: string): string {
	return text.toLowerCase().replace(ASCII_PUNCTUATION, '');
}

/** rouge_score's tokenizer with stemming. NOTE: npm `stemmer` is Porter (1980); NLTK's Porter adds extensions, so rare words may stem differently. */
export function rougeTokens(text: string): string[] {
	return text
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, ' ')
		.split(' ')
		.filter((token) => token !== '')
		.map((token) => (token.length > 3 ? stemmer(token) : token))
		.filter((token) => /^[a-z0-9]+$/.test(token));
}

/** Length of the longest common subsequence of two token lists. */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
	let previous = new Array<number>(b.length + 1).fill(0);
	for (const tokenA of a) {
		const current = new Array<number>(b.length + 1).fill(0);
		for (let j = 1; j <= b.length; j++) {
			current[j] =
				tokenA === b[j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, current[j - 1]!);
		}
		previous = current;
	}
	return previous[b.length]!;
}

/** ROUGE-L F-measure of a prediction against a target (rouge_score `rougeL`, stemmed). */
export function rougeLF(target: string, prediction: string): number {
	const t = rougeTokens(target);
	const p = rougeTokens(prediction);
	if (t.length === 0 || p.length === 0) return 0;
	const lcs = lcsLength(t, p);
	if (lcs === 0) return 0;
	const precision = lcs / p.length;
	const recall = lcs / t.length;
	return (2 * precision * recall) / (precision + recall);
}

/** Python `repr(str)`: single quotes unless the text has ' and no ", escapes as Python does. */
export function pythonStringRepr(text: string): string {
	const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
	let out = quote;
	for (const char of text) {
		const code = char.codePointAt(0)!;
		if (char === '\\') out += '\\\\';
		else if (char === quote) out += `\\${quote}`;
		else if (char === '\n') out += '\\n';
		else if (char === '\r') out += '\\r';
		else if (char === '\t') out += '\\t';
		else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
		else out += char;
	}
	return out + quote;
}

/** Python `repr(list_of_str)`: `['A', 'B']`. */
export function pythonListRepr(items: readonly string[]): string {
	return `[${items.map(pythonStringRepr).join(', ')}]`;
}
