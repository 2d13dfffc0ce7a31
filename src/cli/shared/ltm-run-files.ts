/**
 * The files `ltm run --out <dir>` keeps so that `--resume` goes on where a run stopped, written in
 * time linear in the run: `run-state.json` (the small checkpoint, replaced atomically after every
 * step), `run-log.jsonl` (the log, appended) and `run-tests.json` (the tests, written once);
 * beside them GoodAI's `master_log.jsonl` (appended) and `runstats.json` (replaced with each
 * checkpoint), as upstream's runner keeps them. Reading also takes a `run-state.json` of an
 * earlier release (the whole state, log inside). The run's models and parameters are kept in
 * `run-models.json` (see ltm-run-models.ts).
 */
import { appendFileSync, closeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
	LtmStateReadError,
	checkpointOf,
	ltmLogLines,
	readSavedLtmLog,
	readSavedLtmState,
	readSavedLtmTests,
	stateFromCheckpoint,
	type LtmRunState,
} from '../../core/ltm';
import { goodaiMasterLogLines, goodaiRunstatsText } from '../../core/ltm/goodai-files';
import { CliInputError } from './cli-io';
import { openNoFollowSync, replaceFileNoFollowSync } from './safe-write';

export const LTM_STATE_FILE = 'run-state.json';
export const LTM_LOG_FILE = 'run-log.jsonl';
export const LTM_TESTS_FILE = 'run-tests.json';
/** GoodAI's event log and run statistics (upstream `make_master_log_path`, `make_runstats_path`). */
export const GOODAI_MASTER_LOG_FILE = 'master_log.jsonl';
export const GOODAI_RUNSTATS_FILE = 'runstats.json';

/** The temporary file that replaces `path` (see replaceFile). */
const temporaryOf = (path: string): string => `${path}.tmp`;

/**
 * Replaces `path` with `text` so that a reader always finds one whole version: the text goes to
 * `<path>.tmp` (created exclusively), then the old file is removed and the new one renamed into
 * place; between the two, the reader takes the whole `.tmp`. A link at `path` is refused.
 */
function replaceFile(path: string, text: string): void {
	replaceFileNoFollowSync(path, text, temporaryOf(path));
}

/** `path`, or its whole replacement when a run stopped between removing it and renaming that. */
async function readReplacedFile(path: string): Promise<string> {
	try {
		return await readFile(path, 'utf8');
	} catch (error) {
		if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
		return await readFile(temporaryOf(path), 'utf8').catch(() => Promise.reject(error));
	}
}

/** The text of one saved file, read with `read` (a core reader); errors name the file. */
async function readSavedFile<T>(out: string, name: string, read: (text: string) => T): Promise<T> {
	const path = join(out, name);
	let text: string;
	try {
		text = await readReplacedFile(path);
	} catch (error) {
		const code = (error as { code?: unknown }).code;
		throw new CliInputError(
			code === 'ENOENT'
				? `${path}: no such file; --resume needs the --out folder of a run that was started`
				: `${path}: cannot read (${(error as Error).message})`,
		);
	}
	try {
		return read(text);
	} catch (error) {
		if (error instanceof LtmStateReadError) throw new CliInputError(`${path}: ${error.message}`);
		throw error;
	}
}

/**
 * The saved state of the run in `out`, joined from its files (or as one file, written by an
 * earlier release). Log lines past the checkpoint (appended just before a crash) are left out.
 * @throws CliInputError naming the file that is missing or wrong.
 */
export async function readLtmRunFiles(out: string): Promise<LtmRunState> {
	const saved = await readSavedFile(out, LTM_STATE_FILE, readSavedLtmState);
	if (saved.kind === 'whole') return saved.state;
	const { checkpoint } = saved;
	const tests = await readSavedFile(out, LTM_TESTS_FILE, readSavedLtmTests);
	const log = await readSavedFile(out, LTM_LOG_FILE, (text) =>
		readSavedLtmLog(text, checkpoint.logLength),
	);
	return stateFromCheckpoint(checkpoint, tests, log);
}

/** Longest time a replayable step's checkpoint may wait for the next one. */
export const CHECKPOINT_DELAY_MS = 200;

/**
 * Writes a run's files after every step: the new log entries appended, then the checkpoint
 * replaced (so the checkpoint never names entries the log lacks). A step that asked no model (a
 * canned filler reply) may leave its checkpoint to the next step, for up to CHECKPOINT_DELAY_MS:
 * a resume from the step before replays it exactly, and most of a long run is such steps. The
 * first save writes the tests and the whole log so far (a resumed run's log, converted from an
 * earlier release's file or cut back to its checkpoint), each replaced whole. Synchronous: a
 * step's few small writes cost less than the round trips through the I/O thread pool.
 */
export class LtmRunFilesWriter {
	#log: number | undefined;
	#masterLog: number | undefined;
	/** A state whose checkpoint is not written yet (close writes it). */
	#pending: LtmRunState | undefined;
	#checkpointAt = 0;
	readonly #now: () => number;

	/** `now`: the clock in ms that spaces checkpoints (tests inject one). */
	constructor(
		readonly out: string,
		now: () => number = Date.now,
	) {
		this.#now = now;
	}

	/**
	 * Saves `state`, of which `state.log.slice(logFrom)` is new since the last save; `replayable`:
	 * the step asked no model, so its checkpoint may wait.
	 */
	save(state: LtmRunState, logFrom: number, replayable = false): void {
		const logPath = join(this.out, LTM_LOG_FILE);
		const masterPath = join(this.out, GOODAI_MASTER_LOG_FILE);
		if (this.#log === undefined || this.#masterLog === undefined) {
			replaceFile(join(this.out, LTM_TESTS_FILE), JSON.stringify(state.tests));
			replaceFile(logPath, ltmLogLines(state.log));
			replaceFile(masterPath, goodaiMasterLogLines(state.startTime, state.log));
			this.#log = openNoFollowSync(logPath, 'append');
			this.#masterLog = openNoFollowSync(masterPath, 'append');
		} else {
			const added = state.log.slice(logFrom);
			appendFileSync(this.#log, ltmLogLines(added));
			appendFileSync(this.#masterLog, goodaiMasterLogLines(state.startTime, added));
		}
		this.#pending = state;
		if (!replayable || this.#now() - this.#checkpointAt >= CHECKPOINT_DELAY_MS) this.#checkpoint();
	}

	#checkpoint(): void {
		if (this.#pending === undefined) return;
		replaceFile(join(this.out, LTM_STATE_FILE), JSON.stringify(checkpointOf(this.#pending)));
		replaceFile(join(this.out, GOODAI_RUNSTATS_FILE), goodaiRunstatsText(this.#pending));
		this.#pending = undefined;
		this.#checkpointAt = this.#now();
	}

	/** Writes a waiting checkpoint and closes the log (call once the run ends, finished or not). */
	close(): void {
		if (this.#log !== undefined) {
			this.#checkpoint();
			closeSync(this.#log);
		}
		if (this.#masterLog !== undefined) closeSync(this.#masterLog);
		this.#log = undefined;
		this.#masterLog = undefined;
	}
}
