/**
 * Benchtop's own model-graded specs, in our words: fact-style (compare a submission with an expert
 * answer), closed-QA-style (does a submission meet one criterion) and battle-style (is the first of
 * two responses better). Same fields, choices and scores as the upstream specs of those names, so
 * registries that name `fact`, `closedqa` or `battle` run without upstream's files.
 */
import type { ModelGradedSpec } from './types';

const FACT: ModelGradedSpec = {
	prompt: `You are checking a submitted answer against an expert's answer to the same question. Here is the material:
************
[Question]: {input}
************
[Expert]: {ideal}
************
[Submission]: {completion}
************
[END DATA]

Judge only the facts: differences of wording, grammar, style or punctuation do not count. Decide how the facts in the submission relate to the facts in the expert answer, and pick one option:
(A) The submission contains some of the expert answer's facts, all of them consistent with it.
(B) The submission contains all of the expert answer's facts and more, all consistent with it.
(C) The submission and the expert answer contain the same facts.
(D) The submission and the expert answer contradict each other.
(E) They differ, but the differences do not change what is true.`,
	choice_strings: 'ABCDE',
	input_outputs: { input: 'completion' },
};

const CLOSEDQA: ModelGradedSpec = {
	prompt: `You are grading a response to a task against one criterion. Here is the material:
[BEGIN DATA]
***
[Task]: {input}
***
[Submission]: {completion}
***
[Criterion]: {criteria}
***
[END DATA]
Does the submission meet the criterion? Work through it one step at a time and do not state the verdict first. Then write a single letter, Y for yes or N for no, alone on its own line, and repeat that letter alone on the final line.

Reasoning:`,
	eval_type: 'cot_classify',
	choice_scores: { Y: 1.0, N: 0.0 },
	choice_strings: 'YN',
	input_outputs: { input: 'completion' },
};

const BATTLE: ModelGradedSpec = {
	prompt: `Below are two instructions, each followed by a response.

[Instruction 1]
{input1}
[Response 1]
{completion1}

[Instruction 2]
{input2}
[Response 2]
{completion2}


Is the first response better than the second one? Answer from your own judgement.`,
	choice_strings: ['Yes', 'No'],
	choice_scores: { Yes: 1.0, No: 0.0 },
	input_outputs: { input1: 'completion1', input2: 'completion2' },
};

/** Specs available to every registry by name (a registry's own `modelgraded/` entry wins). */
export const BUILTIN_MODELGRADED_SPECS: Readonly<Record<string, ModelGradedSpec>> = {
	fact: FACT,
	closedqa: CLOSEDQA,
	battle: BATTLE,
};
