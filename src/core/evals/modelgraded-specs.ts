/**
 * Benchtop's own model-graded specs, in our words: fact-style (compare a submission with an expert
 * answer), closed-QA-style (does a submission meet one criterion) and battle-style (is the first of
 * two responses better). Same fields, choices and scores as the upstream specs of those names, so
 * registries that name `fact`, `closedqa` or `battle` run without upstream's files.
 */
import type { ModelGradedSpec } from './shared/types';

const FACT: ModelGradedSpec = {
	prompt: `Compare a submitted answer with a reference answer that an expert wrote for the same question.

--- Question ---
{input}
--- Reference answer ---
{ideal}
--- Submitted answer ---
{completion}
--- End ---

Judge only the facts: differences of wording, grammar, style or punctuation do not count. Decide how the facts in the submitted answer relate to those in the reference answer, and pick one option:
(A) The submitted answer contains some of the reference answer's facts, all of them consistent with it.
(B) The submitted answer contains all of the reference answer's facts and more, all consistent with it.
(C) Both answers contain the same facts.
(D) The two answers contradict each other.
(E) They differ, but the differences do not change what is true.`,
	choice_strings: 'ABCDE',
	input_outputs: { input: 'completion' },
};

const CLOSEDQA: ModelGradedSpec = {
	prompt: `Grade a response to a task on a single criterion.

Task:
{input}

Response:
{completion}

Criterion:
{criteria}

Work out, one step at a time, whether the response satisfies the criterion, without giving the verdict first. Then write a single letter, Y if it does or N if it does not, alone on its own line, and repeat that letter alone on the final line.

Reasoning:`,
	eval_type: 'cot_classify',
	choice_scores: { Y: 1.0, N: 0.0 },
	choice_strings: 'YN',
	input_outputs: { input: 'completion' },
};

const BATTLE: ModelGradedSpec = {
	prompt: `Two instructions follow, each with a response to it.

Instruction A:
{input1}
Response A:
{completion1}

Instruction B:
{input2}
Response B:
{completion2}

Judging for yourself, is response A better than response B?`,
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
