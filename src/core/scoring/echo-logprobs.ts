/**
 * Prompt logprobs as vLLM's `/v1/completions` echoes them (`echo: true, logprobs: N`) turned into
 * scored tokens of a text: offsets from `text_offset`, bits from the natural-log values, the first
 * (null) entry 0 bits as in the conventions. Pure.
 */
import type { ScoredToken } from './scored-token';

/** `choices[i].logprobs` of an echoed completion. */
export interface EchoLogprobs {
	readonly tokens?: readonly string[];
	readonly token_logprobs?: readonly (number | null)[];
	readonly text_offset?: readonly number[];
}

/**
 * Turns one echoed prompt's logprobs into scored tokens of `text`, where the prompt sent was
 * `prefix + text + suffix`. A leading token the server added itself (a tokenizer BOS: its text is
 * not at the start of the prompt) is special and shifts every offset by its length.
 * @throws EndpointCannotScoreError when the logprobs are missing or do not line up.
 */
export function scoredTokensFromEcho(
	logprobs: EchoLogprobs | null | undefined,
	prompt: { readonly prefix: string; readonly text: string; readonly suffix: string },
	cannotScore: (why: string) => Error,
): ScoredToken[] {
	const tokens = logprobs?.tokens;
	const values = logprobs?.token_logprobs;
	const offsets = logprobs?.text_offset;
	if (!tokens || !values || !offsets) {
		throw cannotScore('the answer has no logprobs.tokens / token_logprobs / text_offset');
	}
	if (values.length !== tokens.length || offsets.length !== tokens.length) {
		throw cannotScore('logprobs.tokens, token_logprobs and text_offset differ in length');
	}
	const sent = prompt.prefix + prompt.text + prompt.suffix;
	let shift = 0;
	const first = tokens[0];
	if (first !== undefined && first !== '' && !sent.startsWith(first) && offsets[0] === 0) {
		shift = first.length;
	}
	const textStart = prompt.prefix.length;
	const textEnd = textStart + prompt.text.length;
	const scored: ScoredToken[] = [];
	tokens.forEach((token, i) => {
		const value = values[i];
		const surprisalBits = value === null || value === undefined ? 0 : -value / Math.LN2;
		const at = (offsets[i] ?? 0) - shift;
		const added = i === 0 && shift > 0;
		if (added || at < textStart || at >= textEnd) {
			// A special token (server BOS, our prefix/suffix text): no characters of the text.
			const edge = at >= textEnd ? prompt.text.length : 0;
			scored.push({ token, surprisalBits, start: edge, end: edge, special: true });
			return;
		}
		const start = at - textStart;
		const end = Math.min(start + token.length, prompt.text.length);
		scored.push({ token, surprisalBits, start, end });
	});
	// An empty token is part of a character the next token completes: it shares that span.
	for (let i = scored.length - 2; i >= 0; i--) {
		const token = scored[i] as ScoredToken;
		const next = scored[i + 1] as ScoredToken;
		if (token.token === '' && !token.special && !next.special && next.start === token.start) {
			if (next.end !== undefined) scored[i] = { ...token, end: next.end };
		}
	}
	return scored;
}

/** A token's own log-prob and its position's top-k, each as decoded text and nats. */
export interface EchoTopLogprobs {
	readonly chosen: { readonly text: string; readonly logprob: number };
	readonly top: readonly { readonly text: string; readonly logprob: number }[];
}

/** vLLM's lowest logprob in JSON (`-inf` cannot be written). */
const LOWEST_LOGPROB = -9999;

/**
 * vLLM's `top_logprobs` entry: the token itself first, then the top-k (a dict, so a text already
 * there keeps its place; vllm/entrypoints/openai/completion/serving.py,
 * `_create_completion_logprobs`).
 */
function topLogprobsEntry(top: EchoTopLogprobs): Record<string, number> {
	const entry: Record<string, number> = {};
	for (const { text, logprob } of [top.chosen, ...top.top])
		entry[text] = Math.max(logprob, LOWEST_LOGPROB);
	return entry;
}

/** vLLM's `choices[i].logprobs` for echoed prompt tokens. */
export interface EchoLogprobsJson {
	readonly tokens: string[];
	readonly token_logprobs: (number | null)[];
	readonly top_logprobs: (Record<string, number> | null)[];
	readonly text_offset: number[];
}

/**
 * The inverse for a server: scored tokens of `text` (engine output, reference convention) as
 * vLLM's echo logprobs. Token strings are the text they cover (a special token, covering none,
 * its vocabulary string); `text_offset` is the running sum of those strings' lengths, as vLLM
 * writes it; natural-log values, the first null. `top_logprobs` holds each token's top-k when
 * `top` gives them (per token, as the engine's `topLogprobs`), else the token itself.
 */
export function echoLogprobsFromScoredTokens(
	text: string,
	tokens: readonly ScoredToken[],
	firstOffset = 0,
	top?: readonly (EchoTopLogprobs | null)[],
): EchoLogprobsJson {
	const out: EchoLogprobsJson = {
		tokens: [],
		token_logprobs: [],
		top_logprobs: [],
		text_offset: [],
	};
	let offset = firstOffset;
	let coveredUpTo = 0;
	tokens.forEach((token, i) => {
		const next = tokens[i + 1];
		let covered: string;
		if (token.start === undefined || token.end === undefined || token.end <= token.start) {
			covered = token.token;
		} else if (next?.start !== undefined && next.start < token.end && !next.special) {
			// Part of a character the next token completes (byte-level BPE): held back, as
			// incremental detokenizers do; the next token carries the character.
			covered = '';
		} else {
			covered = text.slice(Math.max(token.start, coveredUpTo), token.end);
			coveredUpTo = token.end;
		}
		const logprob = i === 0 ? null : -token.surprisalBits * Math.LN2;
		out.tokens.push(covered);
		out.token_logprobs.push(logprob);
		const tokenTop = top?.[i];
		if (logprob === null) out.top_logprobs.push(null);
		else out.top_logprobs.push(tokenTop ? topLogprobsEntry(tokenTop) : { [covered]: logprob });
		out.text_offset.push(offset);
		offset += covered.length;
	});
	return out;
}
