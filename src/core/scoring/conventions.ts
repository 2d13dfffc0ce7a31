/**
 * Surprisal conventions (reference | bos | bos+eos): which ids a model is fed for a text, which
 * positions are scored, and the assembly of scored tokens with their offsets. Pure data in and
 * out; tokenizing and running the model are the worker's job.
 */
import type { SurprisalConvention } from '../model/model-spec';
import type { ScoredToken } from './scored-token';
import { BenchtopError } from '../errors';
import type { TokenSpan } from './token-offsets';

/** What the tokenizer itself adds around a text (tokenizer_config.json) and its BOS/EOS ids. */
export interface SpecialTokenBehaviour {
	/** `add_bos_token`: the tokenizer prepends BOS on its own (Llama). GPT-2: false. */
	readonly addsBos: boolean;
	/** `add_eos_token`: the tokenizer appends EOS on its own. Rare; GPT-2: false. */
	readonly addsEos: boolean;
	readonly bosTokenId?: number;
	readonly eosTokenId?: number;
}

/** Where a model input position comes from: a BOS/EOS added around the text, or the text. */
export type PositionRole = 'bos' | 'text' | 'eos';

/** The model input for one text under one convention. All arrays are aligned with `inputIds`. */
export interface ModelInputPlan {
	readonly convention: SurprisalConvention;
	readonly inputIds: readonly number[];
	readonly roles: readonly PositionRole[];
	/** Whether a position's surprisal comes from the model: every position but the first (which
	 * has no left context and gets 0 bits). */
	readonly scored: readonly boolean[];
	/** Index in `inputIds` of the first text token; the text tokens are contiguous. */
	readonly textStart: number;
	readonly textLength: number;
}

/**
 * The model input ids of a text under a convention, from the tokenizer's ids for the text alone
 * (encoded without special tokens):
 * - `reference`: the tokenizer's own special tokens only (BOS if `addsBos`, EOS if `addsEos`).
 *   Position 0 has no left context: 0 bits, kept (it is the first text token for GPT-2).
 * - `bos`: exactly one BOS first (its row gets 0 bits, special), the tokenizer's own EOS if any.
 * - `bos+eos`: exactly one BOS first and one EOS last; the EOS is scored and, being zero-width at
 *   the end of the text, counted in the last region.
 * Throws BenchtopError when the convention needs a BOS/EOS id the tokenizer does not have.
 */
export function planModelInput(
	textIds: readonly number[],
	behaviour: SpecialTokenBehaviour,
	convention: SurprisalConvention,
): ModelInputPlan {
	const wantsBos = convention === 'reference' ? behaviour.addsBos : true;
	const wantsEos = convention === 'bos+eos' ? true : behaviour.addsEos;
	const bos = wantsBos ? requireId(behaviour.bosTokenId, 'BOS', convention) : undefined;
	const eos = wantsEos ? requireId(behaviour.eosTokenId, 'EOS', convention) : undefined;
	const inputIds: number[] = [];
	const roles: PositionRole[] = [];
	if (bos !== undefined) {
		inputIds.push(bos);
		roles.push('bos');
	}
	const textStart = inputIds.length;
	for (const id of textIds) {
		inputIds.push(id);
		roles.push('text');
	}
	if (eos !== undefined) {
		inputIds.push(eos);
		roles.push('eos');
	}
	return {
		convention,
		inputIds,
		roles,
		scored: inputIds.map((_, position) => position > 0),
		textStart,
		textLength: textIds.length,
	};
}

export interface AssembleScoredTokensInput {
	readonly text: string;
	readonly plan: ModelInputPlan;
	/** Vocabulary string of every position of `plan.inputIds` (`<|endoftext|>`, `Ġcat`). */
	readonly tokens: readonly string[];
	/** Offsets of the text tokens only (`computeTokenOffsets` on the text's own ids), aligned
	 * with positions `textStart … textStart + textLength − 1`. */
	readonly textSpans: readonly TokenSpan[];
	/** Surprisal in bits of every position (`surprisalsBitsForRow`: position 0 is 0). Copied
	 * as given, so NaN marks "not scored" (tokenize requests). */
	readonly surprisalsBits: ArrayLike<number>;
}

/**
 * One ScoredToken per model input position: BOS zero-width at 0 and EOS zero-width at
 * text.length (both `special`), text tokens with their spans. Throws BenchtopError when the
 * arrays do not match the plan.
 */
export function assembleScoredTokens(input: AssembleScoredTokensInput): ScoredToken[] {
	const { text, plan, tokens, textSpans, surprisalsBits } = input;
	const length = plan.inputIds.length;
	if (tokens.length !== length || surprisalsBits.length !== length) {
		throw new BenchtopError(
			`Cannot assemble scored tokens: ${length} model positions but ${tokens.length} token strings and ${surprisalsBits.length} surprisals.`,
		);
	}
	if (textSpans.length !== plan.textLength) {
		throw new BenchtopError(
			`Cannot assemble scored tokens: ${plan.textLength} text tokens but ${textSpans.length} offsets.`,
		);
	}
	const scored: ScoredToken[] = [];
	for (let position = 0; position < length; position++) {
		const token = tokens[position] ?? '';
		const surprisalBits = surprisalsBits[position] ?? Number.NaN;
		const role = plan.roles[position];
		if (role === 'text') {
			const span = textSpans[position - plan.textStart];
			if (span === undefined) throw new BenchtopError(`No offsets for text token ${position}.`);
			scored.push(
				span.special
					? { token, surprisalBits, start: span.start, end: span.end, special: true }
					: { token, surprisalBits, start: span.start, end: span.end },
			);
		} else {
			const at = role === 'bos' ? 0 : text.length;
			scored.push({ token, surprisalBits, start: at, end: at, special: true });
		}
	}
	return scored;
}

function requireId(
	id: number | undefined,
	which: 'BOS' | 'EOS',
	convention: SurprisalConvention,
): number {
	if (id === undefined || !Number.isInteger(id) || id < 0) {
		throw new BenchtopError(
			`The ${convention} convention needs a ${which} token id, and this tokenizer has none.` +
				(convention === 'reference' ? '' : ' Use the reference convention.'),
		);
	}
	return id;
}
