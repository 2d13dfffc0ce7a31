/**
 * Our single-file LTM format `ltm-suite.json` (reference §4.2): a config and datasets, each with
 * an `evaluator` (a built-in id or a generic rule) and examples that are static scripts, callback
 * scripts with a `watch`, or declarative dynamic tests (`say`/`wait`/`check`/`extract`/`pick`/
 * `branch`). Validated with valibot; every problem is reported with its JSON pointer.
 */
import * as v from 'valibot';
import { compileLinearRegex, RegexRefused } from '../text/linear-regex';
import { findLtmDataset } from './datasets';
import {
	compareIds,
	defaultWaits,
	estimateTokens,
	scriptTokens,
	DEFAULT_MEMORY_SPAN,
	type CountTokens,
} from './definitions';
import type {
	DynamicStep,
	EvaluatorSpec,
	GenericRule,
	JsonValue,
	LtmBenchmark,
	LtmDiagnostic,
	LtmTestDefinition,
	LtmWait,
} from './shared/types';
import { BUILT_IN_EVALUATORS } from './shared/types';
import { describeIssue, readDefinitionJson } from './definition-problems';
import type { LoadResult } from './definitions';
import { RESTAURANT_MAX_SCORE } from './restaurant';

const Wait = v.strictObject({
	tokens: v.optional(v.pipe(v.number(), v.minValue(0))),
	time: v.optional(v.pipe(v.number(), v.minValue(0))),
	percentage_finished: v.optional(v.pipe(v.number(), v.minValue(0))),
});

const Case = v.optional(v.picklist(['sensitive', 'insensitive']));

const Rule = v.union([
	v.strictObject({ contains: v.string(), case: Case }),
	v.strictObject({ not_contains: v.string(), case: Case }),
	v.strictObject({ regex: v.string(), flags: v.optional(v.string()) }),
]);

const JudgeSpecSchema = v.strictObject({
	system: v.optional(v.string()),
	user: v.pipe(v.string(), v.minLength(1)),
	json_key: v.pipe(v.string(), v.minLength(1)),
	model_slot: v.optional(v.literal('judge')),
});

/** One schema per step kind, chosen by the step's key (a union would hide where a step fails). */
const STEP_SCHEMAS = {
	say: v.strictObject({
		say: v.string(),
		question: v.optional(v.boolean()),
		id: v.optional(v.string()),
	}),
	wait: v.strictObject({
		wait: v.strictObject({
			tokens: v.optional(v.pipe(v.number(), v.minValue(0))),
			percentage_finished: v.optional(v.pipe(v.number(), v.minValue(0))),
			time_s: v.optional(v.pipe(v.number(), v.minValue(0))),
		}),
	}),
	check: v.strictObject({
		check: v.union([Rule, v.strictObject({ judge: JudgeSpecSchema })]),
		on_pass: v.optional(
			v.strictObject({ score: v.optional(v.number()), reason: v.optional(v.string()) }),
		),
		on_fail: v.optional(
			v.strictObject({ reason: v.optional(v.string()), stop: v.optional(v.boolean()) }),
		),
	}),
	extract: v.strictObject({
		extract: v.union([
			v.strictObject({
				from: v.optional(v.literal('last_reply')),
				regex: v.string(),
				into: v.string(),
			}),
			v.strictObject({
				from: v.optional(v.literal('last_reply')),
				judge: JudgeSpecSchema,
				into: v.string(),
			}),
		]),
	}),
	pick: v.strictObject({
		pick: v.strictObject({
			into: v.string(),
			from: v.pipe(v.array(v.string()), v.minLength(1)),
			seed: v.optional(v.literal('example')),
		}),
	}),
	branch: v.strictObject({
		branch: v.strictObject({
			if: Rule,
			then: v.array(v.unknown()),
			else: v.optional(v.array(v.unknown())),
		}),
	}),
} as const;

const STEP_KINDS = Object.keys(STEP_SCHEMAS) as (keyof typeof STEP_SCHEMAS)[];

/** Checks dynamic steps one by one (recursing into branches); problems are pushed located. */
function checkSteps(
	steps: readonly unknown[],
	path: string,
	pointer: string,
	diagnostics: LtmDiagnostic[],
): void {
	steps.forEach((step, index) => {
		const at = `${pointer}/${index}`;
		const kinds =
			typeof step === 'object' && step !== null ? STEP_KINDS.filter((kind) => kind in step) : [];
		if (kinds.length !== 1) {
			diagnostics.push(diag(path, at, `a step needs exactly one of ${STEP_KINDS.join(', ')}`));
			return;
		}
		const kind = kinds[0]!;
		const parsed = v.safeParse(STEP_SCHEMAS[kind], step);
		if (!parsed.success) {
			for (const issue of parsed.issues) {
				const inner = deepest(issue);
				diagnostics.push(diag(path, at + pointerOf(inner), describeIssue(inner)));
			}
			return;
		}
		const regexes: [string, string, string | undefined][] = [];
		const rule =
			kind === 'check'
				? (step as { check: Record<string, string> }).check
				: kind === 'branch'
					? (step as { branch: { if: Record<string, string> } }).branch.if
					: undefined;
		if (rule?.regex !== undefined) {
			regexes.push([
				`${at}/${kind === 'check' ? 'check' : 'branch/if'}/regex`,
				rule.regex,
				rule.flags,
			]);
		}
		const extract = kind === 'extract' ? (step as { extract: { regex?: string } }).extract : {};
		if (extract.regex !== undefined) regexes.push([`${at}/extract/regex`, extract.regex, '']);
		for (const [where, source, flags] of regexes) {
			const refused = regexRefusal(source, flags);
			if (refused) diagnostics.push(diag(path, where, refused));
		}
		if (kind === 'branch') {
			const branch = (step as { branch: { then: unknown[]; else?: unknown[] } }).branch;
			checkSteps(branch.then, path, `${at}/branch/then`, diagnostics);
			checkSteps(branch.else ?? [], path, `${at}/branch/else`, diagnostics);
		}
	});
}

/**
 * Why a pattern from the file cannot run (not a pattern, or not for the linear-time engine), or
 * undefined. A dynamic step's pattern is a template: it is checked as written, before rendering.
 */
function regexRefusal(source: string, flags: string | undefined): string | undefined {
	try {
		compileLinearRegex(source, flags ?? '');
		return undefined;
	} catch (cause) {
		if (cause instanceof RegexRefused) return cause.message;
		throw cause;
	}
}

const Watch = v.strictObject({
	after_step: v.pipe(v.number(), v.integer(), v.minValue(0)),
	nth_response: v.pipe(v.number(), v.integer(), v.minValue(1)),
	must_contain: v.pipe(v.string(), v.minLength(1)),
	normalise: v.optional(v.picklist(['standardise', 'none'])),
	exclusive: v.optional(v.boolean()),
});

const StaticExample = v.strictObject({
	id: v.optional(v.string()),
	script: v.array(v.string()),
	is_question: v.array(v.boolean()),
	waits: v.optional(v.array(Wait)),
	expected_responses: v.array(v.unknown()),
	is_temporal: v.optional(v.boolean()),
	uses_callback: v.optional(v.boolean()),
	can_be_interleaved: v.optional(v.boolean()),
	watch: v.optional(Watch),
});

const DynamicExample = v.strictObject({
	id: v.optional(v.string()),
	type: v.literal('dynamic'),
	max_score: v.pipe(v.number(), v.minValue(0.000001)),
	vars: v.optional(v.record(v.string(), v.string())),
	steps: v.pipe(v.array(v.unknown()), v.minLength(1)),
});

/** A procedural built-in dynamic test (Restaurant, reference §2.3). */
const BuiltInExample = v.strictObject({
	id: v.optional(v.string()),
	type: v.literal('restaurant'),
});

const GenericRuleSchema = v.variant('rule', [
	v.strictObject({ rule: v.literal('contains'), case: Case }),
	v.strictObject({ rule: v.literal('regex'), pattern: v.string(), flags: v.optional(v.string()) }),
	v.strictObject({ rule: v.literal('json_equals') }),
	v.strictObject({ rule: v.literal('json_list_overlap') }),
	v.strictObject({ rule: v.literal('digits_set_equals') }),
	v.strictObject({ rule: v.literal('llm_checklist'), model_slot: v.optional(v.literal('judge')) }),
]);

/** What an `Object` alternative of a dataset's evaluator is, in messages. */
const RULE_OBJECT = `a rule object {"rule": …} with a rule among ${GenericRuleSchema.options
	.map((option) => option.entries.rule.literal)
	.join(', ')}`;

const Dataset = v.strictObject({
	name: v.pipe(v.string(), v.minLength(1)),
	config_name: v.optional(v.string()),
	description: v.optional(v.string()),
	reset_message: v.optional(v.string()),
	evaluator: v.union([v.picklist(BUILT_IN_EVALUATORS), GenericRuleSchema]),
	examples: v.pipe(v.array(v.unknown()), v.minLength(1)),
});

const Suite = v.strictObject({
	format: v.literal('ltm-suite/1'),
	config: v.optional(
		v.strictObject({
			run_name: v.optional(v.string()),
			memory_span: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
			incompatibilities: v.optional(v.array(v.array(v.string()))),
			isolated: v.optional(v.boolean()),
			seed: v.optional(v.number()),
			tokenizer: v.optional(v.picklist(['agent', 'cl100k'])),
		}),
	),
	datasets: v.pipe(v.array(Dataset), v.minLength(1)),
});

type SuiteInput = v.InferOutput<typeof Suite>;

export interface LoadSuiteOptions {
	readonly memorySpan?: number;
	readonly isolated?: boolean;
	readonly countTokens?: CountTokens;
}

/** JSON pointer of a valibot issue path. */
function pointerOf(issue: v.BaseIssue<unknown>): string {
	return (issue.path ?? []).map((item) => `/${String(item.key)}`).join('');
}

/**
 * The deepest sub-issue of a union issue, which names the real problem. A union's sub-issues are
 * located from the union's own place, so the union's path is put in front of theirs.
 */
function deepest(issue: v.BaseIssue<unknown>): v.BaseIssue<unknown> {
	let best = issue;
	for (const sub of issue.issues ?? []) {
		const inner = deepest(sub);
		const candidate = startsWith(inner.path ?? [], issue.path ?? [])
			? inner
			: { ...inner, path: [...(issue.path ?? []), ...(inner.path ?? [])] as typeof inner.path };
		if ((candidate.path?.length ?? 0) > (best.path?.length ?? 0)) best = candidate;
	}
	return best;
}

function startsWith(
	path: readonly { key: unknown }[],
	prefix: readonly { key: unknown }[],
): boolean {
	return prefix.length > 0 && prefix.every((item, index) => path[index]?.key === item.key);
}

/** Parses and checks an `ltm-suite.json` text; `path` names the file in messages. */
export function loadLtmSuite(
	path: string,
	text: string,
	options: LoadSuiteOptions = {},
): LoadResult {
	const read = readDefinitionJson(text);
	if (!read.ok) return { ok: false, diagnostics: [diag(path, '', read.message)] };
	const parsed = v.safeParse(Suite, read.value);
	if (!parsed.success) {
		return {
			ok: false,
			diagnostics: parsed.issues.map((issue) => {
				const inner = deepest(issue);
				const pointer = pointerOf(inner);
				const rule = pointer.endsWith('/evaluator') ? RULE_OBJECT : undefined;
				return diag(path, pointer, describeIssue(inner, rule));
			}),
		};
	}
	return buildBenchmark(path, parsed.output, options);
}

type DatasetInput = SuiteInput['datasets'][number];
type StaticInput = v.InferOutput<typeof StaticExample>;
type DynamicInput = v.InferOutput<typeof DynamicExample>;

/** What every example of a suite is checked against, and where its problems go. */
interface SuiteScope {
	readonly path: string;
	readonly memorySpan: number;
	readonly count: CountTokens;
	readonly diagnostics: LtmDiagnostic[];
}

/** The fields a test takes from its dataset and its place in the file, whatever its kind. */
type TestBase = Pick<
	LtmTestDefinition,
	| 'uniqueId'
	| 'datasetName'
	| 'exampleId'
	| 'configName'
	| 'evaluator'
	| 'description'
	| 'resetMessage'
	| 'source'
>;

function buildBenchmark(path: string, suite: SuiteInput, options: LoadSuiteOptions): LoadResult {
	const diagnostics: LtmDiagnostic[] = [];
	const memorySpan = options.memorySpan ?? suite.config?.memory_span ?? DEFAULT_MEMORY_SPAN;
	const scope: SuiteScope = {
		path,
		memorySpan,
		count: options.countTokens ?? estimateTokens,
		diagnostics,
	};
	const tests = suite.datasets.flatMap((dataset, datasetIndex) =>
		readDataset(dataset, datasetIndex, scope),
	);
	checkUniqueIds(path, tests, diagnostics);
	if (diagnostics.length > 0) return { ok: false, diagnostics };
	tests.sort((a, b) => compareIds(a.uniqueId, b.uniqueId));
	const benchmark: LtmBenchmark = { config: suiteConfig(suite, options, memorySpan), tests };
	return { ok: true, benchmark, diagnostics };
}

function suiteConfig(
	suite: SuiteInput,
	options: LoadSuiteOptions,
	memorySpan: number,
): LtmBenchmark['config'] {
	return {
		runName: suite.config?.run_name ?? 'LTM suite',
		memorySpan,
		incompatibilities: suite.config?.incompatibilities ?? [],
		isolated: options.isolated ?? suite.config?.isolated ?? false,
		...(suite.config?.tokenizer !== undefined ? { tokenizer: suite.config.tokenizer } : {}),
		...(suite.config?.seed !== undefined ? { seed: suite.config.seed } : {}),
	};
}

function checkUniqueIds(
	path: string,
	tests: readonly LtmTestDefinition[],
	diagnostics: LtmDiagnostic[],
): void {
	const seen = new Set<string>();
	for (const test of tests) {
		if (seen.has(test.uniqueId))
			diagnostics.push(
				diag(
					path,
					test.source.split('#')[1] ?? '',
					`two tests share the id '${test.uniqueId}': give each example its own "id"`,
				),
			);
		seen.add(test.uniqueId);
	}
}

/** The tests of one dataset, in file order; examples that fail their schema give none. */
function readDataset(
	dataset: DatasetInput,
	datasetIndex: number,
	scope: SuiteScope,
): LtmTestDefinition[] {
	const evaluator = dataset.evaluator as EvaluatorSpec;
	if (typeof evaluator !== 'string' && evaluator.rule === 'regex') {
		const refused = regexRefusal(evaluator.pattern, evaluator.flags);
		if (refused)
			scope.diagnostics.push(
				diag(
					scope.path,
					`/datasets/${datasetIndex}/evaluator/pattern`,
					`dataset '${dataset.name}': ${refused}`,
				),
			);
	}
	const tests: LtmTestDefinition[] = [];
	dataset.examples.forEach((raw, exampleIndex) => {
		const pointer = `/datasets/${datasetIndex}/examples/${exampleIndex}`;
		const test = readExample(raw, dataset, evaluator, exampleIndex, pointer, scope);
		if (test) tests.push(test);
	});
	return tests;
}

/** An example checked against the schema its `type` picks (none: a static script). */
function parseExample(raw: unknown) {
	const type =
		typeof raw === 'object' && raw !== null && 'type' in raw
			? (raw as { type: unknown }).type
			: undefined;
	return type === 'restaurant'
		? v.safeParse(BuiltInExample, raw)
		: type !== undefined
			? v.safeParse(DynamicExample, raw)
			: v.safeParse(StaticExample, raw);
}

function readExample(
	raw: unknown,
	dataset: DatasetInput,
	evaluator: EvaluatorSpec,
	exampleIndex: number,
	pointer: string,
	scope: SuiteScope,
): LtmTestDefinition | undefined {
	const parsed = parseExample(raw);
	if (!parsed.success) {
		for (const issue of parsed.issues) {
			const inner = deepest(issue);
			scope.diagnostics.push(diag(scope.path, pointer + pointerOf(inner), describeIssue(inner)));
		}
		return undefined;
	}
	const example = parsed.output;
	const exampleId = example.id ?? String(exampleIndex);
	const known = findLtmDataset(dataset.name);
	const base: TestBase = {
		uniqueId: `${dataset.name} - ${exampleId}`,
		datasetName: dataset.name,
		exampleId,
		configName: dataset.config_name ?? known?.configName ?? dataset.name,
		evaluator,
		description: dataset.description ?? known?.description ?? '',
		resetMessage: dataset.reset_message ?? '',
		source: `${scope.path}#${pointer}`,
	};
	if ('type' in example && example.type === 'restaurant') {
		return scriptlessTest(base, {
			builtIn: 'restaurant',
			maxScore: RESTAURANT_MAX_SCORE,
			vars: {},
			steps: [],
		});
	}
	if ('type' in example) {
		checkSteps(example.steps, scope.path, `${pointer}/steps`, scope.diagnostics);
		return dynamicTest(base, example);
	}
	return staticTest(base, example, pointer, scope);
}

function dynamicTest(base: TestBase, example: DynamicInput): LtmTestDefinition {
	return scriptlessTest(base, {
		maxScore: example.max_score,
		vars: example.vars ?? {},
		steps: example.steps as DynamicStep[],
	});
}

/** A dynamic test: its conversation is its program's, so it has no script of its own. */
function scriptlessTest(
	base: TestBase,
	dynamic: NonNullable<LtmTestDefinition['dynamic']>,
): LtmTestDefinition {
	return {
		...base,
		script: [],
		isQuestion: [],
		waits: [],
		expectedResponses: [],
		isTemporal: false,
		usesCallback: false,
		canBeInterleaved: true,
		dynamic,
	};
}

function staticTest(
	base: TestBase,
	example: StaticInput,
	pointer: string,
	scope: SuiteScope,
): LtmTestDefinition {
	const lines = example.is_question.length;
	const waits: LtmWait[] = (example.waits ?? []).map(
		(wait) => JSON.parse(JSON.stringify(wait)) as LtmWait,
	);
	checkStaticLines(example, waits, pointer, scope);
	checkStaticScript(example, base.evaluator, pointer, scope);
	const watch = example.watch
		? {
				afterLine: example.watch.after_step,
				nthResponse: example.watch.nth_response,
				mustContain: example.watch.must_contain,
				normalise: example.watch.normalise ?? 'standardise',
				exclusive: example.watch.exclusive ?? true,
			}
		: undefined;
	return {
		...base,
		script: example.script,
		isQuestion: watch
			? example.is_question.map((_, index) => index === watch.afterLine)
			: example.is_question,
		waits: waits.length === 0 ? defaultWaits(lines) : waits,
		expectedResponses: example.expected_responses as JsonValue[],
		isTemporal: example.is_temporal ?? false,
		usesCallback: (example.uses_callback ?? false) || watch !== undefined,
		canBeInterleaved: example.can_be_interleaved ?? true,
		...(watch ? { watch } : {}),
	};
}

/** `is_question` and `waits` measured against the script: one entry per line. */
function checkStaticLines(
	example: StaticInput,
	waits: readonly LtmWait[],
	pointer: string,
	{ path, diagnostics }: SuiteScope,
): void {
	const lines = example.is_question.length;
	if (
		lines !== example.script.length &&
		!(example.is_temporal === true && lines === example.script.length + 1)
	) {
		diagnostics.push(
			diag(
				path,
				`${pointer}/is_question`,
				`has ${lines} entries for ${example.script.length} script lines: give one per line`,
			),
		);
	}
	if (!example.is_question.includes(true)) {
		diagnostics.push(
			diag(path, `${pointer}/is_question`, 'the test has no question: mark at least one line true'),
		);
	}
	if (waits.length !== 0 && waits.length !== lines) {
		diagnostics.push(
			diag(
				path,
				`${pointer}/waits`,
				`has ${waits.length} entries for ${lines} lines: give one per line, or none for the defaults`,
			),
		);
	}
}

/** The script fits the memory span, and a `watch` names one of its lines. */
function checkStaticScript(
	example: StaticInput,
	evaluator: EvaluatorSpec,
	pointer: string,
	{ path, memorySpan, count, diagnostics }: SuiteScope,
): void {
	const tokens = scriptTokens(example.script, count);
	if (tokens >= memorySpan) {
		diagnostics.push(
			diag(
				path,
				`${pointer}/script`,
				`the script takes ${tokens} tokens, which does not fit the memory span of ${memorySpan}: raise memory_span or shorten the script`,
			),
		);
	}
	if (example.watch && example.watch.after_step >= example.script.length) {
		diagnostics.push(
			diag(
				path,
				`${pointer}/watch/after_step`,
				`names line ${example.watch.after_step}, but the script has ${example.script.length} lines`,
			),
		);
	}
	if (evaluator === 'watch' && !example.watch) {
		diagnostics.push(
			diag(path, `${pointer}`, 'the dataset evaluator is "watch": give the example a "watch"'),
		);
	}
}

function diag(path: string, pointer: string, message: string): LtmDiagnostic {
	return { severity: 'error', path, pointer, message };
}

export type { GenericRule };
