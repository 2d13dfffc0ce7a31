/**
 * The five Evals templates Benchtop runs, by upstream class path and by kind, and the verdict
 * functions of the basic ones. A registry entry whose class is not here is "unsupported".
 */
import type { TemplateKind } from '../shared/types';
import type { EvalTemplate } from './eval-template';
import { FUZZY_MATCH } from './fuzzy-match';
import { INCLUDES } from './includes';
import { JSON_MATCH } from './json-match';
import { MATCH } from './match';
import { MODEL_BASED_CLASSIFY } from './model-based-classify';

export type { EvalTemplate, RunModels, SampleContext } from './eval-template';
export { checkMatch } from './match';
export { checkIncludes } from './includes';
export { checkFuzzyMatch, f1Score, fuzzyMatch, normalizeAnswer } from './fuzzy-match';
export { checkJsonMatch, jsonMatch, parseJsonLoose } from './json-match';

/** Every template, by kind. */
export const TEMPLATES: Readonly<Record<TemplateKind, EvalTemplate>> = {
	match: MATCH,
	includes: INCLUDES,
	fuzzy_match: FUZZY_MATCH,
	json_match: JSON_MATCH,
	modelgraded: MODEL_BASED_CLASSIFY,
};

/** Upstream class path → template kind. */
export const TEMPLATE_CLASSES: Readonly<Record<string, TemplateKind>> = Object.fromEntries(
	Object.values(TEMPLATES).map((template) => [template.className, template.kind]),
);

/** The template of a resolved eval's kind. */
export function templateOf(kind: TemplateKind): EvalTemplate {
	return TEMPLATES[kind];
}
