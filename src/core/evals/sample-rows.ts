/**
 * The Evals results table's rows, built from a run's sample results or from an oaieval log's
 * events (an imported past run), plus what the table does with them: whitespace made visible,
 * filter, sort, CSV, a row's verdict in one word.
 */
import { writeCsvTable } from '../formats/tsv-table';
import type { ChatMessage } from '../model/generation';
import { INVALID_CHOICE } from './shared/model-graded';
import type { EvalEvent, JsonValue, SampleResult } from './shared/types';

/** One model call of a sample, as shown in the transcript. */
export interface EvalsCallView {
	readonly role: string;
	/** Chat messages as sent, or the text sent to a model without chat. */
	readonly prompt: readonly ChatMessage[] | string;
	readonly completion: string;
	readonly modelLabel?: string;
}

/** A row of the per-sample table. */
export interface EvalsSampleRowView {
	readonly sampleId: string;
	/** Position in evaluation order. */
	readonly position: number;
	readonly calls: readonly EvalsCallView[];
	/** The completion that was judged. */
	readonly completion: string;
	readonly ideals: readonly string[];
	readonly picked: string | null;
	/** Basic templates: the verdict. Model-graded: whether the choice is a valid one. */
	readonly correct?: boolean;
	readonly f1?: number;
	readonly choice?: string;
	readonly score?: number | null;
	readonly metascore?: boolean;
	readonly invalid: boolean;
	readonly graderOutput?: string;
	/** Index of the deciding line in the grader output's stripped lines, or -1. */
	readonly decidingLine?: number;
}

function jsonText(value: JsonValue | unknown): string {
	return typeof value === 'string' ? value : JSON.stringify(value);
}

function idealsOf(value: JsonValue | unknown): string[] {
	if (value === undefined || value === null) return [];
	return Array.isArray(value) ? value.map(jsonText) : [jsonText(value)];
}

function pickedOf(value: JsonValue | unknown): string | null {
	if (value === undefined || value === null) return null;
	if (Array.isArray(value)) return value.length === 0 ? null : value.map(jsonText).join(' | ');
	return jsonText(value);
}

/** A row from a finished sample of a run of this app. */
export function rowFromResult(result: SampleResult, position: number): EvalsSampleRowView {
	const graded = result.graded;
	return {
		sampleId: result.sampleId,
		position,
		calls: result.calls.map((call) => ({
			role: call.role,
			prompt: call.prompt,
			completion: call.completion,
			modelLabel: call.modelLabel,
		})),
		completion: result.completion,
		ideals: idealsOf(result.expected ?? result.sample.ideal),
		picked: pickedOf(result.picked),
		...(result.correct === undefined ? {} : { correct: result.correct }),
		...(result.f1Score === undefined ? {} : { f1: result.f1Score }),
		...(graded
			? {
					choice: graded.choice,
					score: graded.score,
					...(graded.metascore === undefined ? {} : { metascore: graded.metascore }),
					graderOutput: graded.graderOutput,
					decidingLine: graded.decidingLine,
				}
			: {}),
		invalid: graded?.choice === INVALID_CHOICE,
	};
}

/**
 * The grader output's lines as the choice parser reads them: Python `str.strip()` on whitespace,
 * then split on \n.
 */
export function graderLines(text: string): string[] {
	return text.replace(/^\s+|\s+$/gu, '').split('\n');
}

function isChatList(value: unknown): value is ChatMessage[] {
	return (
		Array.isArray(value) &&
		value.every(
			(item) =>
				item !== null &&
				typeof item === 'object' &&
				typeof (item as { role?: unknown }).role === 'string' &&
				typeof (item as { content?: unknown }).content === 'string',
		)
	);
}

/**
 * Rows from an oaieval log's events (upstream's or ours), grouped by sample id in event order.
 * Model-graded samples: the last sampling event is the grader's; the deciding line is the last
 * line naming the choice (a log does not record which line decided).
 */
export function rowsFromEvents(events: readonly EvalEvent[]): EvalsSampleRowView[] {
	const bySample = new Map<string, EvalEvent[]>();
	for (const event of events) {
		const list = bySample.get(event.sample_id) ?? [];
		list.push(event);
		bySample.set(event.sample_id, list);
	}
	return [...bySample.entries()].map(([sampleId, sampleEvents], position) => {
		const sampling = sampleEvents.filter((event) => event.type === 'sampling');
		const match = sampleEvents.find((event) => event.type === 'match');
		const metrics = sampleEvents.find((event) => event.type === 'metrics');
		const calls: EvalsCallView[] = sampling.map((event) => {
			const sampled = event.data.sampled;
			const prompt = event.data.prompt;
			return {
				role: 'policy',
				prompt: isChatList(prompt) ? prompt : jsonText(prompt ?? ''),
				completion: Array.isArray(sampled) ? sampled.map(jsonText).join('') : jsonText(sampled),
			};
		});
		const choice = typeof metrics?.data.choice === 'string' ? metrics.data.choice : undefined;
		if (choice !== undefined && calls.length > 0) {
			const last = calls[calls.length - 1];
			if (last) calls[calls.length - 1] = { ...last, role: 'grader' };
		}
		const graderOutput = choice === undefined ? undefined : calls[calls.length - 1]?.completion;
		const policyCalls = calls.filter((call) => call.role === 'policy');
		const completion =
			typeof match?.data.sampled === 'string'
				? match.data.sampled
				: policyCalls.map((call) => call.completion).join('\n');
		let decidingLine = -1;
		if (graderOutput !== undefined && choice !== undefined && choice !== INVALID_CHOICE) {
			const lines = graderLines(graderOutput);
			for (let index = lines.length - 1; index >= 0; index--) {
				if ((lines[index] ?? '').includes(choice)) {
					decidingLine = index;
					break;
				}
			}
		}
		const f1 = metrics?.data.f1_score;
		const score = metrics?.data.score;
		const metascore = metrics?.data.metascore;
		return {
			sampleId,
			position,
			calls,
			completion,
			ideals: idealsOf(match?.data.expected),
			picked: pickedOf(match?.data.picked),
			...(match ? { correct: match.data.correct === true } : {}),
			...(typeof f1 === 'number' ? { f1 } : {}),
			...(choice === undefined
				? {}
				: {
						choice,
						score: typeof score === 'number' ? score : null,
						...(typeof metascore === 'boolean' ? { metascore } : {}),
						...(graderOutput === undefined ? {} : { graderOutput }),
						decidingLine,
					}),
			invalid: choice === INVALID_CHOICE,
		};
	});
}

/** Whitespace made visible: space ⎵, line break ↵ (kept as a break), tab →. */
export function showWhitespace(text: string): string {
	return text.replace(/ /gu, '⎵').replace(/\t/gu, '→').replace(/\r?\n/gu, '↵\n');
}

export type EvalsRowFilter = 'all' | 'failures' | 'invalid';
export type EvalsRowSort = 'order' | 'sample' | 'verdict' | 'f1';

/** Whether a row failed: a wrong verdict, an invalid choice, or a zero score. */
export function isFailure(row: EvalsSampleRowView): boolean {
	if (row.correct === false || row.invalid) return true;
	return typeof row.score === 'number' && row.score <= 0;
}

function transcriptText(row: EvalsSampleRowView): string {
	const parts: string[] = [row.sampleId, row.completion, ...row.ideals];
	for (const call of row.calls) {
		parts.push(call.completion);
		if (typeof call.prompt === 'string') parts.push(call.prompt);
		else for (const message of call.prompt) parts.push(message.content);
	}
	return parts.join('\n').toLowerCase();
}

/** Rows kept by the filter and the search (case-insensitive, in prompts and outputs), sorted. */
export function filterRows(
	rows: readonly EvalsSampleRowView[],
	options: { filter: EvalsRowFilter; search: string; sort: EvalsRowSort },
): EvalsSampleRowView[] {
	const needle = options.search.trim().toLowerCase();
	const kept = rows.filter((row) => {
		if (options.filter === 'failures' && !isFailure(row)) return false;
		if (options.filter === 'invalid' && !row.invalid) return false;
		return needle === '' || transcriptText(row).includes(needle);
	});
	const sampleNumber = (row: EvalsSampleRowView): number =>
		Number(row.sampleId.split('.').pop() ?? Number.NaN);
	const compare: Record<EvalsRowSort, (a: EvalsSampleRowView, b: EvalsSampleRowView) => number> = {
		order: (a, b) => a.position - b.position,
		sample: (a, b) => sampleNumber(a) - sampleNumber(b) || a.sampleId.localeCompare(b.sampleId),
		// Failures first, then by order.
		verdict: (a, b) => Number(isFailure(b)) - Number(isFailure(a)) || a.position - b.position,
		f1: (a, b) => (a.f1 ?? a.score ?? 0) - (b.f1 ?? b.score ?? 0) || a.position - b.position,
	};
	return kept.sort(compare[options.sort]);
}

function promptText(prompt: readonly ChatMessage[] | string): string {
	return typeof prompt === 'string'
		? prompt
		: prompt.map((message) => `${message.name ?? message.role}: ${message.content}`).join('\n');
}

/**
 * The samples as CSV (RFC 4180, {@link writeCsvTable}): one line per sample, in the rows' order;
 * a formula-like text (a prompt, an answer, an ideal starting with `=`, `+`, `-`, `@`, tab, CR)
 * gets a `'` in front so a spreadsheet does not evaluate it.
 */
export function samplesCsv(rows: readonly EvalsSampleRowView[]): string {
	const header = [
		'sample_id',
		'prompt',
		'completion',
		'ideal',
		'picked',
		'correct',
		'f1_score',
		'choice',
		'score',
		'grader_output',
	];
	const lines = rows.map((row): string[] => {
		const policy = row.calls.find((call) => call.role === 'policy');
		return [
			row.sampleId,
			policy ? promptText(policy.prompt) : '',
			row.completion,
			row.ideals.join(' | '),
			row.picked ?? '',
			row.correct === undefined ? '' : String(row.correct),
			row.f1 === undefined ? '' : String(row.f1),
			row.choice ?? '',
			row.score === undefined || row.score === null ? '' : String(row.score),
			row.graderOutput ?? '',
		];
	});
	return writeCsvTable([header, ...lines]);
}

/** A row's verdict as one word: `correct`/`wrong`, the grader's choice, or `—`. */
export function verdictOf(row: EvalsSampleRowView): string {
	if (row.choice !== undefined) return row.choice;
	if (row.correct === undefined) return '—';
	return row.correct ? 'correct' : 'wrong';
}
