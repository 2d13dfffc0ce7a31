/**
 * The suite family's bundles in the Library: a stored suite run written as its sealed bundle (its
 * items in suite order), and a suite bundle stored as a new run of this browser with its suite,
 * all or nothing, with progress and cancel (importSuiteRun). A big bundle file read in the parse
 * worker arrives with its items as the chunk rows the import stores. Reads and writes storage
 * through repositories only.
 */
import type { RunBundle } from '../../core/syntaxgym/run/run-bundle';
import { SUITE_RUN_KIND } from '../../core/syntaxgym/suite-run-kind';
import { listItemResults } from '../../storage/syntaxgym/suite-results-repository';
import { importSuiteRun } from '../../storage/syntaxgym/suite-runs-repository';
import type { KindBundleStore } from './kind-bundle-store';
import type { ChunkedSuiteBundle } from './kind-bundle-transfers';
import { loadRunWithSuite } from './stored-run';

export const SUITE_BUNDLE_STORE: KindBundleStore<RunBundle | ChunkedSuiteBundle> = {
	async exportText(runId) {
		const { run, suiteText, suite } = await loadRunWithSuite(runId);
		const order = new Map(suite.items.map((item, index) => [item.itemNumber, index]));
		const items = (await listItemResults(runId))
			.filter((item) => order.has(item.itemNumber))
			.sort((a, b) => (order.get(a.itemNumber) ?? 0) - (order.get(b.itemNumber) ?? 0));
		const { id: _id, itemsDone: _itemsDone, ...portable } = run;
		return SUITE_RUN_KIND.bundle.write({ run: portable, suiteText, items });
	},

	async importBundle(bundle, options) {
		const { run, suiteText } = bundle;
		const pieces = 'items' in bundle ? { items: bundle.items } : { chunks: bundle.chunks };
		const total =
			'items' in pieces
				? pieces.items.length
				: pieces.chunks.reduce((sum, chunk) => sum + chunk.itemNumbers.length, 0);
		options.onProgress?.(0, total);
		const { sourceName } = options;
		const suite = { text: suiteText, name: run.suiteName, origin: 'import', sourceName } as const;
		const record = await importSuiteRun({ run, suite, ...pieces }, options);
		return record.id;
	},
};
