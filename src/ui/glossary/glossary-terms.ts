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
	| 'word-boundary'
	| 'registry'
	| 'replay-file'
	| 'grader'
	| 'model-graded'
	| 'memory-span'
	| 'ltm-score'
	| 'overrun'
	| 'isolated'
	| 'agent-context'
	| 'filler'
	| 'text-model-agent'
	| 'wilson-interval'
	| 'mcnemar-test'
	| 'battery'
	| 'sg-score'
	| 'circuit'
	| 'stimulus-word'
	| 'sliding-window'
	| 'next-word-entropy'
	| 'critical-word';

export interface GlossaryTerm {
	readonly id: GlossaryTermId;
	readonly term: string;
	/** One sentence: what the `?` tip says. */
	readonly short: string;
	/** More, for the Glossary page. */
	readonly more: string;
	/** The `?` button's name when “What is <term>?” does not read well. */
	readonly ask?: string;
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
		id: 'registry',
		term: 'Registry (Evals)',
		short: 'A folder of eval definitions: YAML files naming each eval, and the samples it asks.',
		more: 'An OpenAI Evals registry has evals/*.yaml (each eval’s name, its template class and where its samples are), data/ with the samples as JSONL, and modelgraded/ with grading prompts. An eval usually has a short name (an alias, such as “capitals”) that points to a full id (such as “capitals.test.v1”). Drop the folder or a zip of it on the Evals page.',
	},
	{
		id: 'replay-file',
		term: 'Replay file',
		short: 'A file of answers written in advance, played back instead of asking a model.',
		more: 'Each line gives the answer to one prompt. A replay makes a run repeatable without a model, and lets you test a grader or a scoring rule on answers you chose. A prompt with no answer in the file stops the run with an error that names the prompt.',
	},
	{
		id: 'grader',
		term: 'Grader',
		short: 'The model that judges another model’s answer when no exact rule can.',
		more: 'For questions with one right answer, a rule checks the completion (Match, Includes, FuzzyMatch). For open answers, a second model reads the question, the answer and a grading prompt, and picks a choice such as Y or N. The grader can be a bundled model, an endpoint or a replay file.',
	},
	{
		id: 'model-graded',
		term: 'Model-graded eval',
		short: 'An eval whose answers are scored by a grader model instead of a fixed rule.',
		more: 'The grading prompt asks the grader to end with one of a few choices; each choice is worth a score. A reply that names no valid choice counts as invalid and is shown as such, so you can see how often the grader itself failed.',
	},
	{
		id: 'memory-span',
		term: 'Memory span',
		short: 'How many tokens of conversation the agent must remember across, at most.',
		more: 'In a long-term-memory test, the agent is told something, then other messages follow before the question. The memory span is the most tokens allowed between the information and the question; a longer span is a harder test.',
	},
	{
		id: 'ltm-score',
		term: 'LTM score',
		short: 'How far back, in tokens, the agent still answered perfectly, on average.',
		more: 'For each test the agent passed fully, the score takes the gap in tokens between the information it needed and the question; the LTM score is the mean of these gaps. A high LTM score means the agent recalled things from far back in the conversation.',
	},
	{
		id: 'overrun',
		term: 'Overrun',
		short: 'A test whose gap grew past the memory span, so it was harder than asked.',
		more: 'Tests interleave: while one test waits, others speak. Sometimes the messages in between add up to more tokens than the memory span. The test still runs and is scored, and is marked “overrun” so you know its gap was longer than planned.',
	},
	{
		id: 'isolated',
		term: 'Isolated (run)',
		short: 'Each test runs on its own, with a fresh conversation, instead of interleaved.',
		more: 'Normally the tests share one long conversation and take turns, so each test’s messages sit between another test’s information and question. Isolated runs one test at a time and resets the agent between tests: a way to see whether a failure comes from the interleaving or from the task itself.',
	},
	{
		id: 'agent-context',
		term: 'Agent context',
		short: 'How much of the conversation, in tokens, is sent to the agent with each message.',
		more: 'A model can only read so many tokens at once. When the conversation is longer, the oldest messages are left out, and what was in them can only be recalled if the agent stores it some other way. Leave it empty to send everything the model accepts.',
	},
	{
		id: 'filler',
		term: 'Filler',
		short: 'Messages that fill the gap between the information and the question, to test memory.',
		more: 'When no other test has a message to send, the run adds filler: trivia (sums, made-up facts) that the agent is asked to list back, with nothing the tests ask about. It makes the gap reach the memory span. The conversation view folds filler away so the test messages are easy to follow.',
	},
	{
		id: 'text-model-agent',
		term: 'A bundled GPT-2 as agent',
		ask: 'What can a bundled GPT-2 do as an agent?',
		short: 'A bundled GPT-2 continues text; it does not follow instructions, so expect low scores.',
		more: 'GPT-2 was trained to predict the next words of web text, not to answer questions or keep to a chat. Given a test message it writes something that could follow, which is rarely the answer. gpt2-random-tiny has random weights and writes noise: it is there to check that a run works, not to measure memory. For real scores, use an instruction-tuned model from an endpoint.',
	},
	{
		id: 'wilson-interval',
		term: 'Wilson interval',
		short: 'The range an accuracy would likely fall in with other items of the same kind (95%).',
		more: 'A suite has only a few items, so an accuracy of 0.75 on 16 items could easily be 0.5 or 0.9 on another 16. The Wilson interval gives the range that covers the true accuracy about 95 times out of 100; it stays sensible at 0 and 1, where simpler formulas break. Wide intervals mean: too few items to tell models apart.',
	},
	{
		id: 'mcnemar-test',
		term: 'McNemar test',
		ask: 'What does the McNemar test tell?',
		short: 'Whether two models differ on the same items more than chance would explain.',
		more: "Only the items where the models disagree count: those only model A gets right (b) and those only model B gets right (c). If the models were equally good, each disagreement would go either way like a coin toss; the exact test gives the chance (p-value) of a split at least as lopsided as b against c. Testing many suites at once, about one in twenty would fall below 0.05 by chance alone even between equally good models, so the matrix also shows each suite's p-value Holm-adjusted over the suites tested (Holm's step-down method: the smallest of m p-values times m, the next times m − 1, and so on, never decreasing, at most 1). A suite is said to differ beyond noise when its adjusted p-value is below 0.05; the whole battery is a single test and is judged on its own p-value.",
	},
	{
		id: 'battery',
		term: 'Battery',
		short: 'Several suites run with one model in one go, so they can be compared side by side.',
		more: 'A battery scores every picked suite with the same model and convention. Each suite keeps its own run, with its own results and exports, and the battery can be resumed as a whole. Run the same battery with another model and the matrix shows the two models suite by suite.',
	},
	{
		id: 'sg-score',
		term: 'SG score',
		ask: 'What is the SG score?',
		short: 'The share of items a model gets right, averaged over the suites of a battery.',
		more: 'For each suite, count the items on which the prediction holds and divide by the number of items; then average those shares over the suites, each suite counting the same. This is the syntactic generalization score of Hu et al. (2020). A model that guesses gets about half.',
	},
	{
		id: 'circuit',
		term: 'Circuit',
		short: 'Suites that test the same kind of grammar, such as agreement or garden paths.',
		more: 'Hu et al. (2020) sorted their suites into six circuits: agreement, licensing, garden-path effects, gross syntactic state, center embedding and long-distance dependencies. A circuit’s score is the mean over its suites, so one strong suite does not hide a weak kind of grammar.',
	},
	{
		id: 'stimulus-word',
		term: 'Word (in a stimuli table)',
		ask: 'What counts as a word here?',
		short: 'What lies between spaces; a word’s surprisal is the sum of its tokens’ surprisals.',
		more: 'A text is cut at spaces, as pangoling and minicons do, so "dog." is one word with its full stop, unless you choose to split punctuation off or leave it out of every word (its tokens still count as context). In a file with one word per row, your words are the words. A model reads "Ġdog" (GPT-2) or "▁dog" (SentencePiece): the space before a word belongs to that word, so its surprisal says how unexpected the whole next word was. The first word is scored after the start-of-text token when the model’s convention puts one there (the bundled models: yes). Values are in bits; surprisal_bow_bits is the beginning-of-word corrected value (Oh & Schuler 2024), which also counts whether the word ends where it does.',
	},
	{
		id: 'sliding-window',
		term: 'Sliding window',
		short: 'Long passages are scored in overlapping pieces, each at most this many words.',
		more: 'A model reads only so many tokens at once. With a window of n words, the first n words are scored together; after that each piece scores the next words (the stride: half the window unless you choose) with the words before them as context. Every word is scored exactly once, with at least n minus the stride words before it once the passage is that long. The table’s provenance states the window and stride.',
	},
	{
		id: 'next-word-entropy',
		term: 'Next-word entropy',
		short:
			'How uncertain the model was before the word: the entropy, in bits, of its prediction for the word’s first token.',
		more: 'entropy_bits is −Σ p log₂ p over the whole vocabulary, for the distribution the model had just before the word (after the token before its first token). High entropy: many continuations were likely; low: the model expected one. It does not depend on which word came: surprisal says how unexpected the word was, entropy how open the prediction was. Computed in the scoring graph beside the word-boundary sum; NA for a text’s first word when no start-of-text token comes before it, and for a model behind an endpoint, whose logprobs give no whole distribution. Top next tokens (a number from 1 to 20) lists the most likely tokens of that same distribution with their probabilities: tokens, not words, so a listed token may be only the start of a word.',
		ask: 'What is next-word entropy?',
	},
	{
		id: 'critical-word',
		term: 'Critical word',
		short:
			'The word of each stimulus where the conditions are meant to differ; the figure averages surprisal there and two words each side.',
		more: 'Name a column that says which word is critical in each row: its position among the row’s words (1 is the first), or the word itself (matched without case or end punctuation). In a one-word-per-row file, mark the critical word’s own row with 1, true, yes, y, x or critical. The figure then shows mean surprisal per condition at the critical word and at up to two words before and after it in the same text (spill-over), with 95% intervals; rows whose cell names no word of theirs are listed by line.',
	},
];

export function glossaryTerm(id: GlossaryTermId): GlossaryTerm {
	const found = GLOSSARY.find((term) => term.id === id);
	if (!found) throw new Error(`No glossary term '${id}'.`);
	return found;
}
