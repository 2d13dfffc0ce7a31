/**
 * The oaieval JSONL log written as the run goes, as upstream's recorder does: the spec line first,
 * each event when it is recorded, the final report line at the end. A run that fails leaves a
 * readable partial log (spec and every event so far). Node only (synchronous appends keep order).
 */
import { closeSync, writeSync } from 'node:fs';
import {
	formatFinalReportLine,
	formatLogEvent,
	type OaievalLog,
} from '../../core/evals/oaieval-log';
import { pythonJsonDumps } from '../../core/python/python-text';
import type { EvalEvent } from '../../core/evals/shared/types';
import { openNoFollowSync } from './safe-write';

export class OaievalLogFile {
	readonly path: string;
	#fd: number | null;
	#events = 0;

	/**
	 * Creates (or empties) `path` and writes the spec line.
	 * @throws CliInputError when `path` is a symbolic link (never followed).
	 */
	constructor(path: string, spec: OaievalLog['spec']) {
		this.path = path;
		this.#fd = openNoFollowSync(path, 'truncate');
		this.#line(pythonJsonDumps({ spec }));
	}

	/** Events written so far. */
	get eventCount(): number {
		return this.#events;
	}

	append(event: EvalEvent): void {
		this.#line(formatLogEvent(event));
		this.#events += 1;
	}

	/** Writes the final report line and closes the file. */
	finish(finalReport: OaievalLog['finalReport']): void {
		if (finalReport) this.#line(formatFinalReportLine(finalReport));
		this.close();
	}

	close(): void {
		if (this.#fd !== null) closeSync(this.#fd);
		this.#fd = null;
	}

	#line(text: string): void {
		if (this.#fd === null) throw new Error(`${this.path}: the log is closed`);
		writeSync(this.#fd, `${text}\n`);
	}
}
