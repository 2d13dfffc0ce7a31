// Inspect logs checked against Inspect's own OpenAPI document (../shared/peer/inspect, read at run
// time, never copied): every log these tests write (core builder, each template, a cancelled run,
// a run cut by max_tokens, the oaieval CLI's --inspect_log file) is validated strictly with ajv's
// JSON Schema 2020-12 build: every required field, no unknown key where the schema forbids one.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { afterAll, expect, it } from 'vitest';
import { oaievalCommand } from '../../src/cli/commands/oaieval';
import { buildInspectLog, inspectLogOfStored } from '../../src/core/evals/inspect-log';
import { readRegistry, registryFiles, resolveEval } from '../../src/core/evals/registry';
import { runEval, type EvalRunResult } from '../../src/core/evals/run-eval';
import type { ResolvedEval } from '../../src/core/evals/shared/types';
import type { GenerationEvent, TextModel } from '../../src/core/model/generation';
import { runCliCommand } from '../cli/run-cli-command';
import { describeWithPeer, peerPath } from './peer-data';

const DOCUMENT = 'inspect/inspect-openapi.json';

/** The ajv errors of `log` against `EvalLog` (none: valid), as `path: message` lines. */
function inspectLogErrors(log: unknown): string[] {
	const document = JSON.parse(readFileSync(peerPath(DOCUMENT), 'utf8')) as {
		components: object;
	};
	// strict: false lets ajv pass over OpenAPI-only keywords (`discriminator`); formats are
	// annotations in 2020-12. The checks that matter (required, types, enums, const,
	// additionalProperties: false) are standard 2020-12 keywords.
	const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
	const validate = ajv.compile({
		$ref: '#/components/schemas/EvalLog',
		components: document.components,
	});
	if (validate(log)) return [];
	return (validate.errors ?? []).map(
		(error) =>
			`${error.instancePath || '/'}: ${error.message ?? ''} ${JSON.stringify(error.params)}`,
	);
}

function evalOf(yaml: string, samples: string): ResolvedEval {
	return resolveEval(
		readRegistry(
			registryFiles([
				['evals/t.yaml', yaml],
				['data/s.jsonl', samples],
			]),
		),
		't.dev.v0',
	);
}

/** A model answering `answer`, with usage, stopping for `finishReason`. */
function model(label: string, answer: string, finishReason: 'stop' | 'length' = 'stop'): TextModel {
	return {
		label,
		abilities: { score: false, generate: true, chat: true },
		countTokens: (text) => text.length,
		async *generate(): AsyncIterable<GenerationEvent> {
			await Promise.resolve();
			yield {
				type: 'done',
				completion: answer,
				finishReason,
				usage: { promptTokens: 12, completionTokens: answer.length },
			};
		},
	};
}

function logOf(evalSpec: ResolvedEval, result: EvalRunResult, label: string): unknown {
	return buildInspectLog({
		evalSpec,
		runId: result.runId,
		modelLabel: label,
		samples: result.samples,
		order: result.order,
		finalReport: result.finalReport,
		cancelled: result.cancelled,
		startedAt: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678)),
		completedAt: new Date(Date.UTC(2026, 0, 2, 3, 4, 9, 12)),
	});
}

const SAMPLES =
	'{"input": "Say yes", "ideal": "yes"}\n{"input": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Say no"}], "ideal": ["no", "nope"]}\n';

const TEMPLATES: readonly [string, string][] = [
	['Match', 'evals.elsuite.basic.match:Match'],
	['Includes', 'evals.elsuite.basic.includes:Includes'],
	['FuzzyMatch', 'evals.elsuite.basic.fuzzy_match:FuzzyMatch'],
];

describeWithPeer('Inspect logs against inspect-openapi.json (EvalLog)', [DOCUMENT], () => {
	const dir = mkdtempSync(join(tmpdir(), 'benchtop-inspect-'));
	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	it.each(TEMPLATES)('a %s run is a valid EvalLog', async (_name, cls) => {
		const evalSpec = evalOf(
			`t.dev.v0:\n  class: ${cls}\n  args:\n    samples_jsonl: s.jsonl\n`,
			SAMPLES,
		);
		const result = await runEval(evalSpec, { policy: [model('m', 'yes')], runId: 'r1' });
		expect(inspectLogErrors(logOf(evalSpec, result, 'm'))).toEqual([]);
	});

	it('a JsonMatch run is a valid EvalLog', async () => {
		const evalSpec = evalOf(
			't.dev.v0:\n  class: evals.elsuite.basic.json_match:JsonMatch\n  args:\n    samples_jsonl: s.jsonl\n',
			'{"input": "Give JSON", "ideal": "{\\"a\\": 1}"}\n',
		);
		const result = await runEval(evalSpec, { policy: [model('m', '{"a": 1}')], runId: 'r2' });
		expect(inspectLogErrors(logOf(evalSpec, result, 'm'))).toEqual([]);
	});

	it('a model-graded run (policy and grader) is a valid EvalLog', async () => {
		const evalSpec = evalOf(
			't.dev.v0:\n  class: evals.elsuite.modelgraded.classify:ModelBasedClassify\n  args:\n    samples_jsonl: s.jsonl\n    modelgraded_spec: closedqa\n    modelgraded_spec_args:\n      criteria: c\n',
			'{"input": "q", "ideal": "a"}\n{"input": "q2", "ideal": "b"}\n',
		);
		const result = await runEval(evalSpec, {
			policy: [model('policy', 'an answer')],
			grader: model('grader', 'fine\nY'),
			runId: 'r3',
		});
		expect(inspectLogErrors(logOf(evalSpec, result, 'policy'))).toEqual([]);
	});

	it('a cancelled run and a run cut by max_tokens are valid EvalLogs', async () => {
		const evalSpec = evalOf(
			't.dev.v0:\n  class: evals.elsuite.basic.match:Match\n  args:\n    samples_jsonl: s.jsonl\n',
			SAMPLES,
		);
		const cut = await runEval(evalSpec, { policy: [model('m', 'ye', 'length')], runId: 'r4' });
		expect(inspectLogErrors(logOf(evalSpec, cut, 'm'))).toEqual([]);
		const cancelled = await runEval(evalSpec, {
			policy: [model('m', 'yes')],
			runId: 'r5',
			signal: { aborted: true },
		});
		expect(cancelled.cancelled).toBe(true);
		expect(inspectLogErrors(logOf(evalSpec, cancelled, 'm'))).toEqual([]);
	});

	it("the Evals page's export of a stored run (with overrides) is a valid EvalLog", async () => {
		const evalSpec = evalOf(
			't.dev.v0:\n  class: evals.elsuite.basic.includes:Includes\n  args:\n    samples_jsonl: s.jsonl\n',
			SAMPLES,
		);
		const result = await runEval(evalSpec, { policy: [model('m', 'yes')], runId: 'r6' });
		const record = {
			id: 1,
			evalName: 't',
			spec: { eval: evalSpec },
			models: { policy: [{ source: 'replay' as const, file: 'm.jsonl', sha256: 'ab' }] },
			overrides: { policy: { max_tokens: 4 }, grader: {} },
			seed: 1,
			runId: result.runId,
			status: 'cancelled',
			createdAt: Date.UTC(2026, 0, 2),
		};
		const samples = result.samples.slice(0, 1).map((sample) => ({ result: sample }));
		const log = inspectLogOfStored(record, samples, new Date(Date.UTC(2026, 0, 2, 0, 1)));
		expect(log.status).toBe('cancelled');
		expect(inspectLogErrors(log)).toEqual([]);
	});

	it('the file oaieval --inspect_log writes is a valid EvalLog', async () => {
		const replay = join(dir, 'replay.jsonl');
		writeFileSync(replay, `${JSON.stringify({ when: '', completion: 'Oslo' })}\n`);
		const path = join(dir, 'inspect.json');
		const run = await runCliCommand(
			oaievalCommand,
			[`replay:${replay}`, 'capitals', '--max_samples', '3', '--inspect_log', path],
			'disk',
		);
		expect(run.exitCode).toBe(0);
		expect(inspectLogErrors(JSON.parse(readFileSync(path, 'utf8')))).toEqual([]);
	});
});
