/**
 * The Memory family's words (long-term-memory tests: span, score, filler), shown on the Glossary
 * page after the words every family shares and in the `?` tips of the Memory page. The Memory kind
 * carries them (ltm-run-kind.ts). Text only.
 */
import type { GlossaryTerm } from '../run/run-kind';

export const LTM_GLOSSARY = [
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
] as const satisfies readonly GlossaryTerm[];
