/**
 * Generic rules of `ltm-suite.json`: each compares reply i with expected answer i (score =
 * passes / expected answers), except `json_list_overlap` (NameList on the first reply) and
 * `llm_checklist` (the judge's checklist).
 */
import { parsePythonJson, PythonJsonError } from '../../python/python-json';
import { compileLinearRegex } from '../../text/linear-regex';
import type { GenericRule, JsonValue } from '../shared/types';
import { digitSetEquals } from './chapterbreak';
import { jsonText, type Evaluator, type EvaluatorVerdict } from './evaluator';
import { gradeWithChecklist } from './gpt-checklist';
import { scoreNameList } from './name-list';

/** JsonMatch semantics: null never matches; objects by key union; lists in order; Python ==. */
export function jsonMatches(answer: unknown, ideal: unknown): boolean {
	if (answer === null || answer === undefined || ideal === null || ideal === undefined)
		return false;
	if (Array.isArray(ideal) || Array.isArray(answer)) {
		return (
			Array.isArray(ideal) &&
			Array.isArray(answer) &&
			ideal.length === answer.length &&
			ideal.every((entry, index) => jsonMatches(answer[index], entry))
		);
	}
	if (typeof ideal === 'object' || typeof answer === 'object') {
		if (typeof ideal !== 'object' || typeof answer !== 'object') return false;
		const a = answer as Record<string, unknown>;
		const b = ideal as Record<string, unknown>;
		const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
		return [...keys].every((key) => jsonMatches(a[key], b[key]));
	}
	const number = (value: unknown): unknown => (typeof value === 'boolean' ? Number(value) : value);
	return number(answer) === number(ideal);
}

function perAnswer(
	responses: readonly string[],
	expected: readonly JsonValue[],
	pass: (reply: string, want: JsonValue) => boolean,
): EvaluatorVerdict {
	let score = 0;
	const reasons = expected.map((want, index) => {
		const ok = pass(responses[index] ?? '', want);
		if (ok) score++;
		return `Answer ${index + 1}: ${ok ? 'passes' : 'fails'} the rule.`;
	});
	return { score, maxScore: expected.length, reasons };
}

/**
 * The evaluator for a generic rule. The regex is compiled once, for the linear-time engine; one it
 * refuses is a definition error, reported when the file is loaded.
 */
export function genericRuleEvaluator(rule: GenericRule): Evaluator {
	switch (rule.rule) {
		case 'contains':
			return {
				judge: 'never',
				evaluate: ({ responses, expected }) =>
					perAnswer(responses, expected, (reply, want) =>
						rule.case === 'insensitive'
							? reply.toLowerCase().includes(jsonText(want).toLowerCase())
							: reply.includes(jsonText(want)),
					),
			};
		case 'regex': {
			const pattern = compileLinearRegex(rule.pattern, rule.flags ?? '');
			return {
				judge: 'never',
				evaluate: ({ responses, expected }) =>
					perAnswer(responses, expected, (reply) => pattern.test(reply)),
			};
		}
		case 'json_equals':
			return {
				judge: 'never',
				evaluate: ({ responses, expected }) =>
					perAnswer(responses, expected, (reply, want) => {
						try {
							return jsonMatches(parsePythonJson(reply), want);
						} catch (error) {
							if (error instanceof PythonJsonError) return false;
							throw error;
						}
					}),
			};
		case 'json_list_overlap':
			return {
				judge: 'never',
				evaluate: ({ responses, expected }) =>
					scoreNameList(
						responses[0] ?? '',
						expected.map((e) => jsonText(e)),
					),
			};
		case 'digits_set_equals':
			return {
				judge: 'never',
				evaluate: ({ responses, expected }) =>
					perAnswer(responses, expected, (reply, want) => digitSetEquals(reply, jsonText(want))),
			};
		case 'llm_checklist':
			return {
				judge: 'always',
				async evaluate({ questions, responses, expected }, judge) {
					if (!judge) throw new Error('llm_checklist needs a judge');
					return gradeWithChecklist(judge, questions, responses, expected);
				},
			};
	}
}
