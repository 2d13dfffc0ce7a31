import { describe, expect, it } from 'vitest';
import {
	EVALS_RUN_BUNDLE_FORMAT,
	buildEvalsRunBundle,
	readEvalsRunBundle,
	serializeEvalsRunBundle,
	shownRunOfBundle,
	type EvalsBundleSample,
	type PortableEvalsRun,
} from '../../../src/core/evals/evals-run-bundle';
import { shownRunOfStored } from '../../../src/core/evals/shown-run';
import type { EvalEvent, ResolvedEval, SampleResult } from '../../../src/core/evals/shared/types';
import type { TextModelSpec } from '../../../src/core/model/model-spec';

const MATCH: ResolvedEval = {
	name: 'capitals.dev.v0',
	requestedName: 'capitals',
	className: 'evals.elsuite.basic.match:Match',
	kind: 'match',
	args: { samples_jsonl: 'capitals.jsonl' },
	file: 'evals/capitals.yaml',
	samples: [
		{ input: 'Q1', ideal: 'Paris' },
		{ input: 'Q2', ideal: 'Rome' },
	],
	fewShot: [],
	ignoreCase: false,
	sampleLocations: [
		{ file: 'capitals.jsonl', line: 1 },
		{ file: 'capitals.jsonl', line: 2 },
	],
} as ResolvedEval;
const TINY: TextModelSpec = {
	source: 'bundled',
	id: 'gpt2-random-tiny',
	dtype: 'fp32',
	backend: 'wasm',
};
const ENDPOINT = {
	source: 'openai',
	model: 'm',
	baseUrl: 'http://127.0.0.1:8000/v1',
	apiKey: 'sk-secret',
};

function result(index: number, completion: string, correct: boolean): SampleResult {
	return {
		sampleId: `capitals.dev.v0.${index}`,
		index,
		sample: MATCH.samples[index]!,
		calls: [],
		completion,
		correct,
	};
}
function event(index: number, eventId: number, correct: boolean): EvalEvent {
	return {
		run_id: 'RUN',
		event_id: eventId,
		sample_id: `capitals.dev.v0.${index}`,
		type: 'match',
		data: { correct },
		created_by: '',
		created_at: '2026-11-24 05:30:00.000000+00:00',
	};
}

const RUN: PortableEvalsRun & { id: number; replayTexts: Record<string, string> } = {
	id: 3,
	replayTexts: { ab: 'replay text' },
	evalName: 'capitals',
	spec: { registryFiles: { 'evals/capitals.yaml': 'ab'.repeat(32) }, eval: MATCH },
	models: { policy: [TINY], grader: ENDPOINT as TextModelSpec },
	overrides: { policy: { max_tokens: 4 }, grader: {} },
	seed: 20220722,
	runId: 'RUN',
	status: 'done',
	progress: { done: 2, total: 2, tokens: 9, elapsedMs: 120 },
	createdAt: Date.UTC(2026, 10, 24, 5, 30),
	updatedAt: Date.UTC(2026, 10, 24, 5, 31),
	report: { accuracy: 0.5, boostrap_std: Number.NaN },
};
// Stored out of order: the bundle keeps evaluation order.
const SAMPLES: EvalsBundleSample[] = [
	{
		sampleId: 'capitals.dev.v0.1',
		position: 1,
		result: result(1, 'Milan', false),
		events: [event(1, 1, false)],
	},
	{
		sampleId: 'capitals.dev.v0.0',
		position: 0,
		result: result(0, 'Paris', true),
		events: [event(0, 0, true)],
	},
];

/** A bundle's JSON to edit: without its results' SHA-256 (an edited bundle opens only without
 * it), so a refusal below is the schema's. */
function bundleJson(): Record<string, unknown> {
	const { resultsSha256: _sealed, ...json } = JSON.parse(
		serializeEvalsRunBundle(buildEvalsRunBundle(RUN, SAMPLES)),
	) as Record<string, unknown>;
	return json;
}

// A bundle's JSON as the tests edit it (any shape, to write refused inputs).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

describe('Evals run bundle', () => {
	it('round-trips a stored run: record, samples in order, NaN metrics; no key, id or replay text', () => {
		const text = serializeEvalsRunBundle(buildEvalsRunBundle(RUN, SAMPLES));
		expect(text).not.toContain('sk-secret');
		expect(text).not.toContain('replay text');
		const read = readEvalsRunBundle(text);
		if (!read.ok) throw new Error(`${read.pointer}: ${read.message}`);
		const { bundle } = read;
		expect(bundle).toMatchObject({ format: 'benchtop-run/2', kind: 'evals' });
		expect(JSON.parse(text)).toMatchObject({ format: 'benchtop-run/2', kind: 'evals' });
		expect(bundle.run.models.grader).toEqual({
			source: 'openai',
			model: 'm',
			baseUrl: 'http://127.0.0.1:8000/v1',
		});
		expect(bundle.run.report?.accuracy).toBe(0.5);
		expect(bundle.run.report?.boostrap_std).toBeNaN();
		expect(bundle.run.spec.eval.sampleLocations).toEqual(MATCH.sampleLocations);
		expect(bundle.samples.map((s) => s.position)).toEqual([0, 1]);
		expect(bundle.samples[1]?.result).toEqual(result(1, 'Milan', false));
		expect('id' in bundle.run).toBe(false);
	});

	it('shows an imported bundle as the stored run is shown, marked as a past run', () => {
		const read = readEvalsRunBundle(serializeEvalsRunBundle(buildEvalsRunBundle(RUN, SAMPLES)));
		if (!read.ok) throw new Error(read.message);
		const shown = shownRunOfBundle(read.bundle, 'capitals.json');
		const stored = shownRunOfStored(
			RUN,
			[...SAMPLES].sort((a, b) => a.position - b.position),
		);
		expect(shown.source).toBe('log');
		expect(shown.runRecordId).toBeUndefined();
		expect(shown.title).toContain('(bundle capitals.json)');
		expect(shown.rows).toEqual(stored.rows);
		expect(shown.events).toEqual(stored.events);
		expect(shown.spec).toEqual(stored.spec);
		expect(shown.paramsSent).toEqual(stored.paramsSent);
		expect(shown.report?.accuracy).toBe(0.5);
	});

	it('reads a bundle of 0.1.0 (benchtop-evals-run/1) as the same run', () => {
		const { kind: _kind, ...body } = bundleJson();
		const release = readEvalsRunBundle(
			JSON.stringify({ ...body, format: EVALS_RUN_BUNDLE_FORMAT }),
		);
		expect(release).toEqual(readEvalsRunBundle(JSON.stringify(bundleJson())));
		expect(release.ok).toBe(true);
	});

	it('names a bundle of another kind and the page that opens it', () => {
		const read = readEvalsRunBundle(JSON.stringify({ ...bundleJson(), kind: 'ltm' }));
		expect(read).toMatchObject({ ok: false, pointer: '/kind' });
		expect(!read.ok && read.message).toContain(
			'a bundle of another kind of run ("ltm"), not an Evals run bundle: import it in the Library, which opens runs of every kind',
		);
	});

	it.each<[string, (json: Json) => unknown, string, RegExp]>([
		['not a bundle', () => ({ spec: {} }), '/format', /not an Evals run bundle/],
		['a newer format', (j) => ({ ...j, format: 'benchtop-evals-run/2' }), '/format', /newer/],
		['a top-level array', () => [], '', /./],
		['no eval name', (j) => ({ ...j, run: { ...j.run, evalName: 3 } }), '/run/evalName', /./],
		[
			'an unknown template kind',
			(j) => ({
				...j,
				run: { ...j.run, spec: { ...j.run.spec, eval: { ...j.run.spec.eval, kind: 'x' } } },
			}),
			'/run/spec/eval/kind',
			/./,
		],
		[
			'a model spec with an unknown source',
			(j) => ({ ...j, run: { ...j.run, models: { policy: [{ source: 'gguf' }] } } }),
			'/run/models/policy/0/source',
			/./,
		],
		[
			'an unknown status',
			(j) => ({ ...j, run: { ...j.run, status: 'completed' } }),
			'/run/status',
			/./,
		],
		[
			'a report value that is not a number',
			(j) => ({ ...j, run: { ...j.run, report: { accuracy: 'high' } } }),
			'/run/report/accuracy',
			/./,
		],
		[
			'a negative sample position',
			(j) => ({ ...j, samples: [{ ...j.samples[0], position: -1 }] }),
			'/samples/0/position',
			/./,
		],
		[
			'a sample result without its completion',
			(j) => ({
				...j,
				samples: [
					j.samples[0],
					{ ...j.samples[1], result: { ...j.samples[1].result, completion: undefined } },
				],
			}),
			'/samples/1/result/completion',
			/./,
		],
		[
			'a creation time past what a date holds (8.65e15)',
			(j) => ({ ...j, run: { ...j.run, createdAt: 8.65e15 } }),
			'/run/createdAt',
			/within the years 0000 to 9999/,
		],
		[
			'an update time that is a string',
			(j) => ({ ...j, run: { ...j.run, updatedAt: '2026-01-01' } }),
			'/run/updatedAt',
			/time in milliseconds/,
		],
		[
			'an event without its sample id',
			(j) => ({
				...j,
				samples: [{ ...j.samples[0], events: [{ ...j.samples[0].events[0], sample_id: 1 }] }],
			}),
			'/samples/0/events/0/sample_id',
			/./,
		],
	])('refuses %s, pointing at it', (_name, edit, pointer, message) => {
		const read = readEvalsRunBundle(JSON.stringify(edit(bundleJson())));
		expect(read.ok).toBe(false);
		if (read.ok) return;
		expect(read.pointer).toBe(pointer);
		expect(read.message).toMatch(message);
	});

	it('refuses text that is not JSON, at the top', () => {
		const read = readEvalsRunBundle('{"format": ');
		expect(read).toMatchObject({ ok: false, pointer: '' });
	});
});
