/**
 * `surprisals <sentences.txt> [--words [--bow]] [--model ...] [--convention ...]`: per-token (or,
 * with `--words`, per-word, `--bow` with the beginning-of-word correction) surprisal of every line
 * as a TSV on stdout, with the real engine in Node. Also the model options `run` shares.
 */
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import * as v from 'valibot';
import { checkHubModelId, checkHubRevision } from '../../core/model/model-choice';
import { writeLmZooSurprisals } from '../../core/syntaxgym/formats/lm-zoo-surprisals';
import { writeWordSurprisalsTsv } from '../../core/syntaxgym/formats/word-surprisals-tsv';
import { sumCorrectedSurprisalsToWords } from '../../core/scoring/word-boundary-correction';
import { sumSurprisalsToWords } from '../../core/scoring/word-surprisal';
import {
	CONVENTION_FILE_MAX_BYTES,
	conventionFactsFromFiles,
	defaultConvention,
	factsWithoutFiles,
	parseConventionFile,
	type ConventionDefault,
	type ConventionFacts,
} from '../../core/model/default-convention';
import {
	BUNDLED_MODEL_IDS,
	DEFAULT_MODEL_ID,
	SURPRISAL_CONVENTIONS,
	ENDPOINT_SPEC_PREFIX,
	type EndpointModelSpec,
	type ModelDtype,
	type ModelSpec,
	type SurprisalConvention,
} from '../../core/model/model-spec';
import { endpointPromptParts, scoreTextsViaEndpoint } from '../../providers/endpoint-scoring';
import { endpointSpecOf } from '../../providers/open-model';
import {
	endpointLimitsFromEnv,
	OpenAIClient,
	readBoundedText,
	type EndpointLimits,
} from '../../providers/openai-client';
import { createNodeEngine } from '../../worker/node-engine';
import type { ModelInfo, ScoredText } from '../../worker/protocol';
import { CliInputError, EXIT_OK, type CliCommand, type CliIo } from '../shared/cli-io';
import { parseCommandArgs, type OptionSpec } from '../shared/parse-command-args';

/** Options every model-running command takes. */
export const MODEL_OPTIONS = {
	model: { type: 'string' },
	revision: { type: 'string' },
	convention: { type: 'string' },
	dtype: { type: 'string' },
	threads: { type: 'string' },
	'base-url': { type: 'string' },
	concurrency: { type: 'string' },
} as const satisfies OptionSpec;

export const MODEL_OPTIONS_USAGE =
	'[--model <bundled name | folder | hub owner/name | openai/<model>>] [--base-url <url>] ' +
	'[--revision <hub revision>] ' +
	'[--convention reference|bos|bos+eos] [--dtype fp32|fp16|q8] [--threads <n>] ' +
	'[--concurrency <n> (endpoint requests at once, default 4)]';

/** What `--help` says on conventions, after the usage line of `run` and `surprisals`. */
export const CONVENTION_HELP = `--convention: what goes around each sentence before it is scored
  reference  as syntaxgym-core: only what the tokenizer adds by itself. GPT-2 (and Qwen): nothing,
             so the first word has no context and gets 0 bits. Llama, Llama-3 (their tokenizer
             adds a start-of-text token, BOS): that BOS is kept, and the first word is scored.
  bos        one BOS first, so the first word is scored: the tokenizer's own (Llama, Llama-3: the
             same input as reference), GPT-2's <|endoftext|>, or, for a tokenizer without one
             (Qwen), config.json's bos_token_id. Through an endpoint: the text <|endoftext|>.
  bos+eos    as bos, plus an end-of-text token after the sentence, scored in the last region
             (lm-zoo's Docker GPT-2).
  default    the model's own, by the app's rule: a bundled model's card (gpt2-en-small,
             gpt2-random-tiny: bos); a tokenizer that adds its own BOS: bos; else reference.
             stderr says which and why; the result table's last column 'convention' names it
             unless it is reference (then the table is syntaxgym-core's, byte for byte).`;

export const SURPRISALS_USAGE = `usage: surprisals <sentences.txt> [--words [--bow]] ${MODEL_OPTIONS_USAGE}`;

const DTYPES: readonly ModelDtype[] = ['fp32', 'fp16', 'q8'];

/** What the model options ask for. */
export interface ModelRequest {
	readonly spec: ModelSpec;
	/** `--convention`; absent: the model's own default (chooseConvention). */
	readonly convention?: SurprisalConvention;
	readonly threads?: number;
	/** `--concurrency`: requests in flight at once to an endpoint (its client's default: 4). */
	readonly concurrency?: number;
	/** `--model openai/<m>`: scored through this endpoint (prompt logprobs); `spec` is not loaded. */
	readonly endpoint?: EndpointModelSpec;
}

type ModelOptionValues = Partial<Record<keyof typeof MODEL_OPTIONS, string | boolean>>;

function stringOption(values: ModelOptionValues, key: keyof ModelOptionValues): string | undefined {
	const value = values[key];
	return typeof value === 'string' ? value : undefined;
}

/** `--<key> <n>`, a whole number ≥ 1, or undefined when not given. */
function wholeNumberOption(
	values: ModelOptionValues,
	key: 'threads' | 'concurrency',
	usage: string,
): number | undefined {
	const text = stringOption(values, key);
	const number = text === undefined ? undefined : Number(text);
	if (number !== undefined && !(Number.isInteger(number) && number >= 1)) {
		throw new CliInputError(`--${key} must be a whole number ≥ 1 (got '${text}').\n${usage}`);
	}
	return number;
}

async function isDirectory(path: string): Promise<boolean> {
	try {
		return (await stat(path)).isDirectory();
	} catch {
		return false;
	}
}

/**
 * `--model`: a bundled model's name (default gpt2-en-small), else an existing folder, else a hub
 * id (`owner/name`, `--revision` default main). No `--convention`: the model's own default, read
 * when the model is (chooseConvention).
 * @throws CliInputError for anything else, naming the option and the choices.
 */
export async function readModelRequest(
	values: ModelOptionValues,
	usage: string,
): Promise<ModelRequest> {
	const convention = stringOption(values, 'convention') as SurprisalConvention | undefined;
	if (convention !== undefined && !SURPRISAL_CONVENTIONS.includes(convention)) {
		throw new CliInputError(
			`--convention must be one of ${SURPRISAL_CONVENTIONS.join(', ')} (got '${convention}').\n${usage}`,
		);
	}
	const dtype = (stringOption(values, 'dtype') ?? 'fp32') as ModelDtype;
	if (!DTYPES.includes(dtype)) {
		throw new CliInputError(
			`--dtype must be one of ${DTYPES.join(', ')} (got '${dtype}').\n${usage}`,
		);
	}
	const threads = wholeNumberOption(values, 'threads', usage);
	const concurrency = wholeNumberOption(values, 'concurrency', usage);
	const model = stringOption(values, 'model') ?? DEFAULT_MODEL_ID;
	let endpoint: EndpointModelSpec | undefined;
	if (model.startsWith(ENDPOINT_SPEC_PREFIX)) {
		try {
			endpoint = endpointSpecOf(
				model.slice(ENDPOINT_SPEC_PREFIX.length),
				stringOption(values, 'base-url'),
				process.env,
			);
		} catch (error) {
			throw new CliInputError(`--model: ${(error as Error).message}\n${usage}`);
		}
	}
	const revision = stringOption(values, 'revision');
	const base = { dtype, backend: 'node-cpu' as const };
	let spec: ModelSpec;
	if (endpoint !== undefined) {
		// Not loaded (the endpoint scores); names the model in the request's local shape.
		spec = { source: 'hub', id: model, revision: 'main', ...base };
	} else if ((BUNDLED_MODEL_IDS as readonly string[]).includes(model)) {
		spec = { source: 'bundled', id: model, ...base };
	} else if (await isDirectory(model)) {
		spec = { source: 'local', id: resolve(model), ...base };
	} else if (checkHubModelId(model) === null) {
		const revisionProblem = revision === undefined ? null : checkHubRevision(revision);
		if (revisionProblem !== null) throw new CliInputError(`--revision: ${revisionProblem}`);
		spec = { source: 'hub', id: model, revision: revision?.trim() || 'main', ...base };
	} else {
		throw new CliInputError(
			`--model '${model}' is not a bundled model (${BUNDLED_MODEL_IDS.join(', ')}), an existing ` +
				`model folder, or a hub id (owner/name).\n${usage}`,
		);
	}
	if (revision !== undefined && spec.source !== 'hub') {
		throw new CliInputError(`--revision only applies to hub models.\n${usage}`);
	}
	return {
		spec,
		...(convention !== undefined ? { convention } : {}),
		...(threads !== undefined ? { threads } : {}),
		...(concurrency !== undefined ? { concurrency } : {}),
		...(endpoint !== undefined ? { endpoint } : {}),
	};
}

/** The convention a CLI run uses, where it came from, and the model's own default. */
export interface ConventionChoice {
	readonly convention: SurprisalConvention;
	/** `option`: `--convention`; `default`: the model's own (core/model/default-convention). */
	readonly from: 'option' | 'default';
	readonly modelDefault: ConventionDefault;
}

/** A model file of a folder as JSON; undefined when absent, too big or not JSON. */
async function readFolderJson(folder: string, name: string): Promise<unknown> {
	const path = join(folder, name);
	try {
		if ((await stat(path)).size > CONVENTION_FILE_MAX_BYTES) return undefined;
		return parseConventionFile(await readFile(path, 'utf8'));
	} catch {
		return undefined;
	}
}

/**
 * The facts the one rule reads for this request: a bundled model's card, an endpoint (nothing
 * known), a folder's tokenizer files (as the app reads a picked folder), a hub model's loaded
 * tokenizer (`info.addsBos`, probed at load).
 */
async function conventionFactsOfRequest(
	request: ModelRequest,
	info?: ModelInfo,
): Promise<ConventionFacts> {
	if (request.endpoint) return { source: 'openai', id: request.endpoint.model };
	const { source, id } = request.spec;
	const known = factsWithoutFiles(source, id);
	if (known !== null) return known;
	if (source === 'local') {
		const [tokenizerJson, tokenizerConfig, config] = await Promise.all(
			['tokenizer.json', 'tokenizer_config.json', 'config.json'].map((name) =>
				readFolderJson(id, name),
			),
		);
		return conventionFactsFromFiles(source, id, { tokenizerJson, tokenizerConfig, config });
	}
	return info?.addsBos === undefined
		? { source, id }
		: { source, id, addsBos: info.addsBos, addsBosFrom: 'probe' };
}

/** `--convention` when given, else the model's own default by the app's rule. */
export async function chooseConvention(
	request: ModelRequest,
	info?: ModelInfo,
): Promise<ConventionChoice> {
	const modelDefault = defaultConvention(await conventionFactsOfRequest(request, info));
	return request.convention !== undefined
		? { convention: request.convention, from: 'option', modelDefault }
		: { convention: modelDefault.convention, from: 'default', modelDefault };
}

/** The stderr line that says which convention a run uses and why. */
export function describeConventionChoice(choice: ConventionChoice): string {
	const { convention, modelDefault } = choice;
	if (choice.from === 'default')
		return `convention: ${convention} (the model's default): ${modelDefault.reason}`;
	return modelDefault.convention === convention
		? `convention: ${convention} (--convention; also the model's default)`
		: `convention: ${convention} (--convention); the model's default is ${modelDefault.convention}: ${modelDefault.reason}`;
}

/** What a Node scoring run asks for beyond the model. */
export interface NodeScoringOptions {
	/** Also give every token its boundary surprisal (`ScoreTextsParams.wordBoundaries`). An
	 * endpoint cannot: it fails with EndpointCannotScoreError. */
	readonly wordBoundaries?: boolean;
	/** Also give each token its distribution's most likely tokens (`ScoreTextsParams.topLogprobs`,
	 * local models only; plain batches). */
	readonly topLogprobs?: number;
}

/** One model run over `texts` in Node: loads, scores (texts in input order), disposes. */
export async function scoreTextsInNode(
	request: ModelRequest,
	texts: readonly string[],
	io: CliIo,
	options: NodeScoringOptions = {},
): Promise<{
	readonly info?: ModelInfo;
	readonly texts: readonly ScoredText[];
	readonly convention: ConventionChoice;
}> {
	const wordBoundaries = options.wordBoundaries === true ? { wordBoundaries: true } : {};
	if (request.endpoint) {
		const choice = await chooseConvention(request);
		const convention = choice.convention;
		io.stderr(`${describeConventionChoice(choice)}\n`);
		const { model, baseUrl } = request.endpoint;
		const apiKey = process.env['OPENAI_API_KEY'];
		const client = new OpenAIClient({
			baseUrl,
			...(apiKey ? { apiKey } : {}),
			...(request.concurrency !== undefined ? { concurrency: request.concurrency } : {}),
			limits: endpointLimitsFromEnv(process.env),
		});
		const started = Date.now();
		const scored = await scoreTextsViaEndpoint(client, texts, {
			model,
			convention,
			...wordBoundaries,
		});
		const { prefix, suffix } = endpointPromptParts({ convention });
		const prompts = texts.map((text) => prefix + text + suffix);
		const named = await withVocabularyForms(scored, prompts, {
			baseUrl,
			model,
			apiKey,
			limits: client.limits,
		});
		io.stderr(
			`scored ${texts.length} sentences with openai/${model} at ${baseUrl} ` +
				`(${convention}, prompt logprobs) in ${((Date.now() - started) / 1000).toFixed(2)} s\n`,
		);
		if (typeof named === 'string') io.stderr(`note: tokens are in text form (${named})\n`);
		return { texts: typeof named === 'string' ? scored : named, convention: choice };
	}
	const engine = createNodeEngine(
		request.threads !== undefined ? { threads: request.threads } : {},
	);
	const info = await engine.loadModel({ spec: request.spec });
	try {
		const choice = await chooseConvention(request, info);
		const convention = choice.convention;
		io.stderr(`${describeConventionChoice(choice)}\n`);
		if (info.fallbackReason !== undefined) io.stderr(`note: ${info.fallbackReason}\n`);
		const result = await engine.scoreTexts({
			modelKey: info.modelKey,
			texts,
			convention,
			...wordBoundaries,
			...(options.topLogprobs !== undefined ? { topLogprobs: options.topLogprobs } : {}),
		});
		const seconds = result.elapsedMs / 1000;
		io.stderr(
			`scored ${texts.length} sentences (${result.tokenCount} tokens) with ` +
				`${info.spec.source} model ${info.spec.id} (${info.spec.dtype}, ${convention}) ` +
				`in ${seconds.toFixed(2)} s\n`,
		);
		return { info, texts: result.texts, convention: choice };
	} finally {
		await engine.disposeModel(info.modelKey);
	}
}

/** The part of vLLM's `/tokenize` answer read here. */
const TokenizeAnswer = v.looseObject({ token_strs: v.array(v.string()) });

/**
 * Echoed logprobs name tokens by their text (` ke`); a local run prints the tokenizer's
 * vocabulary form (`Ġke`). vLLM's `POST /tokenize` with `return_token_strs` gives that form
 * (Benchtop's serve answers it too), one request per prompt (`prompts[i]` is what was sent for
 * `scored[i]`). Returns the texts renamed, or why not (no such route, tokens that do not line up):
 * the text form then stays, never a mix.
 */
async function withVocabularyForms(
	scored: readonly ScoredText[],
	prompts: readonly string[],
	endpoint: {
		readonly baseUrl: string;
		readonly model: string;
		readonly apiKey?: string | undefined;
		/** Each answer is read under these (its whole call within the idle timeout). */
		readonly limits: EndpointLimits;
	},
): Promise<ScoredText[] | string> {
	const url = `${endpoint.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/tokenize`;
	const headers: Record<string, string> = { 'content-type': 'application/json' };
	if (endpoint.apiKey) headers['authorization'] = `Bearer ${endpoint.apiKey}`;
	const named: ScoredText[] = [];
	for (const sentence of scored) {
		if (sentence.tokens.length === 0) {
			named.push(sentence);
			continue;
		}
		const body = {
			model: endpoint.model,
			prompt: prompts[sentence.index] ?? '',
			return_token_strs: true,
		};
		let answer: Response;
		try {
			answer = await fetch(url, {
				method: 'POST',
				headers,
				body: JSON.stringify(body),
				signal: AbortSignal.timeout(endpoint.limits.idleTimeoutMs),
			});
		} catch (error) {
			return `${url}: ${(error as Error).message}`;
		}
		const text = await readBoundedText(answer, endpoint.limits);
		let json: unknown;
		try {
			json = text === undefined ? undefined : JSON.parse(text);
		} catch {
			json = undefined;
		}
		const parsed = v.safeParse(TokenizeAnswer, json);
		if (!answer.ok || !parsed.success) return `${url} answered ${answer.status} without token_strs`;
		const strings = parsed.output.token_strs;
		if (strings.length !== sentence.tokens.length) {
			return `${url} gave ${strings.length} tokens for sentence ${sentence.index + 1}, the echo ${sentence.tokens.length}`;
		}
		named.push({
			...sentence,
			tokens: sentence.tokens.map((token, i) => ({ ...token, token: strings[i] ?? token.token })),
		});
	}
	return named;
}

/** The lines of a sentence file as they are (`\n` or `\r\n` ends a line; no final empty line). */
export function splitSentenceLines(text: string): string[] {
	if (text === '') return [];
	const lines = text.split(/\r?\n/);
	if (lines.at(-1) === '') lines.pop();
	return lines;
}

/**
 * Every token of every line (special tokens included: BOS under `bos`, EOS under `bos+eos`) in
 * the tokenizer's vocabulary form (through an endpoint: from its vLLM `/tokenize`, else the text
 * form with a note), with its surprisal in bits; sentence and token ids 1-based.
 * `--words`: one row per whitespace-separated word instead, its tokens' surprisals summed
 * (special tokens in no word; see `sumSurprisalsToWords`). `--bow` (with `--words`): the model
 * also gives word-boundary probabilities and each word gets the beginning-of-word correction,
 * in a column named `surprisal_bow` instead of `surprisal`.
 */
export const surprisalsCommand: CliCommand = async (args, io) => {
	const { positionals, values } = parseCommandArgs(
		args,
		SURPRISALS_USAGE,
		{ ...MODEL_OPTIONS, words: { type: 'boolean' }, bow: { type: 'boolean' } },
		CONVENTION_HELP,
	);
	const [path] = positionals;
	if (path === undefined || positionals.length > 1) {
		throw new CliInputError(`expected one sentences file.\n${SURPRISALS_USAGE}`);
	}
	const bow = values.bow === true;
	if (bow && values.words !== true) {
		throw new CliInputError(
			`--bow (the beginning-of-word correction) applies to word surprisals: add --words.\n${SURPRISALS_USAGE}`,
		);
	}
	const request = await readModelRequest(values, SURPRISALS_USAGE);
	const texts = splitSentenceLines(await io.readText(path));
	const { texts: scored } = await scoreTextsInNode(request, texts, io, { wordBoundaries: bow });
	if (values.words === true) {
		io.stdout(
			writeWordSurprisalsTsv(
				scored.map((sentence) => {
					const text = texts[sentence.index] ?? '';
					// A text with no model input (empty, reference) has no tokens and no words.
					const words =
						bow && sentence.tokens.length > 0
							? sumCorrectedSurprisalsToWords(text, sentence.tokens)
							: sumSurprisalsToWords(text, sentence.tokens);
					if (words === null) {
						throw new Error(`Internal: sentence ${sentence.index + 1} has no word boundaries.`);
					}
					return { words };
				}),
				{ bowCorrected: bow },
			),
		);
	} else {
		io.stdout(writeLmZooSurprisals(scored));
	}
	return EXIT_OK;
};
