/**
 * What the parse worker makes of a run bundle it has read, by kind, before posting it to the page:
 * a family whose import stores rows built from its bundle builds them here, off the page's thread
 * (the suite family's item chunks, which its bundle store imports). A kind not listed arrives as
 * read. Runs in the parse worker: nothing here touches storage.
 */
import type { RunBundle } from '../../core/syntaxgym/run/run-bundle';
import { SUITE_RUN_KIND } from '../../core/syntaxgym/suite-run-kind';
import { suiteItemChunks, type SuiteItemChunk } from '../../storage/syntaxgym/suite-item-chunks';

/** A suite bundle whose items the parse worker has already cut into chunk rows. */
export interface ChunkedSuiteBundle extends Omit<RunBundle, 'items'> {
	readonly chunks: readonly SuiteItemChunk[];
}

const BUNDLE_TRANSFERS: Readonly<Record<string, (bundle: unknown) => unknown>> = {
	[SUITE_RUN_KIND.kind]: (bundle) => {
		const { items, ...rest } = bundle as RunBundle;
		return { ...rest, chunks: suiteItemChunks(items) } satisfies ChunkedSuiteBundle;
	},
};

/** Bundle `bundle` of kind `kind` as the parse worker posts it. */
export function bundleForTransfer(kind: string, bundle: unknown): unknown {
	const transfer = BUNDLE_TRANSFERS[kind];
	return transfer ? transfer(bundle) : bundle;
}
