/**
 * Surprisal of given text through an OpenAI-compatible endpoint that echoes prompt logprobs
 * (vLLM, Benchtop's serve): `POST /v1/completions {prompt, echo: true, logprobs: 1, max_tokens: 0}`.
 * Tokens and offsets come from `logprobs.tokens` / `text_offset`, bits from the natural-log
 * `token_logprobs` (the first, null, is 0 bits as in the conventions). `bos` / `bos+eos` prepend /
 * append the special-token text, which such servers read as the special token. Any other answer
 * is an EndpointCannotScoreError, never a wrong number; so is a request for word boundaries
 * (prompt logprobs hold no probability of "the next token starts a word").
 */
import { scoredTokensFromEcho } from '../core/scoring/echo-logprobs';
import type { SurprisalConvention } from '../core/model/model-spec';
import type { ScoredText } from '../worker/protocol';
import {
	EndpointCannotScoreError,
	EndpointError,
	endpointError,
	type CompletionJson,
	type OpenAIClient,
} from './openai-client';

export interface EndpointScoringOptions {
	readonly model: string;
	readonly convention: SurprisalConvention;
	/** Special-token text prepended under `bos` / `bos+eos` (default GPT-2's `<|endoftext|>`). */
	readonly bosText?: string;
	/** Special-token text appended under `bos+eos` (default the BOS text). */
	readonly eosText?: string;
	/** Prompts per request (default 16). */
	readonly batchSize?: number;
	/**
	 * The request wants word-boundary probabilities (`ScoreTextsParams.wordBoundaries`): an
	 * endpoint cannot give them, so this fails with EndpointCannotScoreError before any request.
	 */
	readonly wordBoundaries?: boolean;
	readonly signal?: AbortSignal;
	/** Called after each request with the texts it finished. */
	readonly onProgress?: (done: number, total: number) => void;
}

export const DEFAULT_SPECIAL_TOKEN_TEXT = '<|endoftext|>';

/** The error for a word-boundary request: what an endpoint cannot give, and what to do. */
export function wordBoundariesUnavailableError(
	baseUrl: string,
	model: string,
): EndpointCannotScoreError {
	return new EndpointCannotScoreError(
		`This endpoint (${baseUrl}, model '${model}') cannot give word-boundary probabilities: its ` +
			'prompt logprobs hold each token’s own probability, not the summed probability of every ' +
			'token that starts a word, which the beginning-of-word correction needs. Score with a ' +
			'bundled, hub or local model, or turn the correction off.',
		'cannot-score',
	);
}

/** The special-token text sent before and after each text under the options' convention. */
export function endpointPromptParts(
	options: Pick<EndpointScoringOptions, 'convention' | 'bosText' | 'eosText'>,
): { readonly prefix: string; readonly suffix: string } {
	const bos = options.bosText ?? DEFAULT_SPECIAL_TOKEN_TEXT;
	return {
		prefix: options.convention === 'reference' ? '' : bos,
		suffix: options.convention === 'bos+eos' ? (options.eosText ?? bos) : '',
	};
}

/** Scores every text (results in input order), batching prompts per request. */
export async function scoreTextsViaEndpoint(
	client: OpenAIClient,
	texts: readonly string[],
	options: EndpointScoringOptions,
): Promise<ScoredText[]> {
	if (options.wordBoundaries === true) {
		throw wordBoundariesUnavailableError(client.baseUrl, options.model);
	}
	const { prefix, suffix } = endpointPromptParts(options);
	const context = client.context(options.model);
	const cannotScore = (why: string): Error =>
		new EndpointCannotScoreError(
			`${endpointError({ kind: 'cannot-score', detail: why }, context).message}`,
			'cannot-score',
		);
	const batchSize = Math.max(1, options.batchSize ?? 16);
	const results: ScoredText[] = new Array(texts.length);
	let done = 0;
	// An empty prompt has no tokens to score (servers refuse it): nothing is sent for it.
	const toSend: number[] = [];
	texts.forEach((text, index) => {
		if (prefix + text + suffix === '') results[index] = { index, tokens: [] };
		else toSend.push(index);
	});
	done = texts.length - toSend.length;
	const batches: number[][] = [];
	for (let first = 0; first < toSend.length; first += batchSize) {
		batches.push(toSend.slice(first, first + batchSize));
	}
	await Promise.all(
		batches.map(async (indices) => {
			const prompts = indices.map((i) => prefix + (texts[i] ?? '') + suffix);
			const json = await echoPrompts(client, options.model, prompts, options.signal, cannotScore);
			indices.forEach((textIndex, k) => {
				const choice = json.choices.find((c) => (c.index ?? -1) === k) ?? json.choices[k];
				const tokens = scoredTokensFromEcho(
					choice?.logprobs,
					{ prefix, text: texts[textIndex] ?? '', suffix },
					cannotScore,
				);
				results[textIndex] = { index: textIndex, tokens };
			});
			done += indices.length;
			options.onProgress?.(done, texts.length);
		}),
	);
	return results;
}

/** The echo request; `max_tokens: 1` (its generated token dropped) where 0 is refused. */
async function echoPrompts(
	client: OpenAIClient,
	model: string,
	prompts: readonly string[],
	signal: AbortSignal | undefined,
	cannotScore: (why: string) => Error,
): Promise<CompletionJson> {
	const body = { model, prompt: prompts, echo: true, logprobs: 1, temperature: 0 };
	try {
		return await client.completion({ ...body, max_tokens: 0 }, signal);
	} catch (error) {
		if (!(error instanceof EndpointError) || error.kind !== 'bad-request') throw error;
		if (/echo/i.test(error.message)) throw cannotScore(error.message);
	}
	let json: CompletionJson;
	try {
		json = await client.completion({ ...body, max_tokens: 1 }, signal);
	} catch (error) {
		if (error instanceof EndpointError && error.kind === 'bad-request')
			throw cannotScore(error.message);
		throw error;
	}
	// Drop the one generated token of every choice.
	return {
		...json,
		choices: json.choices.map((choice) => {
			const lp = choice.logprobs;
			if (!lp?.tokens) return choice;
			const keep = lp.tokens.length - 1;
			return {
				...choice,
				logprobs: {
					tokens: lp.tokens.slice(0, keep),
					...(lp.token_logprobs ? { token_logprobs: lp.token_logprobs.slice(0, keep) } : {}),
					...(lp.text_offset ? { text_offset: lp.text_offset.slice(0, keep) } : {}),
				},
			};
		}),
	};
}
