/**
 * The files GoodAI's runner keeps in `data/tests/<run>/results/<agent>/`, as Python writes them:
 * per-test `TestResult` JSON (`json.dump(..., indent=2)`), `runstats.json` and `master_log.jsonl`
 * (`json.dumps` per event): Python float forms, ASCII text with `\uXXXX` escapes. Pure.
 */
import { pythonJsonDumps } from '../python/python-text';
import { GOODAI_EVENT, entryEpochMicros, goodaiEventOf, pythonTimestamp } from './goodai-log';
import type { TestResultJson } from './report';
import type { LogEntry, LtmRunState } from './scheduler';

/**
 * Every UTF-16 unit of JSON text past `~` as `\uXXXX`, as Python's default `ensure_ascii=True`
 * does (DEL included); the text's other escapes are already Python's (JSON.stringify's), and its
 * only raw control character is the layout's newline.
 */
export function asciiJsonText(text: string): string {
	return text.replace(
		/[^\n -~]/g,
		(char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
	);
}

/**
 * Python `json.dumps(value, indent=indent)` (ensure_ascii on): the leaves are `pythonJsonDumps`'s
 * (numbers under `floatKeys` as floats), the layout Python's (`[]`/`{}` when empty, `,` at line
 * ends, `": "`); no indent: one line with `", "` separators.
 */
export function pythonJsonText(
	value: unknown,
	floatKeys: ReadonlySet<string>,
	indent?: number,
): string {
	if (indent === undefined) return asciiJsonText(pythonJsonDumps(value, floatKeys));
	const walk = (item: unknown, depth: number, asFloat: boolean): string => {
		const inner = ' '.repeat(indent * (depth + 1));
		const outer = ' '.repeat(indent * depth);
		if (Array.isArray(item)) {
			if (item.length === 0) return '[]';
			const lines = item.map((child: unknown) => inner + walk(child, depth + 1, asFloat));
			return `[\n${lines.join(',\n')}\n${outer}]`;
		}
		if (item !== null && typeof item === 'object') {
			const entries = Object.entries(item as Record<string, unknown>).filter(
				([, child]) => child !== undefined,
			);
			if (entries.length === 0) return '{}';
			const lines = entries.map(
				([key, child]) =>
					`${inner}${JSON.stringify(key)}: ${walk(child, depth + 1, floatKeys.has(key))}`,
			);
			return `{\n${lines.join(',\n')}\n${outer}}`;
		}
		return pythonJsonDumps(item, floatKeys, asFloat);
	};
	return asciiJsonText(walk(value, 0, false));
}

/** Keys of a TestResult file that Python holds as floats (`score`: a normalised float). */
const RESULT_FLOAT_KEYS: ReadonlySet<string> = new Set(['score']);

/** A test's result file as upstream's `TestResult.save` writes it (`indent=2`, no final newline). */
export function goodaiTestResultText(result: TestResultJson): string {
	return pythonJsonText(result, RESULT_FLOAT_KEYS, 2);
}

/** `runstats.json`'s fields (upstream `TestRunner.save_runstats`). */
export interface GoodaiRunstats {
	/** Tokens of every message and reply of the run, filler included. */
	readonly total_tokens: number;
	/** Tokens of the agent's generated replies (canned filler replies excluded). */
	readonly agent_tokens: number;
	/** Not measured by Benchtop: 0.0. */
	readonly agent_costs_usd: number;
	/** Not measured by Benchtop: 0.0. */
	readonly managing_costs_usd: number;
	/** Seconds spent waiting for the agent's replies (upstream: sum of reply − send times). */
	readonly duration: number;
}

const RUNSTATS_FLOAT_KEYS: ReadonlySet<string> = new Set([
	'agent_costs_usd',
	'managing_costs_usd',
	'duration',
]);

/** The run's `runstats.json` fields. */
export function goodaiRunstats(state: LtmRunState): GoodaiRunstats {
	return {
		total_tokens: state.totalTokens,
		agent_tokens: state.agentTokens,
		agent_costs_usd: 0,
		managing_costs_usd: 0,
		duration: state.agentDurationMs / 1000,
	};
}

/** `runstats.json` as `json.dump(stats, fd)` writes it (one line, no newline). */
export function goodaiRunstatsText(state: LtmRunState): string {
	return pythonJsonText(goodaiRunstats(state), RUNSTATS_FLOAT_KEYS);
}

/** Seconds of a `str(timedelta)` text (`1 day, 0:30:00`, `0:00:01.5`). */
function timedeltaSeconds(text: string): number {
	const match = /^(?:(-?\d+) days?, )?(\d+):(\d\d):(\d\d(?:\.\d+)?)$/.exec(text);
	if (!match) return 0;
	return (
		Number(match[1] ?? 0) * 86_400 +
		Number(match[2]) * 3600 +
		Number(match[3]) * 60 +
		Number(match[4])
	);
}

/** A WAIT line's data: the tokens and the time (timedelta `.seconds`: whole seconds within a day). */
function waitData(text: string): { tokens: number; time: number; percentage_finished: number } {
	const tokens = /WAITING for (\d+) TOKENS/.exec(text);
	const time = /(?:for |, )((?:-?\d+ days?, )?\d+:\d\d:\d\d(?:\.\d+)?) TIME\.$/.exec(text);
	const seconds = time ? timedeltaSeconds(time[1]!) : 0;
	return {
		tokens: tokens ? Number(tokens[1]) : 0,
		time: Math.floor(seconds) % 86_400,
		percentage_finished: 0,
	};
}

const EVENT_FLOAT_KEYS: ReadonlySet<string> = new Set(['percentage_finished']);

function eventData(event: number, entry: LogEntry): Record<string, unknown> {
	switch (event) {
		case GOODAI_EVENT.WAIT:
			return waitData(entry.text);
		case GOODAI_EVENT.LLM_CALL:
			return { response: entry.text.slice(entry.text.indexOf('Response:\n') + 10) };
		case GOODAI_EVENT.BEGIN:
		case GOODAI_EVENT.END:
			return {};
		default:
			return { message: entry.text, is_question: entry.isQuestion === true };
	}
}

/**
 * One `master_log.jsonl` line per log entry that upstream logs (`LogEvent.to_json` through
 * `json.dumps`): `{"type": 0, "timestamp": 1767323045.678901, "test_id": "...", "data": {...}}`.
 * Lines upstream has no event for (time jumps, agent resets) are left out.
 */
export function goodaiMasterLogLines(startTime: string, entries: readonly LogEntry[]): string {
	let text = '';
	for (const entry of entries) {
		const event = goodaiEventOf(entry);
		if (event === undefined) continue;
		const timestamp = pythonTimestamp(entryEpochMicros(startTime, entry.clockS));
		const data = pythonJsonText(eventData(event, entry), EVENT_FLOAT_KEYS);
		const testId = pythonJsonText(entry.testId, EVENT_FLOAT_KEYS);
		text += `{"type": ${event}, "timestamp": ${timestamp}, "test_id": ${testId}, "data": ${data}}\n`;
	}
	return text;
}
