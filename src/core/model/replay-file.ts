/**
 * Replay files (JSONL): completions answered from a file instead of a model. A line
 * `{"sample_id", "role", "completion"}` answers that sample's calls in that role (several lines
 * answer its successive calls, by call index); a line `{"when", "completion"}` answers any call
 * whose last message (the one being answered; a text prompt's whole text) contains `when`: the
 * first such line in file order wins, `""` matches every call. Earlier messages never match, so a
 * conversation that grows (an LTM agent's) is answered by its newest message. Pure.
 */
import * as v from 'valibot';
import { BenchtopError } from '../errors';
import type { GenerateRequest, ModelCall } from './generation';

/** A replay file that cannot be read; the message names the line. */
export class ReplayFileError extends BenchtopError {
	override name = 'ReplayFileError';
	constructor(
		message: string,
		readonly line: number,
	) {
		super(message);
	}
}

/** A call no line of the replay file answers; the message names the sample or the prompt. */
export class ReplayMissError extends BenchtopError {
	override name = 'ReplayMissError';
}

const SampleLine = v.strictObject({
	sample_id: v.string(),
	role: v.optional(v.string()),
	completion: v.string(),
});
const WhenLine = v.strictObject({ when: v.string(), completion: v.string() });
const ReplayLine = v.union([SampleLine, WhenLine]);

export interface ReplaySampleAnswer {
	readonly sampleId: string;
	/** Absent: any role. */
	readonly role?: string;
	readonly completion: string;
	readonly line: number;
}

export interface ReplayWhenAnswer {
	readonly when: string;
	readonly completion: string;
	readonly line: number;
}

export interface ReplayFile {
	readonly samples: readonly ReplaySampleAnswer[];
	readonly whens: readonly ReplayWhenAnswer[];
}

/** Parses a replay file; blank lines are skipped. @throws ReplayFileError naming the line. */
export function parseReplayFile(text: string, fileName: string): ReplayFile {
	const samples: ReplaySampleAnswer[] = [];
	const whens: ReplayWhenAnswer[] = [];
	text.split(/\r?\n/).forEach((raw, index) => {
		const line = index + 1;
		if (raw.trim() === '') return;
		let json: unknown;
		try {
			json = JSON.parse(raw);
		} catch (error) {
			throw new ReplayFileError(
				`${fileName}:${line}: not valid JSON (${(error as Error).message}).`,
				line,
			);
		}
		const parsed = v.safeParse(ReplayLine, json);
		if (!parsed.success) {
			throw new ReplayFileError(
				`${fileName}:${line}: a line is {"sample_id": "...", "role": "policy", "completion": "..."} ` +
					`or {"when": "<text in the prompt>", "completion": "..."}, with string values and no other keys.`,
				line,
			);
		}
		const value = parsed.output;
		if ('when' in value) whens.push({ when: value.when, completion: value.completion, line });
		else
			samples.push({
				sampleId: value.sample_id,
				...(value.role !== undefined ? { role: value.role } : {}),
				completion: value.completion,
				line,
			});
	});
	return { samples, whens };
}

/** The text a `when` line is matched against: the last message's content, or the text prompt. */
function messageBeingAnswered(request: GenerateRequest): string {
	return request.prompt.kind === 'text'
		? request.prompt.text
		: (request.prompt.messages.at(-1)?.content ?? '');
}

function shorten(text: string): string {
	const flat = text.replace(/\s+/g, ' ').trim();
	return flat.length > 80 ? `${flat.slice(0, 80)}…` : flat;
}

/**
 * The answer to a call: the sample's lines for its role (the call index picks among them, default
 * the first), else the first `when` line whose text is in the last message of the prompt.
 * @throws ReplayMissError naming the sample, role and the prompt's last message.
 */
export function findReplayAnswer(
	file: ReplayFile,
	request: GenerateRequest,
	call: ModelCall,
	fileName: string,
): ReplaySampleAnswer | ReplayWhenAnswer {
	const forSample = file.samples.filter(
		(s) => s.sampleId === call.sampleId && (s.role === undefined || s.role === call.role),
	);
	const pick = forSample[call.callIndex ?? 0];
	if (pick) return pick;
	const last = messageBeingAnswered(request);
	const when = file.whens.find((w) => last.includes(w.when));
	if (when) return when;
	const which =
		forSample.length > 0
			? `has ${forSample.length} line(s) for sample '${call.sampleId}' (${call.role}) but this is call ${(call.callIndex ?? 0) + 1}`
			: `answers neither sample '${call.sampleId}' (${call.role}) nor the message "${shorten(last)}"`;
	throw new ReplayMissError(
		`${fileName} ${which}: add a line {"sample_id": "${call.sampleId}", "role": "${call.role}", "completion": "..."} or {"when": "...", "completion": "..."}.`,
	);
}
