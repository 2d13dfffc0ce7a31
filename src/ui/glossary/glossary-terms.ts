/**
 * The words Benchtop uses, each explained in two or three plain sentences a teacher can read
 * aloud, shown on the Glossary page and in the `?` tips (HelpTip.svelte): first the words every
 * family's pages share (below), then each registered kind's own words, in the registry's order.
 * A family keeps its words in its core folder (e.g. core/stimuli/stimuli-glossary.ts) and gives
 * them to its kind's `glossary`; nothing here names a family. Text, and the join of the lists.
 */
import { RUN_KIND_REGISTRY } from '../../core/kinds/registered-kinds';
import type { GlossaryTerm } from '../../core/run/run-kind';

export type { GlossaryTerm } from '../../core/run/run-kind';

/** The words every family shares (scoring, models, replay files). */
export const SHARED_GLOSSARY = [
	{
		id: 'surprisal',
		term: 'Surprisal',
		short: 'How unexpected a word is for the model, given the words before it.',
		more: 'A language model reads a sentence word by word and guesses what comes next. A word it expected has low surprisal; a word it did not expect has high surprisal. People slow down on surprising words too, which is why linguists compare the two.',
	},
	{
		id: 'bits',
		term: 'Bits',
		short: 'The unit of surprisal: each extra bit means the word was half as likely.',
		more: 'A word with 1 bit of surprisal had a one-in-two chance; 10 bits is about one in a thousand; 20 bits about one in a million. A region’s surprisal is the sum over its words.',
	},
	{
		id: 'bos',
		term: 'BOS (start-of-text token)',
		short: 'A special token put before the sentence, standing for “a new text starts here”.',
		more: 'Without it, the first word has nothing before it and the model cannot score it, so it gets 0 bits. Some tokenizers add it by themselves (Llama, Llama-3); GPT-2’s and Qwen’s do not. The bundled models were trained with it before every text, so scoring with it is fairer.',
	},
	{
		id: 'convention',
		term: 'Convention',
		short: 'Whether a start-of-text token (and an end token) is added around each sentence.',
		more: '“reference” adds only what the tokenizer adds by itself, as the syntaxgym-core tool does: nothing for GPT-2 or Qwen (the first word gets 0 bits), the start-of-text token for Llama and Llama-3. “bos” puts one start-of-text token first: the tokenizer’s own, or for a tokenizer without one (Qwen) the model config’s bos_token_id. “bos+eos” also adds an end token, counted in the last region. The default is the model’s own, the same in the app and the CLI: a bundled model’s card says bos; a tokenizer that adds its own start-of-text token gives bos; anything else reference. Every result says which was used; you can change it.',
	},
	{
		id: 'weights',
		term: 'fp32, fp16, q8 (weights)',
		short:
			'How precisely the model’s numbers are stored: fp32 is exact, q8 is smaller and a bit rougher.',
		more: 'fp32 uses 32 bits per number and gives the reference results. fp16 uses half that. q8 squeezes each number into 8 bits: the download is four times smaller, and surprisals differ slightly.',
	},
	{
		id: 'backend',
		term: 'WASM and WebGPU (backend)',
		short: 'Where the model runs: on the processor (WASM) or on the graphics card (WebGPU).',
		more: 'WASM works in every modern browser. WebGPU is often faster but not available everywhere; if it fails, Benchtop falls back to WASM and says so.',
	},
	{
		id: 'word-boundary',
		term: 'Beginning-of-word correction',
		short:
			'A fairer word surprisal for models such as GPT-2, which put the space before a word into the word’s first token; asking a run for the word-boundary probabilities it needs costs one more token position per sentence.',
		more: 'GPT-2 marks the start of a word with its space, so summing a word’s tokens counts “a word starts here” at the beginning of the word, not at its end. The correction adds how unlikely a new word is after the word and takes off the same thing before it (Oh and Schuler 2024; Pimentel and Meister 2024). It needs, after every token, the probability that the next token starts a word: the run scores one more position per sentence for it. Region sums used by predictions do not change.',
	},
	{
		id: 'replay-file',
		term: 'Replay file',
		short: 'A file of answers written in advance, played back instead of asking a model.',
		more: 'Each line gives the answer to one prompt. A replay makes a run repeatable without a model, and lets you test a grader or a scoring rule on answers you chose. A prompt with no answer in the file stops the run with an error that names the prompt.',
	},
	{
		id: 'text-model-agent',
		term: 'A bundled GPT-2 as agent',
		ask: 'What can a bundled GPT-2 do as an agent?',
		short: 'A bundled GPT-2 continues text; it does not follow instructions, so expect low scores.',
		more: 'GPT-2 was trained to predict the next words of web text, not to answer questions or keep to a chat. Given a test message it writes something that could follow, which is rarely the answer. gpt2-random-tiny has random weights and writes noise: it is there to check that a run works, not to measure memory. For real scores, use an instruction-tuned model from an endpoint.',
	},
] as const satisfies readonly GlossaryTerm[];

/** A registry as the glossary reads it: its kinds in order, each with its words (if any). */
export interface GlossarySource {
	readonly kinds: readonly {
		readonly kind: string;
		readonly glossary?: readonly GlossaryTerm[] | undefined;
	}[];
}

/** The ids of the words of `Source`'s kinds. */
type KindTermId<Source extends GlossarySource> = NonNullable<
	Source['kinds'][number]['glossary']
>[number]['id'];

/**
 * The glossary of `source`: the `shared` words, then each kind's words, in the registry's order.
 * @throws Error when two words have one id (the `?` tips and the page's anchors find words by it).
 */
export function glossaryOf<SharedId extends string, Source extends GlossarySource>(
	shared: readonly GlossaryTerm<SharedId>[],
	source: Source,
): readonly GlossaryTerm<SharedId | KindTermId<Source>>[] {
	const owners = new Map<string, string>();
	const terms: GlossaryTerm<SharedId | KindTermId<Source>>[] = [];
	const add = (owner: string, words: readonly GlossaryTerm[]) => {
		for (const word of words) {
			const taken = owners.get(word.id);
			if (taken !== undefined) {
				throw new Error(`Glossary term "${word.id}" of ${owner} is already one of ${taken}.`);
			}
			owners.set(word.id, owner);
			terms.push(word as GlossaryTerm<SharedId | KindTermId<Source>>);
		}
	};
	add('the shared words', shared);
	for (const { kind, glossary } of source.kinds) add(`kind "${kind}"`, glossary ?? []);
	return terms;
}

/** Every word of the app, in the Glossary page's order. */
export const GLOSSARY = glossaryOf(SHARED_GLOSSARY, RUN_KIND_REGISTRY);

/** The id of a word of the glossary (a `?` tip with another id fails to compile). */
export type GlossaryTermId = (typeof GLOSSARY)[number]['id'];

export function glossaryTerm(id: GlossaryTermId): GlossaryTerm<GlossaryTermId> {
	const found = GLOSSARY.find((term) => term.id === id);
	if (!found) throw new Error(`No glossary term '${id}'.`);
	return found;
}
