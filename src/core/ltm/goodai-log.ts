/**
 * GoodAI's log forms (runner/master_log.py, utils/constants.py): the system lines' wording, the
 * `Sender (YYYY-MM-DD HH:MM:SS.ffffff): text` prefix, `master_log.jsonl` events and the times
 * they carry. Pure; the scheduler words its system lines with these, reports format with them.
 */
import { formatPythonFloat } from '../python/python-float';
import type { LogEntry } from './shared/types';

/** Upstream's `EventType` values (utils/constants.py). */
export const GOODAI_EVENT = {
	SEND_MESSAGE: 0,
	BEGIN: 1,
	END: 2,
	SEND_FILL: 3,
	RESPONSE_MESSAGE: 4,
	RESPONSE_FILL: 5,
	WAIT: 6,
	SUITE_RESET: 7,
	LLM_CALL: 8,
} as const;

/** Python `str(timedelta(seconds=s))`: `0:30:00`, `1 day, 2:00:05`, `0:00:01.500000`. */
export function pythonTimedeltaText(seconds: number): string {
	const totalUs = Math.round(seconds * 1e6);
	const days = Math.floor(totalUs / 86_400e6);
	const restUs = totalUs - days * 86_400e6;
	const whole = Math.floor(restUs / 1e6);
	const micros = restUs - whole * 1e6;
	const pad = (value: number): string => String(value).padStart(2, '0');
	const clock = `${Math.floor(whole / 3600)}:${pad(Math.floor(whole / 60) % 60)}:${pad(whole % 60)}`;
	const fraction = micros === 0 ? '' : `.${String(micros).padStart(6, '0')}`;
	const dayText = days === 0 ? '' : `${days} day${Math.abs(days) === 1 ? '' : 's'}, `;
	return `${dayText}${clock}${fraction}`;
}

/** System line: a test starts (upstream `BEGIN`). */
export function beginText(testId: string): string {
	return `Test '${testId}' BEGINS`;
}

/** System line: a test was evaluated and ends (upstream `END`). */
export function endText(testId: string): string {
	return `Test '${testId}' ENDS`;
}

/**
 * System line: a test waits (upstream `WAIT`): `N TOKENS` when it waits for tokens, the time as
 * Python prints a timedelta when the wait's seconds (within a day, as timedelta `.seconds`) are
 * over 0: `Test 'Colours - 0' WAITING for 120 TOKENS, 0:30:00 TIME.`
 */
export function waitText(testId: string, tokens: number, timeS: number): string {
	const conditions: string[] = [];
	if (tokens > 0) conditions.push(`${tokens} TOKENS`);
	if (timeS % 86_400 > 0) conditions.push(`${pythonTimedeltaText(timeS)} TIME`);
	return `Test '${testId}' WAITING for ${conditions.join(', ')}.`;
}

/** System line: a dynamic test asked its LLM (the judge) and got `response` (upstream `LLM_CALL`). */
export function llmCallText(testId: string, response: string): string {
	return `Test '${testId}' CALLS an LLM. Response:\n${response}`;
}

const SYSTEM_FORMS = [
	{ event: GOODAI_EVENT.BEGIN, pattern: /^Test '(.*)' BEGINS$/s },
	{ event: GOODAI_EVENT.END, pattern: /^Test '(.*)' ENDS$/s },
	{ event: GOODAI_EVENT.WAIT, pattern: /^Test '(.*)' WAITING for (.*)\.$/s },
	{ event: GOODAI_EVENT.LLM_CALL, pattern: /^Test '(.*?)' CALLS an LLM\. Response:\n(.*)$/s },
] as const;

/**
 * The upstream event of a log entry, or undefined for lines upstream does not log (our time
 * jumps and agent resets). Messages of a test are SEND/RESPONSE_MESSAGE; the intro and filler
 * (test id `''`) are SEND/RESPONSE_FILL, as upstream's `add_send_message` types them.
 */
export function goodaiEventOf(entry: LogEntry): number | undefined {
	if (entry.role === 'user')
		return entry.testId === '' ? GOODAI_EVENT.SEND_FILL : GOODAI_EVENT.SEND_MESSAGE;
	if (entry.role === 'agent')
		return entry.testId === '' ? GOODAI_EVENT.RESPONSE_FILL : GOODAI_EVENT.RESPONSE_MESSAGE;
	if (entry.kind !== 'system') return undefined;
	return SYSTEM_FORMS.find((form) => form.pattern.test(entry.text))?.event;
}

/** Upstream `EVENT_SENDER` for messages, `SYSTEM` for the rest. */
export function senderOf(entry: LogEntry): string {
	if (entry.role === 'user') return entry.testId === '' ? 'System' : 'Test';
	return entry.role === 'agent' ? 'Agent' : 'SYSTEM';
}

/**
 * Microseconds since the epoch of an ISO time with up to 9 fraction digits (the run's start).
 * `Date.parse` keeps milliseconds only, so the fraction is read from the text.
 */
export function isoToEpochMicros(iso: string): number {
	const match = /^(.*?)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)?$/.exec(iso);
	const base = Date.parse(`${match?.[1] ?? iso}${match?.[3] ?? ''}`);
	if (Number.isNaN(base)) throw new RangeError(`'${iso}' is not an ISO time`);
	const fraction = (match?.[2] ?? '').padEnd(6, '0').slice(0, 6);
	return base * 1000 + Number(fraction);
}

/**
 * An ISO time with microseconds (`2026-01-02T03:04:05.678901Z`) of epoch milliseconds whose
 * fraction holds the microseconds, as `preciseNow()` (performance.timeOrigin + performance.now())
 * gives them: the run's start keeps the host clock's microseconds instead of a padded `000`.
 */
export function isoWithMicros(epochMs: number): string {
	let whole = Math.floor(epochMs);
	let micros = Math.round((epochMs - whole) * 1000);
	if (micros === 1000) {
		whole += 1;
		micros = 0;
	}
	const iso = new Date(whole).toISOString();
	return `${iso.slice(0, 23)}${String(micros).padStart(3, '0')}Z`;
}

/**
 * When a log entry happened, in epoch microseconds. NOTE: the run's clock is virtual (it stands
 * still while models answer and jumps for time waits), so an entry's time is the run's start
 * (read with microseconds, see isoWithMicros) plus the virtual clock at that entry; the
 * microseconds are the start's, never a padded `000` (a start saved with milliseconds only, as
 * older runs and the app's, keeps them as they are).
 */
export function entryEpochMicros(startTime: string, clockS: number): number {
	return isoToEpochMicros(startTime) + Math.round(clockS * 1e6);
}

/**
 * Python `str(datetime)` of a naive time: `2026-01-02 03:04:05.678901`, the fraction left out
 * when it is zero (as Python does). Printed in UTC.
 */
export function pythonDatetimeText(epochMicros: number): string {
	const seconds = Math.floor(epochMicros / 1e6);
	const micros = epochMicros - seconds * 1e6;
	const base = new Date(seconds * 1000).toISOString().replace('T', ' ').slice(0, 19);
	return micros === 0 ? base : `${base}.${String(micros).padStart(6, '0')}`;
}

/** Python `datetime.timestamp()`: whole seconds plus microseconds / 1e6, as a float's repr. */
export function pythonTimestamp(epochMicros: number): string {
	const seconds = Math.floor(epochMicros / 1e6);
	return formatPythonFloat(seconds + (epochMicros - seconds * 1e6) / 1e6);
}

/** A log line as upstream's reports hold it: `Test (2026-01-02 03:04:05.678901): text`. */
export function goodaiLogLine(startTime: string, entry: LogEntry): string {
	const at = pythonDatetimeText(entryEpochMicros(startTime, entry.clockS));
	return `${senderOf(entry)} (${at}): ${entry.text}`;
}
