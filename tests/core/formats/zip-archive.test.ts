// Bounded unzip (issue 19 item 4): caps on entries, per-entry and total uncompressed bytes are
// checked from the central directory before inflating, and a header that lies about an entry's
// size cannot make it inflate past the size it declared.
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
	DEFAULT_ZIP_CAPS,
	entryText,
	unzipBounded,
	ZipArchiveError,
	zipTexts,
} from '../../../src/core/formats/zip-archive';

const CAPS = { maxEntries: 3, maxEntryBytes: 1000, maxTotalBytes: 1500 };

/** Rewrites the uncompressed size of every central-directory entry (a lying header). */
function declareSize(zip: Uint8Array, size: number): Uint8Array {
	const out = zip.slice();
	const view = new DataView(out.buffer);
	for (let i = 0; i + 46 <= out.length; i++) {
		if (view.getUint32(i, true) === 0x02014b50) view.setUint32(i + 24, size, true);
	}
	return out;
}

describe('unzipBounded', () => {
	it('reads entries within the caps, skipping folders, __MACOSX and dot files', () => {
		const zip = zipSync({
			'a/b.json': strToU8('{"x": 1}'),
			'a/': new Uint8Array(0),
			'__MACOSX/a/._b.json': strToU8('junk'),
			'.DS_Store': strToU8('junk'),
		});
		const entries = unzipBounded('defs.zip', zip, () => true, { ...CAPS, maxEntries: 10 });
		expect(Object.keys(entries)).toEqual(['a/b.json']);
		expect(entryText(entries['a/b.json']!)).toBe('{"x": 1}');
	});

	it.each([
		[
			'an entry over the per-entry cap',
			{ 'zeros.json': new Uint8Array(1001) },
			/zeros\.json: unpacks to 0 MiB, more than the 0 MiB/,
		],
		[
			'entries over the total cap',
			{ 'a.json': new Uint8Array(800), 'b.json': new Uint8Array(800) },
			/unpacks to more than/,
		],
		[
			'more entries than the cap',
			{
				'a.json': strToU8('1'),
				'b.json': strToU8('2'),
				'c.json': strToU8('3'),
				'd.json': strToU8('4'),
			},
			/more than 3 entries/,
		],
	])('refuses %s, naming the zip', (_what, files, message) => {
		expect(() => unzipBounded('bomb.zip', zipSync(files), () => true, CAPS)).toThrow(message);
		expect(() => unzipBounded('bomb.zip', zipSync(files), () => true, CAPS)).toThrow(
			ZipArchiveError,
		);
	});

	it('refuses an entry that declares 1 GiB before inflating any of it (default caps)', () => {
		const zip = declareSize(zipSync({ 'big.def.json': new Uint8Array(4096) }), 1024 ** 3);
		expect(() => unzipBounded('bomb.zip', zip)).toThrow(
			/big\.def\.json: unpacks to 1024 MiB, more than the 64 MiB/,
		);
		expect(DEFAULT_ZIP_CAPS.maxTotalBytes).toBe(256 * 1024 * 1024);
	});

	it('inflates a lying entry only to the size it declared', () => {
		const zip = declareSize(zipSync({ 'liar.json': new Uint8Array(100_000) }), 10);
		let entries: Record<string, Uint8Array>;
		try {
			entries = unzipBounded('liar.zip', zip, () => true, CAPS);
		} catch (error) {
			// fflate may also refuse the inconsistent entry: either way nothing grows past 10 bytes.
			expect(error).toBeInstanceOf(ZipArchiveError);
			return;
		}
		expect(entries['liar.json']?.length ?? 0).toBeLessThanOrEqual(10);
	});

	it('names a file that is not a zip', () => {
		expect(() => unzipBounded('notes.zip', strToU8('hello'))).toThrow(
			/notes\.zip: not a readable zip/,
		);
	});

	it('only inflates the entries asked for', () => {
		const zip = zipSync({ 'keep.json': strToU8('{}'), 'skip.bin': new Uint8Array(5000) });
		const entries = unzipBounded('x.zip', zip, (name) => name.endsWith('.json'), CAPS);
		expect(Object.keys(entries)).toEqual(['keep.json']);
	});
});

describe('zipTexts', () => {
	it('round-trips text files through unzipBounded', () => {
		const zip = zipTexts({ 'Colours/0_0.json': '{"score": 1.0}', 'summary.json': '{}' });
		const entries = unzipBounded('out.zip', zip);
		expect(entryText(entries['Colours/0_0.json']!)).toBe('{"score": 1.0}');
	});
});
