/**
 * The Evals family's words (registries, graders), shown on the Glossary page after the words every
 * family shares and in the `?` tips of the Evals page. The Evals kind carries them
 * (evals-run-kind.ts). Text only.
 */
import type { GlossaryTerm } from '../run/run-kind';

export const EVALS_GLOSSARY = [
	{
		id: 'registry',
		term: 'Registry (Evals)',
		short: 'A folder of eval definitions: YAML files naming each eval, and the samples it asks.',
		more: 'An OpenAI Evals registry has evals/*.yaml (each eval’s name, its template class and where its samples are), data/ with the samples as JSONL, and modelgraded/ with grading prompts. An eval usually has a short name (an alias, such as “capitals”) that points to a full id (such as “capitals.test.v1”). Drop the folder or a zip of it on the Evals page.',
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
] as const satisfies readonly GlossaryTerm[];
