/**
 * The Stimuli family's words (words of a stimuli table, windows, entropy, critical words), shown
 * on the Glossary page after the words every family shares and in the `?` tips of the Stimuli
 * page. The Stimuli kind carries them (stimuli-run-kind.ts). Text only.
 */
import type { GlossaryTerm } from '../run/run-kind';

export const STIMULI_GLOSSARY = [
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
] as const satisfies readonly GlossaryTerm[];
