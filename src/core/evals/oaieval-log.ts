/**
 * The oaieval JSONL log (upstream `LocalRecorder`): a `{"spec": RunSpec}` line, one line per event
 * (`run_id, event_id, sample_id, type, data, created_by, created_at`), and a final
 * `{"final_report": {...}}` line, written as Python's `json.dumps` writes them.
 * The reader accepts logs from upstream and from Benchtop and locates problems by line. Pure.
 */
import * as v from 'valibot';
import { pointerOfIssue } from '../run/task-run-json';
import { EvalsError } from './shared/errors';
import { pythonJsonDumps } from '../python/python-text';
import type { EvalEvent, FinalReport, ResolvedEval, RunSpec } from './shared/types';

/** A log read back. */
export interface OaievalLog {
	readonly spec: RunSpec;
	readonly events: readonly EvalEvent[];
	/** Absent when the run did not finish. */
	readonly finalReport?: FinalReport;
}

/** The `spec` line's content for a run (upstream `RunSpec` with its `run_config`). */
export function buildRunSpec(options: {
	readonly completionFns: readonly string[];
	readonly evalSpec: ResolvedEval;
	readonly runId: string;
	readonly createdAt: string;
	readonly seed: number;
	readonly maxSamples?: number;
	readonly command: string;
	readonly createdBy?: string;
	readonly registryPath?: string;
}): RunSpec {
	const name = options.evalSpec.name;
	const [base = '', split = ''] = name.split('.');
	return {
		completion_fns: [...options.completionFns],
		eval_name: name,
		base_eval: base,
		split,
		run_config: {
			completion_fns: [...options.completionFns],
			eval_spec: {
				cls: options.evalSpec.className,
				registry_path: options.registryPath ?? '',
				args: options.evalSpec.args,
				key: name,
				group: options.evalSpec.file.replace(/^.*\//u, '').split('.')[0] ?? '',
			},
			seed: options.seed,
			max_samples: options.maxSamples ?? null,
			command: options.command,
			initial_settings: { visible: options.maxSamples === undefined },
		},
		created_by: options.createdBy ?? '',
		run_id: options.runId,
		created_at: options.createdAt,
	};
}

/**
 * Python's `shlex.quote`: a word of safe characters as it is, anything else in single quotes
 * (a `'` inside written `'"'"'`), the empty word as `''`.
 */
export function shlexQuote(word: string): string {
	if (word === '') return "''";
	// JavaScript's `\w` is ASCII-only, as Python's pattern with re.ASCII.
	if (!/[^\w@%+=:,./-]/u.test(word)) return word;
	return `'${word.replaceAll("'", `'"'"'`)}'`;
}

/** The `command` of a run config, as upstream's `" ".join(map(shlex.quote, sys.argv))`. */
export function commandLine(argv: readonly string[]): string {
	return argv.map(shlexQuote).join(' ');
}

/** One event as its log line (no newline). */
export function formatLogEvent(event: EvalEvent): string {
	return pythonJsonDumps({
		run_id: event.run_id,
		event_id: event.event_id,
		sample_id: event.sample_id,
		type: event.type,
		data: event.data,
		created_by: event.created_by,
		created_at: event.created_at,
	});
}

/** The final report's line (no newline): upstream `LocalRecorder` writes `{"final_report": ...}` only. */
export function formatFinalReportLine(report: FinalReport): string {
	return pythonJsonDumps({ final_report: report });
}

/** The whole log text: spec line, events, and the final report line when there is one. */
export function writeOaievalLog(log: OaievalLog): string {
	const lines = [pythonJsonDumps({ spec: log.spec }), ...log.events.map(formatLogEvent)];
	if (log.finalReport) lines.push(formatFinalReportLine(log.finalReport));
	return `${lines.join('\n')}\n`;
}

function parseLine(line: string, path: string, lineNumber: number): Record<string, unknown> {
	let value: unknown;
	try {
		// Python writes NaN / Infinity for those floats; JSON.parse needs them quoted away.
		value = JSON.parse(
			line.replace(/(?<=[:[,]\s*)(-?Infinity|NaN)(?=\s*[,}\]])/gu, '"__py_$1__"'),
			(_key, item: unknown) =>
				typeof item === 'string' && item.startsWith('__py_') && item.endsWith('__')
					? Number(item.slice(5, -2))
					: item,
		);
	} catch (error) {
		throw new EvalsError(`${path}:${lineNumber}: not valid JSON (${(error as Error).message})`, {
			file: path,
			line: lineNumber,
		});
	}
	if (value === null || typeof value !== 'object' || Array.isArray(value)) {
		throw new EvalsError(`${path}:${lineNumber}: each log line must be a JSON object`, {
			file: path,
			line: lineNumber,
		});
	}
	return value as Record<string, unknown>;
}

const mapping = v.custom<{ readonly [key: string]: unknown }>(
	(input) => input !== null && typeof input === 'object' && !Array.isArray(input),
	'must be a JSON object',
);

/** A string field that an older or partial log may lack (or hold null): read as `''`. */
const stringOrEmpty = v.optional(
	v.pipe(
		v.nullable(v.string('must be a string')),
		v.transform((value) => value ?? ''),
	),
	'',
);

/**
 * The `spec` line (upstream `RunSpec`, written by `dataclasses.asdict`): fields a log lacks are
 * read as empty; other keys are kept.
 */
export const RunSpecSchema = v.looseObject({
	completion_fns: v.optional(v.array(v.string('must be a string')), []),
	eval_name: stringOrEmpty,
	base_eval: stringOrEmpty,
	split: stringOrEmpty,
	run_config: v.optional(mapping, {}),
	created_by: stringOrEmpty,
	run_id: stringOrEmpty,
	created_at: stringOrEmpty,
});

/** An event line: `sample_id`, `type` and a `data` object are needed; other fields are kept. */
export const LogEventSchema = v.looseObject(
	{
		run_id: stringOrEmpty,
		event_id: v.optional(v.number('must be a number')),
		sample_id: v.string('must be a string'),
		type: v.string('must be a string'),
		data: mapping,
		created_by: stringOrEmpty,
		created_at: stringOrEmpty,
	},
	'required (an event needs sample_id, type and data)',
);

/** The `final_report` line's report: metric name → number (NaN and infinities included). */
export const FinalReportSchema = v.record(
	v.string(),
	v.custom<number>((input) => typeof input === 'number', 'must be a number'),
);

/** `value` checked by `schema`; the first problem is an error at the line, naming the field. */
function checkedLine<T>(
	schema: v.GenericSchema<unknown, T>,
	value: unknown,
	path: string,
	lineNumber: number,
	prefix: string,
): T {
	const result = v.safeParse(schema, value);
	if (result.success) return result.output;
	const issue = result.issues[0];
	const field = `${prefix}${pointerOfIssue(issue)}`;
	throw new EvalsError(`${path}:${lineNumber}: ${field}: ${issue.message}`, {
		file: path,
		line: lineNumber,
		field,
	});
}

/**
 * Reads an oaieval log: the first line must hold `spec`; event lines need `sample_id`, `type` and
 * a `data` object; a `final_report` line (numbers) ends the run. Each line is checked by its
 * schema. Errors: `EvalsError` at the line (and field).
 */
export function readOaievalLog(text: string, path: string): OaievalLog {
	const lines = text.split(/\r?\n/u);
	if (lines[lines.length - 1] === '') lines.pop();
	let spec: RunSpec | undefined;
	const events: EvalEvent[] = [];
	let finalReport: FinalReport | undefined;
	const at = (lineNumber: number) => ({ file: path, line: lineNumber });
	lines.forEach((line, index) => {
		const lineNumber = index + 1;
		if (line.trim() === '') return;
		const value = parseLine(line, path, lineNumber);
		if (!spec && !('spec' in value)) {
			throw new EvalsError(
				`${path}:${lineNumber}: the first line of an oaieval log must be {"spec": ...}`,
				at(lineNumber),
			);
		}
		if ('spec' in value) {
			if (spec) throw new EvalsError(`${path}:${lineNumber}: a second spec line`, at(lineNumber));
			spec = checkedLine(RunSpecSchema, value.spec, path, lineNumber, 'spec');
		} else if ('final_report' in value) {
			finalReport = checkedLine(
				FinalReportSchema,
				value.final_report,
				path,
				lineNumber,
				'final_report',
			);
		} else if ('type' in value && 'data' in value) {
			events.push(checkedLine(LogEventSchema, value, path, lineNumber, '') as EvalEvent);
		} else {
			throw new EvalsError(
				`${path}:${lineNumber}: neither a spec, an event (type, data, sample_id) nor a final_report line`,
				at(lineNumber),
			);
		}
	});
	if (!spec) {
		throw new EvalsError(
			`${path}:1: the first line of an oaieval log must be {"spec": ...}`,
			at(1),
		);
	}
	return { spec, events, ...(finalReport ? { finalReport } : {}) };
}

/** `Final report:` and one `key: value` line per metric, values printed as Python prints them. */
export function formatFinalReport(
	report: FinalReport,
	formatValue: (key: string, value: number) => string,
): string {
	return `Final report:\n${Object.entries(report)
		.map(([key, value]) => `${key}: ${formatValue(key, value)}`)
		.join('\n')}\n`;
}
