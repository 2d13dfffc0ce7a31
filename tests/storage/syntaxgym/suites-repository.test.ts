import { beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/core/hash/sha256';
import {
	createSuiteRun,
	deleteSuiteRun,
} from '../../../src/storage/syntaxgym/suite-runs-repository';
import {
	deleteSuite,
	getSuite,
	listSuites,
	saveSuite,
} from '../../../src/storage/syntaxgym/suites-repository';
import { clearDatabase } from '../clear-database';
import { SUITE_TEXT, runDraft } from '../fixtures';

beforeEach(clearDatabase);

describe('suites repository', () => {
	it('saves a suite under the SHA-256 of its text and reads it back', async () => {
		const saved = await saveSuite(
			{ text: SUITE_TEXT, name: 'tiny agreement', origin: 'file', sourceName: 'tiny.json' },
			1000,
		);
		expect(saved.sha256).toBe(sha256Hex(SUITE_TEXT));
		expect(await getSuite(saved.sha256)).toEqual({
			sha256: sha256Hex(SUITE_TEXT),
			name: 'tiny agreement',
			text: SUITE_TEXT,
			origin: 'file',
			sourceName: 'tiny.json',
			savedAt: 1000,
		});
	});

	it('stores the same text once and lists newest first', async () => {
		await saveSuite({ text: 'one', name: 'one', origin: 'paste' }, 1);
		await saveSuite({ text: 'two', name: 'two', origin: 'paste' }, 2);
		await saveSuite({ text: 'one', name: 'one again', origin: 'file' }, 3);
		const listed = await listSuites();
		expect(listed.map((suite) => [suite.name, suite.savedAt])).toEqual([
			['one again', 3],
			['two', 2],
		]);
	});

	it('deletes an unused suite outright', async () => {
		const saved = await saveSuite({ text: 'gone', name: 'gone', origin: 'paste' });
		await deleteSuite(saved.sha256);
		expect(await getSuite(saved.sha256)).toBeUndefined();
		expect(await listSuites()).toEqual([]);
	});

	it('keeps the text of a suite a run uses until that run is deleted', async () => {
		const saved = await saveSuite({ text: SUITE_TEXT, name: 'used', origin: 'paste' });
		const run = await createSuiteRun(runDraft({ suiteSha256: saved.sha256 }));
		await deleteSuite(saved.sha256);
		expect(await listSuites()).toEqual([]);
		expect((await getSuite(saved.sha256))?.text).toBe(SUITE_TEXT);
		await deleteSuiteRun(run.id);
		expect(await getSuite(saved.sha256)).toBeUndefined();
	});

	it('lists a removed suite again when it is saved again', async () => {
		const saved = await saveSuite({ text: SUITE_TEXT, name: 'used', origin: 'paste' });
		await createSuiteRun(runDraft({ suiteSha256: saved.sha256 }));
		await deleteSuite(saved.sha256);
		await saveSuite({ text: SUITE_TEXT, name: 'back', origin: 'file' });
		expect((await listSuites()).map((suite) => suite.name)).toEqual(['back']);
	});
});
