/**
 * Zip archives over fflate, bounded: entries are checked against an entry-count cap, a per-entry
 * and a total uncompressed cap, from the central directory, before anything is inflated; each
 * entry inflates into a buffer of its declared size, so a header that lies cannot make it grow.
 * Text entries are read as UTF-8. Pure; the other fflate user is the share-link codec.
 */
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { BenchtopError } from '../errors';

/** The caps of {@link unzipBounded}; the README states the defaults. */
export interface ZipCaps {
	readonly maxEntries: number;
	readonly maxEntryBytes: number;
	readonly maxTotalBytes: number;
}

export const DEFAULT_ZIP_CAPS: ZipCaps = {
	maxEntries: 10_000,
	maxEntryBytes: 64 * 1024 * 1024,
	maxTotalBytes: 256 * 1024 * 1024,
};

/** A zip that cannot be read within the caps, or not at all; the message names the zip and entry. */
export class ZipArchiveError extends BenchtopError {
	override name = 'ZipArchiveError';
}

const MIB = 1024 * 1024;
const mib = (bytes: number): string => `${Math.round((bytes / MIB) * 10) / 10} MiB`;

/**
 * The entries of a zip that `keep` accepts (folders and `__MACOSX`/dot files are skipped), as bytes.
 * @throws ZipArchiveError when the zip is not readable or breaks a cap (before inflating).
 */
export function unzipBounded(
	zipName: string,
	bytes: Uint8Array,
	keep: (entryName: string) => boolean = () => true,
	caps: ZipCaps = DEFAULT_ZIP_CAPS,
): Record<string, Uint8Array> {
	let entries = 0;
	let total = 0;
	try {
		return unzipSync(bytes, {
			filter: (file) => {
				entries += 1;
				if (entries > caps.maxEntries) {
					throw new ZipArchiveError(
						`${zipName}: holds more than ${caps.maxEntries} entries, the most Benchtop opens.`,
					);
				}
				if (file.name.endsWith('/')) return false;
				if (file.name.split('/').some((part) => part === '__MACOSX' || part.startsWith('.'))) {
					return false;
				}
				if (!keep(file.name)) return false;
				if (file.originalSize > caps.maxEntryBytes) {
					throw new ZipArchiveError(
						`${zipName}/${file.name}: unpacks to ${mib(file.originalSize)}, more than the ${mib(caps.maxEntryBytes)} Benchtop reads from one entry.`,
					);
				}
				total += file.originalSize;
				if (total > caps.maxTotalBytes) {
					throw new ZipArchiveError(
						`${zipName}: unpacks to more than ${mib(caps.maxTotalBytes)}, the most Benchtop reads from one zip.`,
					);
				}
				return true;
			},
		});
	} catch (cause) {
		if (cause instanceof ZipArchiveError) throw cause;
		throw new ZipArchiveError(
			`${zipName}: not a readable zip (${cause instanceof Error ? cause.message : String(cause)}).`,
		);
	}
}

/** An entry's bytes as UTF-8 text (malformed bytes become U+FFFD; a byte-order mark dropped). */
export function entryText(bytes: Uint8Array): string {
	const text = strFromU8(bytes);
	return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

/** A zip of text files (UTF-8), for exports. */
export function zipTexts(files: Readonly<Record<string, string>>): Uint8Array {
	return zipSync(
		Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)])),
	);
}
