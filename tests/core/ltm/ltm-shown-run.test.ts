// What the Memory page offers of the shown run: its models' label, its share payload (finished
// runs only), whether a re-run reproduced a shared run, a bundle's run as shown,
// the results zip and the summary text.
import { strFromU8, unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import {
	IMPORTED_LTM_RUN_ID,
	describeLtmRunModels,
	importedLtmRun,
	ltmReproductionOf,
	ltmResultsZip,
	ltmSharePayloadOf,
	ltmSummaryText,
} from '../../../src/core/ltm/ltm-shown-run';
import { buildLtmRunBundle } from '../../../src/core/ltm/ltm-run-bundle';
import { buildLtmReport } from '../../../src/core/ltm/report';
import type { LtmRunState } from '../../../src/core/ltm/scheduler';
import {
	decodeLtmShare,
	encodeLtmShare,
	ltmScoresFingerprint,
	type LtmSharePayload,
} from '../../../src/core/ltm/share-payload';
import { describeModelSpec } from '../../../src/core/model/model-spec';
import { finishedRecord, finishedState } from './finished-ltm-run';

let state: LtmRunState;
beforeAll(async () => {
	state = await finishedState();
});

describe('describeLtmRunModels', () => {
	it('names the agent, then the judge when there is one', () => {
		const run = finishedRecord(state);
		const agent = describeModelSpec(run.models.agent);
		const judge = describeModelSpec(run.models.judge!);
		expect(describeLtmRunModels(run)).toBe(`${agent} · judge ${judge}`);
		expect(describeLtmRunModels({ models: { agent: run.models.agent } })).toBe(agent);
	});
});

describe('ltmSharePayloadOf', () => {
	it('carries the finished run’s definitions, models, settings and scores, and reads back', () => {
		const run = finishedRecord(state);
		const payload = ltmSharePayloadOf(run, state);
		expect(payload).toMatchObject({
			v: 1,
			runName: 'colours',
			benchmark: run.definitions.benchmark,
			models: run.models,
			agentParams: { max_tokens: 16 },
			maxContextTokens: 300,
			maxMessageTokens: 150,
			replayTexts: run.replayTexts,
			memorySpan: 200,
			isolated: false,
			scores: { 'Colours - 0': 1, 'Colours - 1': 0 },
		});
		expect(payload!.fingerprint).toBe(ltmScoresFingerprint(payload!.scores));
		expect(run).toEqual(finishedRecord(state));
		expect(decodeLtmShare(encodeLtmShare(payload!))).toEqual(payload);
	});

	it('is null for a run not finished, or without its state', () => {
		expect(ltmSharePayloadOf({ ...finishedRecord(state), status: 'cancelled' }, state)).toBeNull();
		expect(ltmSharePayloadOf(finishedRecord(state), null)).toBeNull();
	});

	it('leaves out the limits and the judge the run does not have', () => {
		const run = finishedRecord(state);
		const { maxContextTokens: _context, maxMessageTokens: _message, ...bare } = run;
		const payload = ltmSharePayloadOf({ ...bare, models: { agent: run.models.agent } }, state)!;
		expect('maxContextTokens' in payload).toBe(false);
		expect('maxMessageTokens' in payload).toBe(false);
		expect('judge' in payload.models).toBe(false);
		expect(decodeLtmShare(encodeLtmShare(payload))).toEqual(payload);
	});
});

describe('ltmReproductionOf', () => {
	let shared: LtmSharePayload;
	beforeAll(() => {
		shared = ltmSharePayloadOf(finishedRecord(state), state)!;
	});

	it('says the finished re-run reproduced the shared scores', () => {
		const rerun = finishedRecord(state, 12);
		expect(ltmReproductionOf({ shared, rerunId: 12, run: rerun, state })).toEqual({
			reproduced: true,
			matching: 2,
			total: 2,
			differing: [],
		});
	});

	it('names a test whose score differs', () => {
		const changed: LtmSharePayload = { ...shared, scores: { ...shared.scores, 'Colours - 1': 1 } };
		const reproduction = ltmReproductionOf({
			shared: changed,
			rerunId: 12,
			run: finishedRecord(state, 12),
			state,
		});
		expect(reproduction?.reproduced).toBe(false);
		expect(reproduction?.differing).toEqual([{ id: 'Colours - 1', shared: 1, rerun: 0 }]);
	});

	it('is null unless the shown run is the finished re-run of the shared one', () => {
		const rerun = finishedRecord(state, 12);
		expect(ltmReproductionOf({ shared: null, rerunId: 12, run: rerun, state })).toBeNull();
		expect(ltmReproductionOf({ shared, rerunId: null, run: rerun, state })).toBeNull();
		expect(ltmReproductionOf({ shared, rerunId: 13, run: rerun, state })).toBeNull();
		expect(ltmReproductionOf({ shared, rerunId: 12, run: null, state })).toBeNull();
		expect(ltmReproductionOf({ shared, rerunId: 12, run: rerun, state: null })).toBeNull();
		const running = { ...rerun, status: 'running' as const };
		expect(ltmReproductionOf({ shared, rerunId: 12, run: running, state })).toBeNull();
	});
});

describe('importedLtmRun', () => {
	it('shows a bundle’s run under the imported id, titled by its name, without replay texts', () => {
		const bundle = buildLtmRunBundle(finishedRecord(state), state);
		const run = importedLtmRun(bundle.run);
		expect(run).toEqual({
			...bundle.run,
			kind: 'ltm',
			title: 'colours',
			id: IMPORTED_LTM_RUN_ID,
			replayTexts: {},
		});
		expect(IMPORTED_LTM_RUN_ID).toBeLessThan(1);
	});
});

describe('results and summary', () => {
	it('zips upstream’s result file of each test and summary.json', () => {
		const report = buildLtmReport(state);
		const files = unzipSync(ltmResultsZip(report));
		expect(Object.keys(files).sort()).toEqual([
			'Colours/0_0.json',
			'Colours/1_0.json',
			'summary.json',
		]);
		expect(JSON.parse(strFromU8(files['summary.json']!))).toEqual(report.summary);
		expect(JSON.parse(strFromU8(files['Colours/1_0.json']!))).toMatchObject({ score: 0 });
	});

	it('writes the summary as indented JSON', () => {
		const report = buildLtmReport(state);
		const text = ltmSummaryText(report);
		expect(JSON.parse(text)).toEqual(report.summary);
		expect(text).toContain('\n  "');
	});
});
