/**
 * An LTM run's state saved in parts, so that saving after every step stays linear in the run: a
 * small checkpoint (the state without its log and tests) rewritten each step, the log appended
 * (JSON Lines, one entry a line) and the tests written once. Reading checks the shapes (valibot),
 * and also reads a whole state as an earlier release saved it (log and tests inside). No I/O here.
 */
import * as v from 'valibot';
import { BenchtopError } from '../errors';
import { parseJsonText, pointerOfIssue } from '../run/task-run-json';
import type { LogEntry, LtmRunState } from './scheduler';
import type { LtmTestDefinition } from './shared/types';

export const LTM_CHECKPOINT_FORMAT = 'ltm-run-checkpoint/1';

/** The state without its log and tests, and how many log entries it has. */
export interface LtmRunCheckpoint extends Omit<LtmRunState, 'format' | 'tests' | 'log'> {
	readonly format: typeof LTM_CHECKPOINT_FORMAT;
	/** Entries of the log this state has; a saved log may hold more (appended before a crash). */
	readonly logLength: number;
}

/** A saved state that cannot be read; the message names the file part, line or pointer. */
export class LtmStateReadError extends BenchtopError {
	override name = 'LtmStateReadError';
}

/** The checkpoint of a state (shares its parts: serialize it before the run goes on). */
export function checkpointOf(state: LtmRunState): LtmRunCheckpoint {
	const { format: _format, tests: _tests, log, ...rest } = state;
	return { ...rest, format: LTM_CHECKPOINT_FORMAT, logLength: log.length };
}

/**
 * The state a checkpoint was taken from, given the run's tests (in run order) and its saved log,
 * of which the first `logLength` entries are kept.
 * @throws LtmStateReadError when the log is shorter than the checkpoint says.
 */
export function stateFromCheckpoint(
	checkpoint: LtmRunCheckpoint,
	tests: readonly LtmTestDefinition[],
	log: readonly LogEntry[],
): LtmRunState {
	if (log.length < checkpoint.logLength) {
		throw new LtmStateReadError(
			`the saved log has ${log.length} entries, but the saved state needs ${checkpoint.logLength}`,
		);
	}
	const { format: _format, logLength, ...rest } = checkpoint;
	return { ...rest, format: 'ltm-run-state/1', tests, log: log.slice(0, logLength) };
}

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

const LogEntrySchema = v.strictObject({
	role: v.picklist(['user', 'agent', 'system']),
	testId: v.string(),
	text: v.string(),
	tokens: v.number(),
	clockS: v.number(),
	kind: v.picklist(['intro', 'script', 'filler', 'reset', 'system', 'agent-reset']),
	isQuestion: v.optional(v.boolean()),
	line: v.optional(Count),
	canned: v.optional(v.boolean()),
});

const TestSchema = v.looseObject({
	uniqueId: v.string(),
	datasetName: v.string(),
	exampleId: v.string(),
	script: v.array(v.string()),
	isQuestion: v.array(v.boolean()),
	waits: v.array(v.unknown()),
	expectedResponses: v.array(v.unknown()),
});

/** What the scheduler reads of a state besides its log and tests (the rest passes through). */
const STATE_ENTRIES = {
	config: v.looseObject({ runName: v.string(), memorySpan: v.number(), isolated: v.boolean() }),
	maxMessageTokens: Count,
	startTime: v.string(),
	triviaSource: v.picklist(['ours', 'upstream']),
	introSent: v.boolean(),
	totalTokens: v.number(),
	clockS: v.number(),
	fillerCursor: Count,
	current: v.nullable(v.string()),
	progress: v.record(v.string(), v.looseObject({ status: v.string(), actionIndex: Count })),
	waitList: v.record(
		v.string(),
		v.object({ tokens: v.optional(v.number()), timeS: v.optional(v.number()) }),
	),
	callbacks: v.array(v.string()),
	outcomes: v.record(v.string(), v.looseObject({ evaluation: v.looseObject({}) })),
	warnings: v.array(v.string()),
	agentTokens: v.number(),
	agentDurationMs: v.number(),
	next: v.looseObject({ kind: v.picklist(['send', 'reset-agent', 'judge', 'evaluate', 'done']) }),
};

const CheckpointSchema = v.looseObject({
	...STATE_ENTRIES,
	format: v.literal(LTM_CHECKPOINT_FORMAT),
	logLength: Count,
});

const WholeStateSchema = v.looseObject({
	...STATE_ENTRIES,
	format: v.literal('ltm-run-state/1'),
	tests: v.array(TestSchema),
	log: v.array(LogEntrySchema),
});

/** A saved state file: a checkpoint, or a whole state as an earlier release saved it. */
export type SavedLtmState =
	| { readonly kind: 'checkpoint'; readonly checkpoint: LtmRunCheckpoint }
	| { readonly kind: 'whole'; readonly state: LtmRunState };

function refuse(what: string, issues: readonly v.BaseIssue<unknown>[]): never {
	const issue = issues[0]!;
	throw new LtmStateReadError(`${what}, at ${pointerOfIssue(issue) || '(top)'}: ${issue.message}`);
}

function parseJson(text: string, what: string): unknown {
	const parsed = parseJsonText(text);
	if (!parsed.ok) throw new LtmStateReadError(`${what}: ${parsed.message}`);
	return parsed.json;
}

/** Reads a saved state file (untrusted). @throws LtmStateReadError with a pointer. */
export function readSavedLtmState(text: string): SavedLtmState {
	const json = parseJson(text, 'the saved state');
	const format = (json as { format?: unknown } | null)?.format;
	if (format === 'ltm-run-state/1') {
		const read = v.safeParse(WholeStateSchema, json);
		if (!read.success) refuse('the saved state', read.issues);
		return { kind: 'whole', state: json as LtmRunState };
	}
	if (format !== LTM_CHECKPOINT_FORMAT) {
		throw new LtmStateReadError(
			`the saved state, at /format: expected "${LTM_CHECKPOINT_FORMAT}" (or "ltm-run-state/1" of an earlier release)`,
		);
	}
	const read = v.safeParse(CheckpointSchema, json);
	if (!read.success) refuse('the saved state', read.issues);
	return { kind: 'checkpoint', checkpoint: json as LtmRunCheckpoint };
}

/** Reads the saved tests (a JSON array, untrusted). @throws LtmStateReadError with a pointer. */
export function readSavedLtmTests(text: string): LtmTestDefinition[] {
	const json = parseJson(text, 'the saved tests');
	const read = v.safeParse(v.array(TestSchema), json);
	if (!read.success) refuse('the saved tests', read.issues);
	return json as LtmTestDefinition[];
}

/**
 * The first `count` entries of a saved log (JSON Lines, untrusted); lines after them (appended
 * before a crash, perhaps cut short) are not read.
 * @throws LtmStateReadError naming the line, or when there are fewer than `count` entries.
 */
export function readSavedLtmLog(text: string, count: number): LogEntry[] {
	const entries: LogEntry[] = [];
	let start = 0;
	while (entries.length < count) {
		const end = text.indexOf('\n', start);
		if (end === -1) break;
		const line = entries.length + 1;
		const json = parseJson(text.slice(start, end), `log line ${line}`);
		const read = v.safeParse(LogEntrySchema, json);
		if (!read.success) refuse(`log line ${line}`, read.issues);
		entries.push(json as LogEntry);
		start = end + 1;
	}
	if (entries.length < count) {
		throw new LtmStateReadError(
			`the saved log has ${entries.length} whole lines, but the saved state needs ${count}`,
		);
	}
	return entries;
}

/** Log entries as JSON Lines (each line ends with a newline), to append to a saved log. */
export function ltmLogLines(entries: readonly LogEntry[]): string {
	return entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
}
