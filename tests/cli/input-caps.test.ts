// Hostile inputs to the CLI stay within their caps (issue 19): a zip whose entry declares 1 GiB
// stops `ltm run` before anything is inflated, with the zip and entry named and exit 2.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { ltmCommand } from '../../src/cli/commands/ltm';
import { runCliCommand } from './run-cli-command';

const dir = mkdtempSync(join(tmpdir(), 'benchtop-caps-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Rewrites the uncompressed size of every central-directory entry (a lying header). */
function declareSize(zip: Uint8Array, size: number): Uint8Array {
	const out = zip.slice();
	const view = new DataView(out.buffer);
	for (let i = 0; i + 46 <= out.length; i++) {
		if (view.getUint32(i, true) === 0x02014b50) view.setUint32(i + 24, size, true);
	}
	return out;
}

describe('ltm run on a zip bomb', () => {
	it('refuses an entry declared at 1 GiB before inflating it (exit 2, located)', async () => {
		const zip = declareSize(
			zipSync({
				'Colours/config.yml': strToU8('config:\n  run_name: bomb\n'),
				'Colours/0.def.json': new Uint8Array(1 << 16),
			}),
			1024 ** 3,
		);
		const path = join(dir, 'bomb.zip');
		writeFileSync(path, zip);
		const before = process.memoryUsage().rss;
		const run = await runCliCommand(
			ltmCommand,
			['run', path, '--agent', 'replay:none.jsonl', '--out', join(dir, 'out')],
			'disk',
		);
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toMatch(/unpacks to 1024 MiB, more than the 64 MiB/);
		expect(process.memoryUsage().rss - before).toBeLessThan(256 * 1024 * 1024);
	});
});
