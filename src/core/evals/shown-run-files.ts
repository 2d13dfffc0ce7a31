/**
 * A shown Evals run to and from a file: a past run imported from an oaieval log (upstream's or
 * ours) or a Benchtop run bundle, with the page's words when it cannot be read; and the shown run
 * written as an oaieval JSONL log.
 */
import { looksLikeRunBundle } from '../run/task-run-json';
import { readEvalsRunBundle, shownRunOfBundle } from './evals-run-bundle';
import { problemOf } from './evals-problems';
import { readOaievalLog, writeOaievalLog } from './oaieval-log';
import { shownRunOfLog, type EvalsShownRun } from './shown-run';

/** An imported file: the run it shows (`fromBundle`: read from a run bundle), or why it cannot. */
export type ImportedRun =
	| { readonly ok: true; readonly shown: EvalsShownRun; readonly fromBundle: boolean }
	| { readonly ok: false; readonly message: string };

/** An imported file that could not be read at all, as the page says it. */
export function unreadableLog(error: unknown): ImportedRun {
	return { ok: false, message: `That log could not be read: ${problemOf(error).message}` };
}

/** Reads a file's text as a run bundle when it looks like one, else as an oaieval log. */
export function importedRunOf(text: string, fileName: string): ImportedRun {
	try {
		if (looksLikeRunBundle(text)) {
			const read = readEvalsRunBundle(text);
			if (!read.ok) {
				return {
					ok: false,
					message: `That run bundle could not be read: ${fileName}, at ${read.pointer || '(top)'}: ${read.message}.`,
				};
			}
			return { ok: true, shown: shownRunOfBundle(read.bundle, fileName), fromBundle: true };
		}
		return {
			ok: true,
			shown: shownRunOfLog(readOaievalLog(text, fileName), fileName),
			fromBundle: false,
		};
	} catch (error) {
		return unreadableLog(error);
	}
}

/** The shown run as an oaieval JSONL log. */
export function oaievalLogTextOf(shown: EvalsShownRun): string {
	return writeOaievalLog({
		spec: shown.spec,
		events: shown.events,
		...(shown.report ? { finalReport: shown.report } : {}),
	});
}
