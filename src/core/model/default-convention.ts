/**
 * The surprisal convention a model should be scored with by default, read from what the model
 * says about itself (its tokenizer_config.json), with a one-line reason a user can read. Pure: the
 * caller fetches the file; nothing here loads a model.
 */
import * as v from 'valibot';
import type { ModelSource, SurprisalConvention } from './model-spec';

/** The facts a default convention is read from. Unknown facts are left out. */
export interface ConventionFacts {
	/** `openai`: an endpoint, which says nothing about its tokenizer. */
	readonly source: ModelSource | 'openai';
	readonly id: string;
	/** `add_bos_token` from tokenizer_config.json: the tokenizer prepends BOS on its own. */
	readonly addBosToken?: boolean;
	/** The tokenizer declares a BOS token (`bos_token`), so `bos` can be used at all. */
	readonly hasBosToken?: boolean;
}

export interface ConventionDefault {
	readonly convention: SurprisalConvention;
	/** Why, in one plain sentence. */
	readonly reason: string;
}

/**
 * - bundled models → `bos`: they were trained with a start-of-text token before every document
 *   (their model cards say so), so the first word is only scored fairly after it;
 * - a tokenizer that adds BOS by itself (`add_bos_token: true`, Llama-style) → `bos` (the same
 *   input `reference` would give; the name says what happens);
 * - anything else, or not known → `reference` (syntaxgym-core's choice: first token 0 bits).
 */
export function defaultConvention(facts: ConventionFacts): ConventionDefault {
	if (facts.source === 'bundled') {
		return {
			convention: 'bos',
			reason: `${facts.id} was trained with a start-of-text token before every text, so it is scored with one.`,
		};
	}
	if (facts.addBosToken === true && facts.hasBosToken !== false) {
		return {
			convention: 'bos',
			reason: `${facts.id}'s tokenizer puts a start-of-text token before every text (add_bos_token), so it is scored with one.`,
		};
	}
	if (facts.addBosToken === false) {
		return {
			convention: 'reference',
			reason: `${facts.id}'s tokenizer adds no start-of-text token, so it is scored as syntaxgym-core does (the first word gets 0 bits).`,
		};
	}
	return {
		convention: 'reference',
		reason: `${facts.id} does not say whether it expects a start-of-text token, so it is scored as syntaxgym-core does (the first word gets 0 bits).`,
	};
}

const TOKENIZER_CONFIG = v.looseObject({
	add_bos_token: v.optional(v.unknown()),
	bos_token: v.optional(v.unknown()),
});

/**
 * The convention facts in a tokenizer_config.json (already parsed JSON). Fields of the wrong
 * type, or a value that is not an object, give no facts rather than an error.
 */
export function readTokenizerConventionFacts(
	json: unknown,
): Pick<ConventionFacts, 'addBosToken' | 'hasBosToken'> {
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
		...(typeof addBos === 'boolean' ? { addBosToken: addBos } : {}),
		...(bos === null
			? { hasBosToken: false }
			: typeof bosContent === 'string' && bosContent !== ''
				? { hasBosToken: true }
				: {}),
	};
}
