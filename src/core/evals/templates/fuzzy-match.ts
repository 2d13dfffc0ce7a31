/**
 * FuzzyMatch (`evals.elsuite.basic.fuzzy_match:FuzzyMatch`), exactly as upstream's `normalize` /
 * `fuzzy_match` / `f1_score` (`evals/elsuite/utils.py`): ASCII-only punctuation, Unicode word
 * boundaries for articles; temperature 0 and `max_tokens` (default 100); reports the means of
 * `accuracy` and `f1_score`. Pure.
 */
import * as v from 'valibot';
import { numpyMean } from '../shared/metrics';
import { pythonSplitWhitespace, removeAsciiPunctuation } from '../../python/python-text';
import {
	argsObject,
	checkSingleModel,
	eventData,
	integerArg,
	resultBase,
	sampleInput,
	samplesJsonlArg,
	stringIdeals,
	type EvalTemplate,
} from './eval-template';

const CLASS_NAME = 'evals.elsuite.basic.fuzzy_match:FuzzyMatch';

/**
 * Python's `\b(a|an|the)\b` on a str: a word character is a letter or number (`str.isalnum`) or
 * `_`; combining marks are not word characters in Python's `re`.
 */
const ARTICLES = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;

/**
 * Upstream `normalize`: lower case; delete ASCII punctuation (`string.punctuation`, so `_` and `-`
 * go, `’` and `—` stay); replace the words a / an / the by a space; collapse whitespace.
 */
export function normalizeAnswer(text: string): string {
	const lowered = text.toLowerCase();
	const withoutPunctuation = removeAsciiPunctuation(lowered);
	const withoutArticles = withoutPunctuation.replace(ARTICLES, ' ');
	return pythonSplitWhitespace(withoutArticles).join(' ');
}

/** FuzzyMatch of one ideal: after normalizing, either side contains the other; empty only matches empty. */
export function fuzzyMatch(completion: string, ideal: string): boolean {
	const a = normalizeAnswer(completion);
	const b = normalizeAnswer(ideal);
	if (a === '' || b === '') return a === b;
	return a.includes(b) || b.includes(a);
}

function tokenF1(prediction: string, truth: string): number {
	const predicted = pythonSplitWhitespace(normalizeAnswer(prediction));
	const expected = pythonSplitWhitespace(normalizeAnswer(truth));
	const counts = new Map<string, number>();
	for (const token of expected) counts.set(token, (counts.get(token) ?? 0) + 1);
	let same = 0;
	for (const token of predicted) {
		const left = counts.get(token) ?? 0;
		if (left > 0) {
			same++;
			counts.set(token, left - 1);
		}
	}
	if (same === 0) return 0;
	const precision = (1.0 * same) / predicted.length;
	const recall = (1.0 * same) / expected.length;
	return (2 * precision * recall) / (precision + recall);
}

/** Upstream `f1_score`: token-multiset F1 after normalizing, the maximum over ideals (0 with none). */
export function f1Score(completion: string, ideals: readonly string[]): number {
	if (ideals.length === 0)
		throw new Error('f1_score needs at least one ideal (max() of an empty list)');
	return Math.max(...ideals.map((ideal) => tokenF1(completion, ideal)));
}

/** FuzzyMatch verdict, the ideals that matched (as `picked` holds the completion once per match) and f1. */
export function checkFuzzyMatch(
	completion: string,
	ideals: readonly string[],
): { correct: boolean; matches: boolean[]; f1: number } {
	const matches = ideals.map((ideal) => fuzzyMatch(completion, ideal));
	return { correct: matches.includes(true), matches, f1: f1Score(completion, ideals) };
}

const FuzzyMatchArgs = argsObject(CLASS_NAME, {
	samples_jsonl: samplesJsonlArg,
	max_tokens: v.optional(integerArg),
});

/** FuzzyMatch; `picked` holds the completion once per ideal it matched. */
export const FUZZY_MATCH: EvalTemplate<v.InferOutput<typeof FuzzyMatchArgs>> = {
	className: CLASS_NAME,
	name: 'FuzzyMatch',
	kind: 'fuzzy_match',
	argsSchema: FuzzyMatchArgs,
	hasGrader: false,
	resolveArgs: (args) => ({ maxTokens: args.max_tokens ?? 100 }),
	params: (evalSpec) => ({
		policy: { temperature: 0, max_tokens: evalSpec.maxTokens ?? 100 },
		grader: null,
	}),
	checkModels: (_evalSpec, models) => checkSingleModel('FuzzyMatch', models),
	async evalSample(context) {
		const prompt = sampleInput(context);
		const ideals = stringIdeals(context);
		const params = FUZZY_MATCH.params(context.evalSpec).policy;
		const completion = await context.generate('policy', context.models.policy, prompt, params, 0);
		const { correct, matches, f1 } = checkFuzzyMatch(completion, ideals);
		const picked = matches.flatMap((match) => (match ? [completion] : []));
		context.recorder.recordMatch(correct, ideals, picked);
		context.recorder.recordMetrics({ accuracy: Number(correct), f1_score: f1 });
		const expected = context.sample.ideal ?? null;
		return { ...resultBase(context), completion, correct, expected, picked, f1Score: f1 };
	},
	aggregate(events) {
		const metrics = eventData(events, 'metrics');
		return {
			accuracy: numpyMean(metrics.map((data) => Number(data.accuracy))),
			f1_score: numpyMean(metrics.map((data) => Number(data.f1_score))),
		};
	},
};
