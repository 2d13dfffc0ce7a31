/**
 * Memory (LTM) share links: `#/memory/share/2/…` (the one share codec) carrying the loaded
 * definitions (the benchmark the run used), the agent and judge specs (never a key), the agent's
 * parameters and context limits, replay files' text, the memory span, isolation, and each test's
 * score with a fingerprint of them, so opening the link shows the sharer's scores, re-runs the
 * same tests and says whether the scores reproduced. Encoding within the link budget and checked
 * decoding (valibot); links of the 0.1.0 release (`#/memory/share/<data>`) still open. Pure.
 */
import * as v from 'valibot';
import { sha256Hex } from '../hash/sha256';
import type { GenerationParams } from '../model/generation';
import type { TextModelSpec } from '../model/model-spec';
import { encodeShareFragment, readSharePayload, type ShareRoute } from '../share/share-codec';
import { GENERATION_PARAMS_ENTRIES, TextModelSpecSchema } from '../run/task-run-json';
import type { LtmRunState } from './scheduler';
import type { LtmBenchmark } from './shared/types';

export const LTM_SHARE_VERSION = 1;

/** Where Memory (LTM) links live (0.1.0 wrote the bare data after the route). */
export const LTM_SHARE: ShareRoute = {
	kind: 'ltm',
	route: '/memory/share/',
	what: 'a Memory run',
	oldestVersion: 2,
	bareRelease: true,
};

/** Test unique id → its score (score / max score), or null when it was skipped. */
export type LtmScores = Readonly<Record<string, number | null>>;

/** What a Memory share link carries. */
export interface LtmSharePayload {
	readonly v: 1;
	readonly runName: string;
	readonly benchmark: LtmBenchmark;
	readonly models: { readonly agent: TextModelSpec; readonly judge?: TextModelSpec };
	readonly agentParams: GenerationParams;
	readonly maxContextTokens?: number;
	readonly maxMessageTokens?: number;
	/** Replay files' text by their SHA-256 (agent or judge replays), so the link re-runs alone. */
	readonly replayTexts: Readonly<Record<string, string>>;
	readonly memorySpan: number;
	readonly isolated: boolean;
	readonly scores: LtmScores;
	/** `ltmScoresFingerprint(scores)`: a damaged or edited score table does not match it. */
	readonly fingerprint: string;
}

/** Scores are compared to 6 decimals (a score is a fraction of the test's maximum). */
const SCORE_DECIMALS = 6;

function roundScore(score: number): number {
	return Number(score.toFixed(SCORE_DECIMALS));
}

/** Each finished test's score (rounded to 6 decimals), null when skipped; unfinished tests are left out. */
export function ltmScoresOf(state: Pick<LtmRunState, 'outcomes'>): Record<string, number | null> {
	const scores: Record<string, number | null> = {};
	for (const id of Object.keys(state.outcomes).sort()) {
		const evaluation = state.outcomes[id]!.evaluation;
		scores[id] = evaluation.status === 'scored' ? roundScore(evaluation.score) : null;
	}
	return scores;
}

/** SHA-256 of the scores in test-id order (independent of the object's key order). */
export function ltmScoresFingerprint(scores: LtmScores): string {
	const entries = Object.keys(scores)
		.sort()
		.map((id) => [id, scores[id] === null ? null : roundScore(scores[id]!)]);
	return sha256Hex(JSON.stringify(entries));
}

/** How a re-run's scores compare with the shared ones. */
export interface LtmReproduction {
	/** Every shared test has the same score (or is skipped in both) and no test is extra. */
	readonly reproduced: boolean;
	readonly matching: number;
	readonly total: number;
	/** Tests whose score differs, or that only one of the runs has. */
	readonly differing: readonly { id: string; shared?: number | null; rerun?: number | null }[];
}

/** Compares a re-run's scores with the shared ones, test by test. */
export function compareLtmScores(shared: LtmScores, rerun: LtmScores): LtmReproduction {
	const ids = [...new Set([...Object.keys(shared), ...Object.keys(rerun)])].sort();
	const differing: { id: string; shared?: number | null; rerun?: number | null }[] = [];
	let matching = 0;
	for (const id of ids) {
		const inShared = Object.hasOwn(shared, id);
		const inRerun = Object.hasOwn(rerun, id);
		const a = shared[id] ?? null;
		const b = rerun[id] ?? null;
		const same =
			inShared && inRerun && (a === null || b === null ? a === b : roundScore(a) === roundScore(b));
		if (same) matching += 1;
		else
			differing.push({
				id,
				...(inShared ? { shared: a } : {}),
				...(inRerun ? { rerun: b } : {}),
			});
	}
	return {
		reproduced: differing.length === 0,
		matching,
		total: Object.keys(shared).length,
		differing,
	};
}

const Params = v.object(GENERATION_PARAMS_ENTRIES);

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

const TestSchema = v.object({
	uniqueId: v.string(),
	datasetName: v.string(),
	exampleId: v.string(),
	configName: v.string(),
	evaluator: v.union([v.string(), v.looseObject({ rule: v.string() })]),
	description: v.string(),
	resetMessage: v.string(),
	script: v.array(v.string()),
	isQuestion: v.array(v.boolean()),
	waits: v.array(
		v.object({
			tokens: v.optional(v.number()),
			time: v.optional(v.number()),
			percentage_finished: v.optional(v.number()),
		}),
	),
	expectedResponses: v.array(v.unknown()),
	isTemporal: v.boolean(),
	usesCallback: v.boolean(),
	canBeInterleaved: v.boolean(),
	dynamic: v.optional(
		v.looseObject({
			builtIn: v.optional(v.literal('restaurant')),
			maxScore: v.number(),
			vars: v.record(v.string(), v.string()),
			steps: v.array(v.record(v.string(), v.unknown())),
		}),
	),
	watch: v.optional(
		v.looseObject({ afterLine: Count, nthResponse: Count, mustContain: v.string() }),
	),
	source: v.string(),
});

const Payload = v.object({
	v: v.literal(LTM_SHARE_VERSION),
	runName: v.string(),
	benchmark: v.object({
		config: v.looseObject({
			runName: v.string(),
			memorySpan: v.pipe(Count, v.minValue(1)),
			incompatibilities: v.array(v.array(v.string())),
		}),
		tests: v.pipe(v.array(TestSchema), v.minLength(1)),
	}),
	models: v.object({ agent: TextModelSpecSchema, judge: v.optional(TextModelSpecSchema) }),
	agentParams: Params,
	maxContextTokens: v.optional(Count),
	maxMessageTokens: v.optional(Count),
	replayTexts: v.record(v.string(), v.string()),
	memorySpan: v.pipe(Count, v.minValue(1)),
	isolated: v.boolean(),
	scores: v.record(v.string(), v.nullable(v.number())),
	fingerprint: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
});

/**
 * The link's part after `#/memory/share/` (`2/<data>`). Throws a ShareLinkError (kind
 * `too-large`) when the link would pass the link budget: share the run bundle instead.
 */
export function encodeLtmShare(payload: LtmSharePayload): string {
	const encoded = encodeShareFragment(LTM_SHARE, payload);
	if (!encoded.ok) throw encoded.error;
	return encoded.fragment.slice(LTM_SHARE.route.length);
}

/** Reads a link's part after `#/memory/share/`; throws an Error that says what is wrong with it. */
export function decodeLtmShare(text: string): LtmSharePayload {
	const payload = readSharePayload(LTM_SHARE, text, Payload) as LtmSharePayload;
	if (ltmScoresFingerprint(payload.scores) !== payload.fingerprint) {
		throw new Error(
			'This share link’s scores do not match its fingerprint (the link was edited or damaged): ask for the link again.',
		);
	}
	return payload;
}
