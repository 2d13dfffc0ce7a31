// RunHistory: lists stored runs newest first, deletes with their items, reports a bad bundle with
// its location instead of throwing.
import { beforeEach, describe, expect, it } from 'vitest';
import { listItemResults, saveItemResult } from '../../../src/storage/results-repository';
import { createRun } from '../../../src/storage/runs-repository';
import { RunHistory } from '../../../src/ui/state/run-history.svelte';
import { clearDatabase } from '../../storage/clear-database';
import { itemResult, runDraft } from '../../storage/fixtures';

beforeEach(clearDatabase);

describe('RunHistory', () => {
	it('lists runs newest first and deletes one with its item results', async () => {
		const older = await createRun(runDraft({ createdAt: 1000 }));
		const newer = await createRun(runDraft({ createdAt: 2000 }));
		await saveItemResult(older.id, itemResult(1));
		const history = new RunHistory();
		await history.refresh();
		expect(history.loaded).toBe(true);
		expect(history.runs.map((run) => run.id)).toEqual([newer.id, older.id]);
		await history.delete(older.id);
		expect(history.runs.map((run) => run.id)).toEqual([newer.id]);
		expect(history.message).toBe(`Run ${older.id} deleted.`);
		expect(await listItemResults(older.id)).toEqual([]);
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
});
