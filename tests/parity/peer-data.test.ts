import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PEER_ROOT, isCi, missingPeerPaths, peerPath } from './peer-data';

describe('peer-data', () => {
	it('peerPath joins under ../shared/peer', () => {
		expect(PEER_ROOT.endsWith('/shared/peer/')).toBe(true);
		expect(peerPath('syntaxgym', 'suites/x.json')).toBe(`${PEER_ROOT}syntaxgym/suites/x.json`);
	});

	it.each([
		[{ CI: 'true' }, true],
		[{ CI: '1' }, true],
		[{ CI: 'TRUE' }, true],
		[{ CI: 'false' }, false],
		[{ CI: '' }, false],
		[{}, false],
	])('isCi(%j) = %s', (environment, expected) => {
		expect(isCi(environment)).toBe(expected);
	});

	it('missingPeerPaths lists absent paths once', () => {
		expect(missingPeerPaths(['no-such/a', 'no-such/a', 'no-such/b'])).toEqual([
			'no-such/a',
			'no-such/b',
		]);
	});

	/** Runs the fixture in a child vitest with CI set as given; its JSON report. */
	function runFixture(ci: string): {
		numFailedTests: number;
		numPendingTests: number;
		text: string;
	} {
		const script =
			"import { startVitest } from 'vitest/node';\n" +
			'const vitest = await startVitest("test", [], {\n' +
			'  config: false, watch: false, reporters: ["json"],\n' +
			'  include: ["tests/parity/fixtures/missing-peer.fixture.ts"],\n' +
			'});\n' +
			'await vitest?.close();\n';
		const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
			encoding: 'utf8',
			env: { ...process.env, CI: ci },
			timeout: 60_000,
		});
		const json = result.stdout.slice(result.stdout.indexOf('{'));
		const report = JSON.parse(json) as { numFailedTests: number; numPendingTests: number };
		return { ...report, text: result.stdout + result.stderr };
	}

	it.skipIf(existsSync(peerPath('no-such-dataset')))(
		'describeWithPeer: absent data skips with a message, and fails under CI=true',
		() => {
			const local = runFixture('');
			expect([local.numFailedTests, local.numPendingTests]).toEqual([0, 1]);
			expect(local.text).toContain('../shared/peer/no-such-dataset/file.tsv');
			const ci = runFixture('true');
			expect(ci.numFailedTests).toBe(1);
			expect(ci.text).toContain('peer data absent: ../shared/peer/no-such-dataset/file.tsv');
		},
	);
});
