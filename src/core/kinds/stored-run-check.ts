/**
 * A stored run row checked before a page shows it: the fields the pages format (kind, status,
 * times, names, models, counters) must have the types and ranges the pages expect. A row that an
 * older version wrote wrong or that was edited in the browser's storage is "unreadable": listed
 * apart with its problem (JSON pointer and message), never formatted. Pure.
 */
import * as v from 'valibot';
import { RUN_KINDS, RUN_STATUSES } from '../run/run-types';
import { TimeMsSchema, pointerOfIssue } from '../run/task-run-json';

/** A stored run row that cannot be shown: its id, its kind as stored, and what is wrong. */
export interface UnreadableRun {
	readonly id: number;
	/** The row's `kind` when it is one of the run kinds, else null. */
	readonly kind: (typeof RUN_KINDS)[number] | null;
	/** Where and what, e.g. `/createdAt: expected a time …`. */
	readonly problem: string;
}

const Count = v.pipe(v.number(), v.minValue(0));
const Model = v.looseObject({ source: v.string() });

const BASE = {
	id: v.pipe(v.number(), v.integer(), v.minValue(1)),
	title: v.string(),
	status: v.picklist(RUN_STATUSES),
	createdAt: TimeMsSchema,
	updatedAt: TimeMsSchema,
	errorMessage: v.optional(v.string()),
};

const StoredRunSchema = v.variant('kind', [
	v.looseObject({
		...BASE,
		kind: v.literal('suite'),
		suiteName: v.string(),
		suiteSha256: v.string(),
		model: Model,
		convention: v.string(),
		itemCount: Count,
		itemsDone: Count,
		appVersion: v.string(),
		scoringMs: v.number(),
		tokenCount: Count,
	}),
	v.looseObject({
		...BASE,
		kind: v.literal('evals'),
		evalName: v.string(),
		models: v.looseObject({ policy: v.array(Model), grader: v.optional(Model) }),
		progress: v.looseObject({ done: Count, total: Count, tokens: Count, elapsedMs: v.number() }),
	}),
	v.looseObject({
		...BASE,
		kind: v.literal('ltm'),
		runName: v.string(),
		models: v.looseObject({ agent: Model, judge: v.optional(Model) }),
		progress: v.looseObject({
			testsDone: Count,
			testsTotal: Count,
			tokens: Count,
			elapsedMs: v.number(),
		}),
	}),
]);

/** What is wrong with a stored run row (`/pointer: message`), or null when pages can show it. */
export function storedRunProblem(row: unknown): string | null {
	const result = v.safeParse(StoredRunSchema, row);
	if (result.success) return null;
	const issue = result.issues[0];
	return `${pointerOfIssue(issue) || '/'}: ${issue.message}`;
}

/** A row that failed {@link storedRunProblem}, as the lists show it. */
export function unreadableRun(id: number, row: unknown, problem: string): UnreadableRun {
	const kind =
		typeof row === 'object' && row !== null ? (row as { kind?: unknown }).kind : undefined;
	return {
		id,
		kind: RUN_KINDS.find((known) => known === kind) ?? null,
		problem,
	};
}
