/**
 * vLLM's `POST /tokenize` (at the server root, not under /v1): a prompt's token ids and, with
 * `return_token_strs`, their vocabulary strings (`Ġcat`, `<|endoftext|>`), which `surprisals`
 * prints in LM Zoo's token column. Ids come from the model's tokenizer.json on disk.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import * as v from 'valibot';
import { NODE_BUNDLED_MODELS_PATH } from '../../worker/node-engine';
import { HttpError, sendJson } from './http-io';
import { parseRequest } from './openai-shapes';
import type { ModelInfo } from '../../worker/protocol';
import { checkModel, checkPromptChars, type ModelRoutes } from './routes';

/**
 * `TokenizeCompletionRequest` of vllm/entrypoints/serve/tokenize/protocol.py (`messages` is not
 * taken). `add_special_tokens` is accepted; the tokens are always those serve's echo scores
 * (the `reference` convention), so the two line up token for token.
 */
export const TokenizeRequest = v.looseObject({
	model: v.optional(v.nullable(v.string())),
	prompt: v.string(),
	add_special_tokens: v.optional(v.nullable(v.boolean())),
	return_token_strs: v.optional(v.nullable(v.boolean())),
});

/** The parts of tokenizer.json that name token ids. */
const TokenizerJson = v.looseObject({
	model: v.looseObject({
		vocab: v.union([v.record(v.string(), v.number()), v.array(v.tuple([v.string(), v.number()]))]),
	}),
	added_tokens: v.optional(v.array(v.looseObject({ id: v.number(), content: v.string() }))),
});

/** Vocabulary string → id of one model, read once per server. */
const vocabularies = new WeakMap<ModelRoutes, Promise<ReadonlyMap<string, number>>>();

/** The folder holding the served model's files; undefined for a hub model (files in a cache). */
function modelFolder(info: ModelInfo): string | undefined {
	const { spec } = info;
	if (spec.source === 'bundled') return join(NODE_BUNDLED_MODELS_PATH, spec.id);
	if (spec.source === 'local') return spec.id;
	return undefined;
}

async function readVocabulary(folder: string): Promise<ReadonlyMap<string, number>> {
	const json = v.parse(
		TokenizerJson,
		JSON.parse(await readFile(join(folder, 'tokenizer.json'), 'utf8')),
	);
	const { vocab } = json.model;
	// Unigram vocabularies are [piece, score] lists: the index is the id.
	const ids = new Map<string, number>(
		Array.isArray(vocab) ? vocab.map(([piece], id) => [piece, id]) : Object.entries(vocab),
	);
	for (const added of json.added_tokens ?? []) ids.set(added.content, added.id);
	return ids;
}

function vocabularyOf(routes: ModelRoutes): Promise<ReadonlyMap<string, number>> {
	let vocabulary = vocabularies.get(routes);
	if (!vocabulary) {
		const folder = modelFolder(routes.info);
		if (folder === undefined) {
			throw new HttpError(
				501,
				`/tokenize needs the model's tokenizer.json on disk: serve a bundled model or a model folder (not the hub id '${routes.modelId}').`,
				'server_error',
			);
		}
		vocabulary = readVocabulary(folder);
		vocabularies.set(routes, vocabulary);
	}
	return vocabulary;
}

/**
 * The most characters one token of the model stands for: its longest vocabulary entry, added
 * tokens included (byte-level BPE writes each byte as one character, SentencePiece writes the
 * text itself), read from tokenizer.json; undefined for a hub model, whose files are in a cache.
 */
export async function longestTokenChars(info: ModelInfo): Promise<number | undefined> {
	const folder = modelFolder(info);
	if (folder === undefined) return undefined;
	let longest = 1;
	for (const piece of (await readVocabulary(folder)).keys())
		longest = Math.max(longest, piece.length);
	return longest;
}

/**
 * The checked body of `POST /tokenize`. vLLM tokenizes a prompt of any length there; here one
 * longer than the context can hold is refused too, since tokenizing holds up every request.
 */
export function parseTokenizeRequest(routes: ModelRoutes, body: unknown): TokenizeRequest {
	const request = parseRequest(TokenizeRequest, body);
	checkModel(routes, request.model ?? undefined);
	checkPromptChars(routes, request.prompt.length);
	return request;
}
export type TokenizeRequest = v.InferOutput<typeof TokenizeRequest>;

/** `POST /tokenize`: vLLM's `TokenizeResponse` (`count`, `max_model_len`, `tokens`, `token_strs`). */
export async function answerTokenize(
	routes: ModelRoutes,
	request: TokenizeRequest,
	response: ServerResponse,
): Promise<void> {
	const { engine, info } = routes;
	const vocabulary = await vocabularyOf(routes);
	const result = await engine.tokenize({
		modelKey: info.modelKey,
		text: request.prompt,
		convention: 'reference',
	});
	const strings = result.tokens.map((t) => t.token);
	const tokens = strings.map((token) => {
		const id = vocabulary.get(token);
		if (id === undefined) throw new Error(`The token '${token}' is not in tokenizer.json.`);
		return id;
	});
	sendJson(response, 200, {
		count: tokens.length,
		max_model_len: info.maxPositions,
		tokens,
		token_strs: request.return_token_strs === true ? strings : null,
	});
}
