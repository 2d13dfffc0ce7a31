/**
 * The run the Memory page shows, and what it offers of it: the label of its models, its share
 * link's payload, whether a re-run reproduced a shared run, the run as read from a bundle, the
 * results zip and the summary text. Pure.
 */
import { zipTexts } from '../formats/zip-archive';
import type { LtmRunRecord } from './ltm-run-record';
import { describeModelSpec } from '../model/model-spec';
import { goodaiTestResultText } from './goodai-files';
import type { PortableLtmRun } from './ltm-run-bundle';
import type { LtmReport } from './report';
import type { LtmRunState } from './scheduler';
import {
	compareLtmScores,
	ltmScoresFingerprint,
	ltmScoresOf,
	type LtmReproduction,
	type LtmSharePayload,
} from './share-payload';

/** The id of a shown run imported from a bundle (stored ids start at 1). */
export const IMPORTED_LTM_RUN_ID = -1;

/** Label of a run's agent (and judge): `<agent> · judge <judge>`. */
export function describeLtmRunModels(run: Pick<LtmRunRecord, 'models'>): string {
	return (
		describeModelSpec(run.models.agent) +
		(run.models.judge ? ` · judge ${describeModelSpec(run.models.judge)}` : '')
	);
}

/**
 * The share payload of a finished run (null before it is done or without its state): its
 * definitions, agent and judge specs (never a key), parameters, replay texts, span, isolation and
 * scores with their fingerprint.
 */
export function ltmSharePayloadOf(
	run: LtmRunRecord,
	state: LtmRunState | null,
): LtmSharePayload | null {
	if (!state || run.status !== 'done') return null;
	const scores = ltmScoresOf(state);
	return {
		v: 1,
		runName: run.runName,
		benchmark: run.definitions.benchmark,
		models: {
			agent: run.models.agent,
			...(run.models.judge ? { judge: run.models.judge } : {}),
		},
		agentParams: run.agentParams,
		...(run.maxContextTokens !== undefined ? { maxContextTokens: run.maxContextTokens } : {}),
		...(run.maxMessageTokens !== undefined ? { maxMessageTokens: run.maxMessageTokens } : {}),
		replayTexts: run.replayTexts,
		memorySpan: run.memorySpan,
		isolated: run.isolated,
		scores,
		fingerprint: ltmScoresFingerprint(scores),
	};
}

/** The shown run, its state, and the shared run it may re-run (`rerunId`: the re-run's id). */
export interface ShownLtmRerun {
	readonly shared: LtmSharePayload | null;
	readonly rerunId: number | null;
	readonly run: LtmRunRecord | null;
	readonly state: LtmRunState | null;
}

/**
 * Whether the shown run, a finished re-run of the shared one, reproduced the sharer's scores;
 * null when the shown run is not that finished re-run.
 */
export function ltmReproductionOf(shown: ShownLtmRerun): LtmReproduction | null {
	const { shared, state, rerunId, run } = shown;
	if (!shared || !state || rerunId === null) return null;
	if (run?.id !== rerunId || run.status !== 'done') return null;
	return compareLtmScores(shared.scores, ltmScoresOf(state));
}

/** A bundle's run as the page shows it: not stored (id IMPORTED_LTM_RUN_ID), no replay texts. */
export function importedLtmRun(run: PortableLtmRun): LtmRunRecord {
	return {
		...run,
		kind: 'ltm',
		title: run.runName,
		id: IMPORTED_LTM_RUN_ID,
		replayTexts: {},
	};
}

/** Upstream's result files (`<Dataset Name>/<example_id>_0.json`) and summary.json, zipped. */
export function ltmResultsZip(report: LtmReport): Uint8Array {
	const entries: Record<string, string> = {};
	for (const test of report.tests) entries[test.path] = goodaiTestResultText(test.result);
	entries['summary.json'] = ltmSummaryText(report);
	return zipTexts(entries);
}

/** The summary JSON of a report, indented by two spaces. */
export function ltmSummaryText(report: LtmReport): string {
	return JSON.stringify(report.summary, null, 2);
}
