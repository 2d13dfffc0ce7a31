/**
 * The surprisal convention a model is scored with by default, one rule for the app and the CLI:
 * the model's own default where its card or its tokenizer says one, else `reference`; with a
 * one-line reason a user can read. Pure: the caller reads the model's files (tokenizer.json,
 * tokenizer_config.json, config.json) and hands them over; nothing here loads a model.
 */
import * as v from 'valibot';
import type { ModelSource, SurprisalConvention } from './model-spec';

/** Where the fact "the tokenizer adds its own BOS" (or not) was read. */
export type AddsBosSource = 'post-processor' | 'add_bos_token' | 'probe';

/** The facts a default convention is read from. Unknown facts are left out. */
export interface ConventionFacts {
	/** `openai`: an endpoint, which says nothing about its tokenizer. */
	readonly source: ModelSource | 'openai';
	readonly id: string;
	/** Whether encoding a text with special tokens puts a BOS before it (Llama, Llama-3: yes;
	 * GPT-2, Qwen: no). What the tokenizer does, not what it could do. */
	readonly addsBos?: boolean;
	/** Where `addsBos` was read: tokenizer.json's post-processor (what transformers.js runs),
	 * tokenizer_config.json's `add_bos_token`, or the loaded tokenizer itself. */
	readonly addsBosFrom?: AddsBosSource;
	/** The tokenizer declares a BOS token (`bos_token`), so `bos` can use it. */
	readonly hasBosToken?: boolean;
	/** config.json's `bos_token_id`: what `bos` falls back to when the tokenizer has no BOS. */
	readonly configBosTokenId?: number;
}

export interface ConventionDefault {
	readonly convention: SurprisalConvention;
	/** Why, in one plain sentence. */
	readonly reason: string;
}

/**
 * The bundled models' own default, from their model cards (public/models/<id>/README.md): every
 * training document of gpt2-en-small starts with `<|endoftext|>` ("Prepend `<|endoftext|>` (id 0)
 * yourself"); gpt2-random-tiny shares its tokenizer and its golden file is scored the same way.
 * Their tokenizers add no BOS by themselves, so only the card says this.
 */
const BUNDLED_MODEL_CARDS: Readonly<Record<string, string>> = {
	'gpt2-en-small':
		'its model card says every training text started with <|endoftext|>, and its tokenizer does not add it, so bos puts it before each sentence',
	'gpt2-random-tiny':
		'its model card scores tokenizer → BOS → model (the golden file of gpt2-en-small’s tokenizer), and its tokenizer does not add it, so bos puts it before each sentence',
};

const ADDS_BOS_WHERE: Readonly<Record<AddsBosSource, string>> = {
	'post-processor': 'its post-processor in tokenizer.json',
	add_bos_token: 'add_bos_token in tokenizer_config.json',
	probe: 'seen when the model loaded',
};

/**
 * One rule, in this order:
 * - a bundled model → what its card says (`bos`, see BUNDLED_MODEL_CARDS);
 * - a tokenizer that adds its own BOS (Llama, Llama-3) → `bos`: the name says what happens; under
 *   `reference` the tokenizer's BOS is kept too (as syntaxgym-core's HF path), same numbers;
 * - a tokenizer that adds none (GPT-2, Qwen) → `reference`, as syntaxgym-core: the first word gets
 *   0 bits (`bos` would prepend the tokenizer's BOS, else config.json's `bos_token_id`);
 * - an endpoint, or nothing known → `reference`.
 */
export function defaultConvention(facts: ConventionFacts): ConventionDefault {
	const card = facts.source === 'bundled' ? BUNDLED_MODEL_CARDS[facts.id] : undefined;
	if (card !== undefined) {
		return { convention: 'bos', reason: `${facts.id}: ${card}.` };
	}
	if (facts.source === 'openai') {
		return {
			convention: 'reference',
			reason: `the endpoint ${facts.id} does not say what its tokenizer adds, so texts are sent as they are (its server adds its own start-of-text token if its tokenizer does, as vLLM).`,
		};
	}
	const where = facts.addsBosFrom === undefined ? '' : ` (${ADDS_BOS_WHERE[facts.addsBosFrom]})`;
	if (facts.addsBos === true && facts.hasBosToken !== false) {
		return {
			convention: 'bos',
			reason: `${facts.id}'s tokenizer adds its own start-of-text token${where}, so the first word is scored after it (reference keeps that token too: the same numbers).`,
		};
	}
	if (facts.addsBos === false) {
		const bosFallback =
			facts.hasBosToken === false
				? facts.configBosTokenId !== undefined
					? ` (bos would use config.json's bos_token_id ${facts.configBosTokenId}: the tokenizer names no BOS token)`
					: ' (it has no start-of-text token for bos)'
				: '';
		return {
			convention: 'reference',
			reason: `${facts.id}'s tokenizer adds no start-of-text token${where}, so it is scored as syntaxgym-core does: the first word gets 0 bits${bosFallback}.`,
		};
	}
	return {
		convention: 'reference',
		reason: `${facts.id} does not say whether its tokenizer adds a start-of-text token, so it is scored as syntaxgym-core does (the first word gets 0 bits).`,
	};
}

/** The facts of a bundled model or an endpoint, which need no file read; null for the others. */
export function factsWithoutFiles(
	source: ModelSource | 'openai',
	id: string,
): ConventionFacts | null {
	return source === 'bundled' || source === 'openai' ? { source, id } : null;
}

/** The largest model file read for a default convention (Llama-3's tokenizer.json is 9 MB). */
export const CONVENTION_FILE_MAX_BYTES = 64 * 1024 * 1024;

const TOKENIZER_CONFIG = v.looseObject({
	add_bos_token: v.optional(v.unknown()),
	bos_token: v.optional(v.unknown()),
});

type TokenizerFileFacts = Pick<ConventionFacts, 'addsBos' | 'addsBosFrom' | 'hasBosToken'>;

/**
 * The convention facts in a tokenizer_config.json (already parsed JSON). Fields of the wrong
 * type, or a value that is not an object, give no facts rather than an error.
 */
export function readTokenizerConventionFacts(json: unknown): TokenizerFileFacts {
	const parsed = v.safeParse(TOKENIZER_CONFIG, json);
	if (!parsed.success) return {};
	const { add_bos_token: addBos, bos_token: bos } = parsed.output;
	const bosContent =
		typeof bos === 'string'
			? bos
			: typeof bos === 'object' && bos !== null && 'content' in bos
				? (bos as { content: unknown }).content
				: undefined;
	return {
		...(typeof addBos === 'boolean'
			? { addsBos: addBos, addsBosFrom: 'add_bos_token' as const }
			: {}),
		...(bos === null
			? { hasBosToken: false }
			: typeof bosContent === 'string' && bosContent !== ''
				? { hasBosToken: true }
				: {}),
	};
}

const POST_PROCESSOR = v.looseObject({ type: v.string() });
const TEMPLATE_PIECE = v.union([
	v.looseObject({ SpecialToken: v.looseObject({ id: v.string() }) }),
	v.looseObject({ Sequence: v.looseObject({ id: v.string() }) }),
]);
const TEMPLATE_PROCESSING = v.looseObject({
	type: v.literal('TemplateProcessing'),
	single: v.array(TEMPLATE_PIECE),
});
const SEQUENCE_PROCESSING = v.looseObject({
	type: v.literal('Sequence'),
	processors: v.array(v.unknown()),
});
/** Post-processors that never add a token (ByteLevel only fixes offsets). */
const ADDS_NOTHING = new Set(['ByteLevel']);
/** Post-processors that put a token before the text (encoders' [CLS] / <s>). */
const ADDS_FIRST = new Set(['BertProcessing', 'RobertaProcessing']);

/** Whether one post-processor puts a token before a single text; undefined when unknown. */
function postProcessorAddsFirst(json: unknown, depth = 0): boolean | undefined {
	if (json === null) return false;
	const known = v.safeParse(POST_PROCESSOR, json);
	if (!known.success || depth > 4) return undefined;
	const { type } = known.output;
	if (ADDS_NOTHING.has(type)) return false;
	if (ADDS_FIRST.has(type)) return true;
	const template = v.safeParse(TEMPLATE_PROCESSING, json);
	if (template.success) {
		const first = template.output.single[0];
		return first !== undefined && 'SpecialToken' in first;
	}
	const sequence = v.safeParse(SEQUENCE_PROCESSING, json);
	if (sequence.success) {
		let all: boolean | undefined = false;
		for (const processor of sequence.output.processors) {
			const adds = postProcessorAddsFirst(processor, depth + 1);
			if (adds === true) return true;
			if (adds === undefined) all = undefined;
		}
		return all;
	}
	return undefined;
}

/**
 * The convention facts in a tokenizer.json (already parsed JSON): whether its post-processor,
 * the step that adds special tokens when transformers.js encodes, puts a BOS before the text
 * (Llama-3: `Sequence[ByteLevel, TemplateProcessing(<|begin_of_text|> $A)]`; GPT-2 and Qwen:
 * `ByteLevel`). No facts when the file or its post-processor is of an unknown shape.
 */
export function readTokenizerJsonConventionFacts(json: unknown): TokenizerFileFacts {
	if (typeof json !== 'object' || json === null || !('post_processor' in json)) return {};
	const adds = postProcessorAddsFirst((json as { post_processor: unknown }).post_processor);
	return adds === undefined ? {} : { addsBos: adds, addsBosFrom: 'post-processor' };
}

const MODEL_CONFIG = v.looseObject({ bos_token_id: v.optional(v.unknown()) });

/** `bos_token_id` of a config.json (already parsed JSON), when it is one whole number. */
export function readModelConfigConventionFacts(
	json: unknown,
): Pick<ConventionFacts, 'configBosTokenId'> {
	const parsed = v.safeParse(MODEL_CONFIG, json);
	const id = parsed.success ? parsed.output.bos_token_id : undefined;
	return typeof id === 'number' && Number.isInteger(id) && id >= 0 ? { configBosTokenId: id } : {};
}

/** A model's files as parsed JSON; a file not read (or not there) is undefined. */
export interface ConventionFiles {
	readonly tokenizerJson?: unknown;
	readonly tokenizerConfig?: unknown;
	readonly config?: unknown;
}

/**
 * The facts of a hub model or a model folder from its files. tokenizer.json's post-processor is
 * what the tokenizer does when transformers.js encodes, so it wins over tokenizer_config.json's
 * `add_bos_token` (read only when tokenizer.json says nothing).
 */
export function conventionFactsFromFiles(
	source: ModelSource,
	id: string,
	files: ConventionFiles,
): ConventionFacts {
	const config = readTokenizerConventionFacts(files.tokenizerConfig);
	const tokenizer = readTokenizerJsonConventionFacts(files.tokenizerJson);
	const adds = tokenizer.addsBos !== undefined ? tokenizer : config;
	return {
		source,
		id,
		...(adds.addsBos !== undefined ? { addsBos: adds.addsBos } : {}),
		...(adds.addsBosFrom !== undefined ? { addsBosFrom: adds.addsBosFrom } : {}),
		...(config.hasBosToken !== undefined ? { hasBosToken: config.hasBosToken } : {}),
		...readModelConfigConventionFacts(files.config),
	};
}

/** JSON text of a model file, parsed; undefined when it is not JSON (no facts, no error). */
export function parseConventionFile(text: string | undefined): unknown {
	if (text === undefined || text.length > CONVENTION_FILE_MAX_BYTES) return undefined;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
}
