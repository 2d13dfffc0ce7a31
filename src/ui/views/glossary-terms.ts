/**
 * The words Benchtop uses, each explained in two or three plain sentences a teacher can read
 * aloud. Shown on the Glossary page and in the `?` tips (HelpTip.svelte). Text only.
 */

export type GlossaryTermId =
	| 'surprisal'
	| 'bits'
	| 'region'
	| 'condition'
	| 'prediction'
	| 'critical-region'
	| 'bos'
	| 'convention'
	| 'weights'
	| 'backend'
	| 'word-boundary';

export interface GlossaryTerm {
	readonly id: GlossaryTermId;
	readonly term: string;
	/** One sentence: what the `?` tip says. */
	readonly short: string;
	/** More, for the Glossary page. */
	readonly more: string;
}

export const GLOSSARY: readonly GlossaryTerm[] = [
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
		id: 'region',
		term: 'Region',
		short: 'A numbered piece of a sentence, such as the subject or the verb.',
		more: 'Every sentence of a suite is cut into the same regions, so the same piece can be compared across versions of the sentence. Region 3 of one version lines up with region 3 of the other.',
	},
	{
		id: 'condition',
		term: 'Condition',
		short: 'One version of a sentence, e.g. with a matching or a mismatching verb.',
		more: 'An item has several conditions: the same sentence changed in one controlled way. Comparing conditions shows whether the model notices the change.',
	},
	{
		id: 'prediction',
		term: 'Prediction',
		short: 'What a model that knows the grammar should do, written as a formula.',
		more: 'For example, “(3;%mismatch%) > (3;%match%)” says: region 3 should be more surprising in the mismatch version than in the match version. Accuracy is the share of items where the prediction holds.',
	},
	{
		id: 'critical-region',
		term: 'Critical region',
		short: 'The region the predictions compare, where the grammar makes the difference.',
		more: 'In the items table it is highlighted in each sentence. It is usually the word where a reader would notice that something is wrong.',
	},
	{
		id: 'bos',
		term: 'BOS (start-of-text token)',
		short: 'A special token put before the sentence, standing for “a new text starts here”.',
		more: 'Without it, the first word has nothing before it and the model cannot score it, so it gets 0 bits. GPT-2 was trained with this token before every text, so scoring with it is fairer.',
	},
	{
		id: 'convention',
		term: 'Convention',
		short: 'Whether a start-of-text token (and an end token) is added around each sentence.',
		more: '“reference” adds none, as the syntaxgym-core tool does; “bos” adds a start-of-text token; “bos+eos” adds one at each end. Benchtop picks the one the model was trained with; you can change it.',
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
];

export function glossaryTerm(id: GlossaryTermId): GlossaryTerm {
	const found = GLOSSARY.find((term) => term.id === id);
	if (!found) throw new Error(`No glossary term '${id}'.`);
	return found;
}
