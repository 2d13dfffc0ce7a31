/**
 * Where a Benchtop LTM run knowingly differs from upstream GoodAI LTM benchmark runs (reference
 * §4.4 "allowed, documented divergences"); recorded in every summary so results say so.
 */

/** One line per divergence, in plain words. */
export const LTM_DIVERGENCES: readonly string[] = [
	'Intro, reset, filler-instruction and judge prompts are our own wording, so their token counts differ from upstream.',
	'Filler trivia is ours (arithmetic and made-up facts) unless an upstream trivia file is loaded; items are used in order, not drawn with Random(0).',
	"The virtual clock moves only by time jumps (upstream's clock also advances with real time).",
	'Scheduling and gaps count tokens with the run counter (cl100k in the CLI), summed per message; upstream schedules with the claude-3-opus tokenizer and counts the concatenated text.',
	"Spy Meeting confusion keywords are the other Spy Meeting tests' keywords (upstream uses its own table of coded messages).",
	"ROUGE-L stems with the Porter (1980) stemmer of npm `stemmer`; NLTK's Porter has extensions, so rare words may differ.",
	'Procedural dynamic tests in upstream definitions (Restaurant .def.json) are skipped; declarative dynamic tests are ours.',
	'Our Restaurant built-in ({"type": "restaurant"} in an ltm-suite.json) follows the upstream steps with our own menu and wording; every judgement is made by the run\'s judge model (upstream uses gpt-4-turbo and gpt-3.5-turbo), and a swapped dish that goes unnoticed costs its point without ending the test.',
	'JSON numbers are doubles: integers above 2^53 compare inexactly (Python compares them exactly).',
];
