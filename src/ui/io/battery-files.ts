/**
 * Files added to a battery (picked, dropped, a folder's files, a zip) read into listed entries:
 * every cap is checked before bytes are read (suites left, bytes per suite and per add, the zip's
 * entries), each text is read as the Run page reads it (strict UTF-8, minimal pairs converted),
 * and parsing is the core's. Never throws for bad input: a bad file becomes a broken entry.
 */
import { describeError } from '../../core/messages/describe-error';
import { unzipBounded } from '../../core/formats/zip-archive';
import {
	MAX_BATTERY_ADD_BYTES,
	batteryFileKind,
	brokenBatteryEntry,
	readBatteryEntry,
	type BatteryEntry,
} from '../../core/syntaxgym/battery/battery-inputs';
import {
	MAX_SUITE_BYTES,
	convertIfMinimalPairs,
	decodeSuiteBytes,
	readSuiteFile,
} from './suite-sources';

export interface ReadBatteryFiles {
	readonly entries: readonly BatteryEntry[];
	/** Files that are not suites or zips (a README, hidden files): not read. */
	readonly skipped: number;
	/** Suite files not read because the list is full or the add is over its byte cap. */
	readonly notRead: number;
}

function pathOf(file: File): string {
	return file.webkitRelativePath || file.name;
}

/** Reads `files` into at most `room` entries. */
export async function readBatteryFiles(
	files: readonly File[],
	room: number,
): Promise<ReadBatteryFiles> {
	const entries: BatteryEntry[] = [];
	let skipped = 0;
	let notRead = 0;
	let bytes = 0;
	for (const file of files) {
		const path = pathOf(file);
		const kind = batteryFileKind(path);
		if (kind === null) {
			skipped += 1;
			continue;
		}
		if (
			entries.length >= room ||
			bytes + Math.min(file.size, MAX_SUITE_BYTES) > MAX_BATTERY_ADD_BYTES
		) {
			notRead += 1;
			continue;
		}
		if (kind === 'zip') {
			const read = await readZip(file, path, room - entries.length, MAX_BATTERY_ADD_BYTES - bytes);
			entries.push(...read.entries);
			skipped += read.skipped;
			notRead += read.notRead;
			bytes += read.bytes;
			continue;
		}
		// An oversized file is refused by readSuiteFile before reading: it costs nothing here.
		if (file.size <= MAX_SUITE_BYTES) bytes += file.size;
		const text = await readSuiteFile(file);
		entries.push(
			text.ok
				? readBatteryEntry(text.text, path, 'added')
				: brokenBatteryEntry(path, 'added', text.message),
		);
	}
	return { entries, skipped, notRead };
}

/** The suites of a zip (each entry checked against the suite size cap before it is inflated). */
async function readZip(
	file: File,
	path: string,
	room: number,
	byteRoom: number,
): Promise<ReadBatteryFiles & { bytes: number }> {
	if (file.size > byteRoom) {
		const problem = `${path} is ${(file.size / 1e6).toFixed(1)} MB; one add reads at most ${MAX_BATTERY_ADD_BYTES / 1e6} MB.`;
		return {
			entries: [brokenBatteryEntry(path, 'added', problem)],
			skipped: 0,
			notRead: 0,
			bytes: 0,
		};
	}
	let unzipped: Record<string, Uint8Array>;
	try {
		unzipped = unzipBounded(
			path,
			new Uint8Array(await file.arrayBuffer()),
			(name) => batteryFileKind(name) !== null,
			{ maxEntries: 10_000, maxEntryBytes: MAX_SUITE_BYTES, maxTotalBytes: byteRoom },
		);
	} catch (error) {
		return {
			entries: [brokenBatteryEntry(path, 'added', describeError(error))],
			skipped: 0,
			notRead: 0,
			bytes: 0,
		};
	}
	const entries: BatteryEntry[] = [];
	let notRead = 0;
	let skipped = 0;
	let bytes = 0;
	for (const [name, data] of Object.entries(unzipped)) {
		const inner = `${path}/${name}`;
		if (batteryFileKind(name) === 'zip') {
			skipped += 1; // a zip inside a zip is not opened
			continue;
		}
		if (entries.length >= room) {
			notRead += 1;
			continue;
		}
		bytes += data.length;
		const decoded = decodeSuiteBytes(data, inner);
		const text = decoded.ok ? convertIfMinimalPairs(decoded.text, name) : decoded;
		entries.push(
			text.ok
				? readBatteryEntry(text.text, inner, 'added')
				: brokenBatteryEntry(inner, 'added', text.message),
		);
	}
	return { entries, skipped, notRead, bytes };
}
