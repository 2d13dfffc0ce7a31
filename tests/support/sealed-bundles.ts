/**
 * Sealed bundles of the release fixtures' kinds (tests/fixtures/release-links), written again by
 * today's writer, and one change per kind to a result its seal covers: for the tests of the seal.
 */
import { readFileSync } from 'node:fs';
import type { KindRegistry } from '../../src/core/kinds/kind-registry';
import { RUN_KIND_REGISTRY } from '../../src/core/kinds/registered-kinds';

/** Each release kind with its fixture's file name. */
export const SEALED_KINDS = [
	['suite', 'suite'],
	['evals', 'evals'],
	['ltm', 'memory'],
] as const;

export type SealedKind = (typeof SEALED_KINDS)[number][0];

/** The release fixture `<file>.bundle.json` (of `kind`), written again by today's writer, as JSON. */
export function sealedJson(kind: SealedKind, file: string): Record<string, unknown> {
	const registry: KindRegistry = RUN_KIND_REGISTRY;
	const read = registry.readBundle(
		readFileSync(`tests/fixtures/release-links/${file}.bundle.json`, 'utf8'),
	);
	if (!read.ok || read.kind !== kind) throw new Error('the release fixtures do not open');
	const written = registry.get(kind)?.bundle.write(read.bundle);
	if (written === undefined) throw new Error(`no kind ${kind}`);
	return JSON.parse(written) as Record<string, unknown>;
}

/** Changes one result of a bundle's JSON, in the part each kind's seal covers. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- edits of any shape
export const EDIT_RESULT: Record<SealedKind, (json: any) => void> = {
	suite: (json) => (json.items[0].sentences[0].surprisalsBits[1] += 0.5),
	evals: (json) => (json.samples[0].result.picked = 'edited'),
	ltm: (json) => (json.summary.score += 1),
};
