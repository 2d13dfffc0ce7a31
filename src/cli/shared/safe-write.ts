/**
 * The one way the CLI writes a file: under `--out`, and at the paths `--record_path`,
 * `--inspect_log` and `--battery-csv` name. Never through a symbolic link: a link at the final
 * path is refused (a CliInputError naming the path, exit code 2); a whole file goes to a
 * temporary file beside it, created exclusively (`wx`: O_CREAT | O_EXCL, which never follows a
 * link), then renamed over the final path (which replaces the directory entry, never writes
 * through it); a file written as the run goes (a log) is opened with O_NOFOLLOW.
 */
import {
	constants,
	lstatSync,
	openSync,
	readlinkSync,
	renameSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { lstat, rename, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { CliInputError } from './cli-io';

function linkRefused(path: string): CliInputError {
	let target = 'elsewhere';
	try {
		target = readlinkSync(path);
	} catch {
		// Gone or unreadable since: the message names the path all the same.
	}
	return new CliInputError(
		`${path}: refused to write through a symbolic link (to ${target}); remove the link or write elsewhere`,
	);
}

const errorCode = (error: unknown): unknown => (error as { code?: unknown }).code;

/** No such path (or a file where a folder should be): nothing there to refuse. */
const missing = (error: unknown): boolean =>
	errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR';

/** @throws CliInputError when `path` is a symbolic link (a missing path is fine). */
export function refuseLinkSync(path: string): void {
	let isLink: boolean;
	try {
		isLink = lstatSync(path).isSymbolicLink();
	} catch (error) {
		if (missing(error)) return;
		throw error;
	}
	if (isLink) throw linkRefused(path);
}

/** @throws CliInputError when `path` is a symbolic link (a missing path is fine). */
export async function refuseLink(path: string): Promise<void> {
	let isLink: boolean;
	try {
		isLink = (await lstat(path)).isSymbolicLink();
	} catch (error) {
		if (missing(error)) return;
		throw error;
	}
	if (isLink) throw linkRefused(path);
}

/**
 * Writes `text` to `path` whole: refused when `path` is a link, else written to a new temporary
 * file beside it (random name, created exclusively) that is then renamed over `path`.
 * @throws CliInputError when `path` is a symbolic link.
 */
export async function writeFileNoFollow(path: string, text: string): Promise<void> {
	await refuseLink(path);
	const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
	try {
		await writeFile(temporary, text, { flag: 'wx' });
		await rename(temporary, path);
	} catch (error) {
		await rm(temporary, { force: true });
		throw error;
	}
}

/**
 * Replaces `path` with `text` through the temporary file `temporary` (a fixed name, so a reader
 * can take it when a run stopped between the two steps): the temporary file is created
 * exclusively (one left by a stopped run, or a link put there, is removed first, never written
 * through), the old file removed, the new one renamed into place. NOTE: removing first keeps ext4
 * from flushing the new file's data on the rename (auto_da_alloc), half a millisecond a step.
 * @throws CliInputError when `path` is a symbolic link.
 */
export function replaceFileNoFollowSync(path: string, text: string, temporary: string): void {
	refuseLinkSync(path);
	try {
		writeFileSync(temporary, text, { flag: 'wx' });
	} catch (error) {
		if (errorCode(error) !== 'EEXIST') throw error;
		rmSync(temporary, { force: true });
		writeFileSync(temporary, text, { flag: 'wx' });
	}
	rmSync(path, { force: true });
	renameSync(temporary, path);
}

/**
 * Opens `path` for writing as a run goes, created when missing: `append` keeps what is there,
 * `truncate` empties it. O_NOFOLLOW: a link at `path` is refused, not followed.
 * @throws CliInputError when `path` is a symbolic link.
 */
export function openNoFollowSync(path: string, how: 'append' | 'truncate'): number {
	refuseLinkSync(path);
	const flags =
		constants.O_WRONLY |
		constants.O_CREAT |
		(how === 'append' ? constants.O_APPEND : constants.O_TRUNC) |
		(constants.O_NOFOLLOW ?? 0);
	try {
		return openSync(path, flags, 0o666);
	} catch (error) {
		if (errorCode(error) === 'ELOOP') throw linkRefused(path);
		throw error;
	}
}
