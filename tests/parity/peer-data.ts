// Third-party reference data in ../shared/peer (SyntaxGym, OpenAI evals, ...), read by tests at
// run time and never copied into the project. When a test's files are absent it skips with a
// message, except under CI (CI=true), where absent peer data fails the test. Test helper only.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';

/** `../shared/peer/` relative to the project root, as an absolute path ending in `/`. */
export const PEER_ROOT = fileURLToPath(new URL('../../../shared/peer/', import.meta.url));

/** The absolute path of `segments` (joined with `/`) under ../shared/peer. */
export function peerPath(...segments: string[]): string {
	return `${PEER_ROOT}${segments.join('/')}`;
}

/** Whether the tests run under CI (`CI=true`, as GitHub Actions and .ci/run set it). */
export function isCi(environment: NodeJS.ProcessEnv = process.env): boolean {
	return ['true', '1', 'yes'].includes((environment.CI ?? '').trim().toLowerCase());
}

/** The paths (relative to ../shared/peer) that do not exist. */
export function missingPeerPaths(paths: readonly string[]): string[] {
	return [...new Set(paths)].filter((path) => !existsSync(peerPath(path)));
}

/** What a test says when its peer data is missing. */
export function describeMissingPeerData(missing: readonly string[]): string {
	return (
		`peer data absent: ${missing.map((path) => `../shared/peer/${path}`).join(', ')} ` +
		'(put the shared reference data next to the project; under CI=true this fails)'
	);
}

/**
 * A `describe` block that needs files under ../shared/peer (`paths` relative to it, e.g.
 * `syntaxgym/suites/nextflow/npi_orc_any.json`). All present: runs `body`. Some absent: under
 * CI one failing test names them; elsewhere one skipped test names them (and a warning is
 * printed), and `body` is not called, so it may read the files at collection time.
 */
export function describeWithPeer(name: string, paths: readonly string[], body: () => void): void {
	const missing = missingPeerPaths(paths);
	if (missing.length === 0) {
		describe(name, body);
		return;
	}
	const message = describeMissingPeerData(missing);
	if (isCi()) {
		describe(name, () => {
			it('finds its reference data in ../shared/peer', () => {
				throw new Error(message);
			});
		});
		return;
	}
	console.warn(`${name}: skipped, ${message}`);
	describe(name, () => {
		it.skip(`skipped: ${message}`, () => {});
	});
}
