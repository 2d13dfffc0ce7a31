/**
 * JsonMatch (`evals.elsuite.basic.json_match:JsonMatch`), as upstream's `json_match`: the
 * completion parsed as JSON must equal an ideal (each a JSON text) with Python's `==`, objects over
 * the union of keys, lists in order; temperature 0 and `max_tokens` (default 512); reports the mean
 * `accuracy`. Pure.
 */
import * as v from 'valibot';
import { numpyMean } from '../shared/metrics';
import type { JsonValue } from '../shared/types';
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
	type SampleContext,
} from './eval-template';

const CLASS_NAME = 'evals.elsuite.basic.json_match:JsonMatch';

/**
 * `json.loads` as far as JS can follow it: `JSON.parse`, so surrounding whitespace is fine and
 * code fences or trailing text fail. Returns undefined when the text is not JSON. (Python also
 * accepts NaN / Infinity literals, and keeps big ints exact: documented divergences.)
 */
export function parseJsonLoose(text: string): { value: JsonValue } | undefined {
	try {
		return { value: JSON.parse(text) as JsonValue };
	} catch {
		return undefined;
	}
}

function isObject(value: JsonValue): value is { readonly [key: string]: JsonValue } {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Python `==` on two JSON scalars: bool is an int (`true == 1`), int equals float, str only str. */
function pythonScalarEquals(a: JsonValue, b: JsonValue): boolean {
	const asNumber = (value: JsonValue): number | undefined =>
		typeof value === 'number' ? value : typeof value === 'boolean' ? Number(value) : undefined;
	const na = asNumber(a);
	const nb = asNumber(b);
	if (na !== undefined && nb !== undefined) return na === nb;
	if (typeof a === 'string' && typeof b === 'string') return a === b;
	return false;
}

/**
 * Upstream `json_match(sampled, correct)`: null/missing on either side is false; objects match when
 * every key of the union matches (a missing key is None, hence false); lists need equal length and
 * elementwise matches in order; everything else is Python `==`.
 */
export function jsonMatch(sampled: JsonValue | undefined, correct: JsonValue | undefined): boolean {
	if (sampled === undefined || sampled === null || correct === undefined || correct === null) {
		return false;
	}
	if (isObject(sampled)) {
		if (!isObject(correct)) return false;
		const keys = new Set([...Object.keys(sampled), ...Object.keys(correct)]);
		return [...keys].every((key) => jsonMatch(sampled[key], correct[key]));
	}
	if (Array.isArray(sampled)) {
		if (!Array.isArray(correct)) return false;
		const s = sampled as readonly JsonValue[];
		const c = correct as readonly JsonValue[];
		return s.length === c.length && s.every((item, index) => jsonMatch(item, c[index]));
	}
	if (isObject(correct) || Array.isArray(correct)) return false;
	return pythonScalarEquals(sampled, correct);
}

/** The ideals' JSON values; an ideal that is not JSON throws (upstream lets `json.loads` raise). */
function idealValues(ideals: readonly string[]): JsonValue[] {
	return ideals.map((ideal, index) => {
		const parsed = parseJsonLoose(ideal);
		if (!parsed) {
			throw new Error(
				`ideal ${ideals.length > 1 ? `#${index + 1} ` : ''}is not valid JSON: ${JSON.stringify(ideal)} (JsonMatch ideals must be JSON texts, e.g. "{\\"a\\": 1}")`,
			);
		}
		return parsed.value;
	});
}

/**
 * JsonMatch of a completion against ideals (each a JSON text). An ideal that is not valid JSON
 * throws (upstream lets `json.loads` raise); an invalid completion matches nothing.
 */
export function checkJsonMatch(
	completion: string,
	ideals: readonly string[],
): { correct: boolean; matches: boolean[] } {
	const correctValues = idealValues(ideals);
	const sampled = parseJsonLoose(completion)?.value;
	const matches = correctValues.map((value) => jsonMatch(sampled, value));
	return { correct: matches.includes(true), matches };
}

/** The sample's ideals, checked as JSON before any model call (an error names the sample). */
function jsonIdeals(context: SampleContext): string[] {
	const ideals = stringIdeals(context);
	try {
		idealValues(ideals);
	} catch (error) {
		throw context.error((error as Error).message);
	}
	return ideals;
}

const JsonMatchArgs = argsObject(CLASS_NAME, {
	samples_jsonl: samplesJsonlArg,
	max_tokens: v.optional(integerArg),
});

/** JsonMatch; `picked` holds the completion once per ideal it matched. */
export const JSON_MATCH: EvalTemplate<v.InferOutput<typeof JsonMatchArgs>> = {
	className: CLASS_NAME,
	name: 'JsonMatch',
	kind: 'json_match',
	argsSchema: JsonMatchArgs,
	hasGrader: false,
	resolveArgs: (args) => ({ maxTokens: args.max_tokens ?? 512 }),
	params: (evalSpec) => ({
		policy: { temperature: 0, max_tokens: evalSpec.maxTokens ?? 512 },
		grader: null,
	}),
	checkModels: (_evalSpec, models) => checkSingleModel('JsonMatch', models),
	async evalSample(context) {
		const prompt = sampleInput(context);
		const ideals = jsonIdeals(context);
		const params = JSON_MATCH.params(context.evalSpec).policy;
		const completion = await context.generate('policy', context.models.policy, prompt, params, 0);
		const { correct, matches } = checkJsonMatch(completion, ideals);
		const picked = matches.flatMap((match) => (match ? [completion] : []));
		context.recorder.recordMatch(correct, ideals, picked);
		context.recorder.recordMetrics({ accuracy: Number(correct) });
		const expected = context.sample.ideal ?? null;
		return { ...resultBase(context), completion, correct, expected, picked };
	},
	aggregate: (events) => ({
		accuracy: numpyMean(eventData(events, 'metrics').map((data) => Number(data.accuracy))),
	}),
};
