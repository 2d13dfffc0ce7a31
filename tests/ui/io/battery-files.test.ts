// Files added to a battery: a folder's suites read in, broken files listed with their problem,
// other files skipped, zips opened within their caps, and the suite cap checked before reading.
import { readFileSync } from 'node:fs';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readBatteryFiles } from '../../../src/ui/io/battery-files';
import { MAX_SUITE_BYTES } from '../../../src/ui/io/suite-sources';

const AGREEMENT = readFileSync('suites/subject-verb-agreement-pp.json', 'utf8');
const NPI = readFileSync('suites/npi-licensing-ever.json', 'utf8');

/** A file as a folder pick gives it: with its path in the folder. */
function inFolder(path: string, content: string): File {
	const file = new File([content], path.split('/').pop() ?? path);
	Object.defineProperty(file, 'webkitRelativePath', { value: path });
	return file;
}

describe('readBatteryFiles', () => {
	it('reads a folder: suites listed by path, a broken file with its problem, others skipped', async () => {
		const read = await readBatteryFiles(
			[
				inFolder('suites/a.json', AGREEMENT),
				inFolder('suites/README.md', '# suites'),
				inFolder('suites/.DS_Store', 'x'),
				inFolder('suites/broken.json', '{\n  "meta": {"name": "x",\n}'),
				inFolder('suites/b.json', NPI),
			],
			500,
		);
		expect(read.skipped).toBe(2);
		expect(read.notRead).toBe(0);
		expect(read.entries.map((entry) => [entry.sourceName, entry.ok])).toEqual([
			['suites/a.json', true],
			['suites/broken.json', false],
			['suites/b.json', true],
		]);
		const broken = read.entries[1];
		expect(broken?.ok === false && broken.location).toBe('line 2, column 23');
	});

	it('reads no more files than there is room for', async () => {
		const files = [AGREEMENT, NPI, AGREEMENT].map((text, i) => inFolder(`d/${i}.json`, text));
		const read = await readBatteryFiles(files, 2);
		expect(read.entries).toHaveLength(2);
		expect(read.notRead).toBe(1);
	});

	it('refuses a file over the suite size cap, and text that is not UTF-8', async () => {
		const read = await readBatteryFiles(
			[
				new File([new Uint8Array(MAX_SUITE_BYTES + 1)], 'huge.json'),
				new File([new Uint8Array([0x7b, 0x22, 0xe9, 0x22, 0x7d])], 'latin1.json'),
			],
			500,
		);
		expect(read.entries.map((entry) => entry.ok)).toEqual([false, false]);
		const [huge, latin1] = read.entries;
		expect(huge?.ok === false && huge.problem).toMatch(/huge\.json is 10\.0 MB/);
		expect(latin1?.ok === false && latin1.problem).toMatch(/latin1\.json is not UTF-8 text/);
	});

	it('converts minimal pairs to a suite', async () => {
		const read = await readBatteryFiles(
			[new File(['good,bad\nThe dogs bark.,The dogs barks.\n'], 'pairs.csv')],
			500,
		);
		const [entry] = read.entries;
		expect(entry?.ok && entry.itemCount).toBe(1);
	});

	it('opens a zip: its suites named inside it, hidden entries and nested zips left out', async () => {
		const zip = zipSync({
			'battery/a.json': new TextEncoder().encode(AGREEMENT),
			'battery/b.json': new TextEncoder().encode(NPI),
			'battery/notes.txt': new TextEncoder().encode('notes'),
			'__MACOSX/battery/._a.json': new Uint8Array([0, 1, 2]),
			'inner.zip': new Uint8Array([1]),
		});
		const read = await readBatteryFiles([new File([zip], 'battery.zip')], 500);
		expect(read.entries.map((entry) => [entry.sourceName, entry.ok])).toEqual([
			['battery.zip/battery/a.json', true],
			['battery.zip/battery/b.json', true],
		]);
		expect(read.skipped).toBe(1);
	});

	it('lists a zip whose entry unpacks past the suite size cap as broken, before inflating', async () => {
		const zip = zipSync({ 'big.json': new Uint8Array(MAX_SUITE_BYTES + 1) });
		const read = await readBatteryFiles([new File([zip], 'bomb.zip')], 500);
		expect(read.entries).toHaveLength(1);
		const [entry] = read.entries;
		expect(entry?.ok).toBe(false);
		expect(entry?.ok === false && entry.problem).toMatch(/bomb\.zip\/big\.json: unpacks to/);
	});

	it('lists a file that is not a zip as broken', async () => {
		const read = await readBatteryFiles([new File(['not a zip'], 'fake.zip')], 500);
		const [entry] = read.entries;
		expect(entry?.ok === false && entry.problem).toMatch(/fake\.zip: not a readable zip/);
	});
});
