// RunHistory: lists stored runs newest first, deletes with their items, reports a bad bundle with
// its location instead of throwing.
import { beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../../src/core/hash/sha256';
import { SUITE_RUN_KIND } from '../../../../src/core/syntaxgym/suite-run-kind';
import { db } from '../../../../src/storage/shared/db';
import {
	getItemResult,
	listItemResults,
	saveItemResult,
} from '../../../../src/storage/syntaxgym/suite-results-repository';
import {
	createSuiteRun,
	deleteSuiteRun,
	getSuiteRun,
} from '../../../../src/storage/syntaxgym/suite-runs-repository';
import {
	PARSE_IN_WORKER_BYTES,
	createInThreadParseClient,
} from '../../../../src/ui/io/parse-inputs-client';
import { RunHistory } from '../../../../src/ui/state/shared/run-history.svelte';
import { clearDatabase } from '../../../storage/clear-database';
import { SUITE_TEXT, itemResult, runDraft } from '../../../storage/fixtures';

/** A sealed suite run bundle of `count` items (the storage fixtures' items). */
function bundleText(count: number): string {
	return SUITE_RUN_KIND.bundle.write({
		run: {
			...runDraft({ suiteSha256: sha256Hex(SUITE_TEXT), itemCount: count }),
			status: 'done',
			updatedAt: 1_700_000_001_000,
			scoringMs: 5,
			tokenCount: 7 * count,
		},
		suiteText: SUITE_TEXT,
		items: Array.from({ length: count }, (_, index) => itemResult(index + 1)),
	});
}

beforeEach(clearDatabase);

describe('RunHistory', () => {
	it('lists runs newest first and deletes one with its item results', async () => {
		const older = await createSuiteRun(runDraft({ createdAt: 1000 }));
		const newer = await createSuiteRun(runDraft({ createdAt: 2000 }));
		await saveItemResult(older.id, itemResult(1));
		const history = new RunHistory();
		await history.refresh();
		expect(history.loaded).toBe(true);
		expect(history.runs.map((run) => run.id)).toEqual([newer.id, older.id]);
		await history.delete(older.id, deleteSuiteRun);
		expect(history.runs.map((run) => run.id)).toEqual([newer.id]);
		expect(history.message).toBe(`Run ${older.id} deleted.`);
		expect(await listItemResults(older.id)).toEqual([]);
	});

	it("says when a kind's session could not delete a run, or left it (a run going on)", async () => {
		const run = await createSuiteRun(runDraft({ createdAt: 1000 }));
		const history = new RunHistory();
		await history.refresh();
		await history.delete(run.id, () => Promise.reject(new Error('the database is closed')));
		expect(history.message).toBe(`Run ${run.id} could not be deleted: the database is closed`);
		await history.delete(run.id, () => Promise.resolve());
		expect(history.message).toBe(
			`Run ${run.id} was not deleted: a run is going on on its page; wait for it or cancel it.`,
		);
		expect(history.runs.map((entry) => entry.id)).toEqual([run.id]);
	});

	it('reports a malformed bundle with its JSON pointer and keeps working', async () => {
		const history = new RunHistory();
		const bundle = JSON.stringify({ format: 'benchtop-run', formatVersion: 1, run: 7 });
		expect(await history.importBundle(bundle, 'bad.json')).toBeNull();
		expect(history.message).toMatch(/^bad\.json cannot be imported at \/run: /);
		expect(await history.importBundle('{not json', 'broken.json')).toBeNull();
		expect(history.message).toMatch(/^broken\.json cannot be imported/);
		await history.refresh();
		expect(history.runs).toEqual([]);
	});

	it('reads storage usage and persistence without throwing where the API is missing', async () => {
		const history = new RunHistory();
		await history.refresh();
		expect(['granted', 'denied', 'unsupported']).toContain(history.persistence);
		expect(['granted', 'denied', 'unsupported']).toContain(await history.requestPersistence());
	});

	it('imports a bundle over PARSE_IN_WORKER_BYTES through the parse worker, in chunk rows', async () => {
		const text = bundleText(2500);
		expect(text.length).toBeGreaterThan(PARSE_IN_WORKER_BYTES);
		const history = new RunHistory();
		const target = await history.importBundleFile(
			new File([text], 'big.json'),
			createInThreadParseClient,
		);
		expect(target?.route).toBe(`#/results/${target?.runId}`);
		const record = await getSuiteRun(target?.runId ?? -1);
		expect(record).toMatchObject({ itemsDone: 2500, status: 'done' });
		expect(history.message).toBe(
			`Imported big.json as run ${record?.id}. Its results match the SHA-256 it was written with.`,
		);
		expect(history.importing).toBeNull();
		expect(await getItemResult(record?.id ?? -1, 2500)).toEqual(itemResult(2500));
		expect((await listItemResults(record?.id ?? -1)).map((item) => item.itemNumber)).toEqual(
			Array.from({ length: 2500 }, (_, index) => index + 1),
		);
		expect(await db.runItems.count()).toBeLessThan(10);
	});

	it('reports a big bundle whose results were edited, as the text path does, and stores nothing', async () => {
		const text = bundleText(2500).replace('"Ġruns"', '"Ġwalks"');
		const history = new RunHistory();
		const record = await history.importBundleFile(
			new File([text], 'edited.json'),
			createInThreadParseClient,
		);
		expect(record).toBeNull();
		const viaWorker = history.message;
		expect(await history.importBundle(text, 'edited.json')).toBeNull();
		expect(viaWorker).toBe(history.message);
		expect(viaWorker).toMatch(/^edited\.json cannot be imported at \/resultsSha256: /);
		expect(await db.runItems.count()).toBe(0);
	});

	it('a cancel while the worker reads the file stores nothing and says so', async () => {
		const history = new RunHistory();
		const importing = history.importBundleFile(
			new File([bundleText(2500)], 'big.json'),
			createInThreadParseClient,
		);
		expect(history.importing).toEqual({ name: 'big.json', stored: 0, total: null });
		history.cancelImport();
		expect(await importing).toBeNull();
		expect(history.message).toBe('Import of big.json cancelled; nothing of it was stored.');
		expect(history.importing).toBeNull();
		await history.refresh();
		expect(history.runs).toEqual([]);
	});
});
