// The Library's export and import (issue 26 item 2): a stored run of each kind written as its
// kind's sealed bundle, several in a zip; the zip imported back stores each run anew, and the
// new runs export to the same bundles.
import { readFileSync } from 'node:fs';
import { unzipSync, strFromU8 } from 'fflate';
import { beforeEach, describe, expect, it } from 'vitest';
import { RUN_KIND_REGISTRY } from '../../../src/core/kinds/registered-kinds';

const readAnyRunBundle = (text: string) => RUN_KIND_REGISTRY.readBundle(text);
import {
	libraryBundleFileName,
	libraryEntryOf,
	type LibraryEntry,
} from '../../../src/core/library/library-entry';
import {
	createEvalsRun,
	listEvalsSamples,
	saveEvalsSample,
	updateEvalsRun,
} from '../../../src/storage/evals/evals-runs-repository';
import { createLtmRun, updateLtmRun } from '../../../src/storage/ltm/ltm-runs-repository';
import { saveItemResult } from '../../../src/storage/syntaxgym/suite-results-repository';
import {
	createSuiteRun,
	updateSuiteRun,
} from '../../../src/storage/syntaxgym/suite-runs-repository';
import { listLibraryRuns } from '../../../src/storage/shared/runs-repository';
import { saveSuite } from '../../../src/storage/syntaxgym/suites-repository';
import { libraryExportFile, storedBundleText } from '../../../src/ui/io/library-bundles';
import { RunHistory } from '../../../src/ui/state/shared/run-history.svelte';
import { clearDatabase } from '../../storage/clear-database';
import {
	evalsRunDraft,
	itemResult,
	ltmRunDraft,
	runDraft,
	sampleResult,
} from '../../storage/fixtures';

const SUITE_TEXT = readFileSync('tests/fixtures/scoring/mini-suite.json', 'utf8');

beforeEach(clearDatabase);

/** One finished suite run, one finished Evals run, one cancelled Memory run; the Library's rows. */
async function storeThreeKinds(): Promise<LibraryEntry[]> {
	const suite = await saveSuite({ text: SUITE_TEXT, name: 'mini', origin: 'paste' });
	const suiteRun = await createSuiteRun(
		runDraft({ suiteSha256: suite.sha256, suiteName: 'mini', itemCount: 2 }),
	);
	await saveItemResult(suiteRun.id, itemResult(2));
	await saveItemResult(suiteRun.id, itemResult(1));
	await updateSuiteRun(suiteRun.id, { status: 'done' }, 1_700_000_001_000);

	const evals = await createEvalsRun(evalsRunDraft({ createdAt: 1_700_000_002_000 }), 1);
	await saveEvalsSample(evals.id, {
		sampleId: 'capitals.dev.0',
		position: 0,
		result: sampleResult(0, 'Paris', true),
		events: [],
	});
	await saveEvalsSample(evals.id, {
		sampleId: 'capitals.dev.1',
		position: 1,
		result: sampleResult(1, 'Quito', false),
		events: [],
	});
	await updateEvalsRun(
		evals.id,
		{
			status: 'done',
			progress: { done: 2, total: 2, tokens: 9, elapsedMs: 40 },
			report: { accuracy: 0.5 },
		},
		1_700_000_003_000,
	);

	const ltm = await createLtmRun(ltmRunDraft({ createdAt: 1_700_000_004_000 }), 2);
	await updateLtmRun(ltm.id, { status: 'cancelled' }, 1_700_000_005_000);

	return (await listLibraryRuns()).runs.map(libraryEntryOf);
}

describe('Library bundles', () => {
	it('writes each kind as a sealed bundle its reader takes back', async () => {
		const entries = await storeThreeKinds();
		expect(entries.map((entry) => entry.kind)).toEqual(['ltm', 'evals', 'suite']);
		for (const entry of entries) {
			const read = readAnyRunBundle(await storedBundleText(entry));
			expect(read.ok && read.kind, entry.kind).toBe(entry.kind);
			expect(read.ok && typeof read.resultsSha256).toBe('string');
		}
	});

	it('a suite bundle has its items in suite order', async () => {
		const [suite] = (await storeThreeKinds()).filter((entry) => entry.kind === 'suite');
		const read = readAnyRunBundle(await storedBundleText(suite!));
		expect(read.ok && read.kind === 'suite' && read.bundle.items.map((i) => i.itemNumber)).toEqual([
			1, 2,
		]);
	});

	it('one run exports as its bundle, several as a zip; the zip imports back as new runs', async () => {
		const entries = await storeThreeKinds();
		const one = await libraryExportFile(entries.slice(0, 1));
		expect(one.fileName).toMatch(/^run\d+-ltm-.+\.benchtop-run\.json$/);
		expect('text' in one).toBe(true);

		const zip = await libraryExportFile(entries, new Date('2026-11-28T12:00:00Z'));
		expect(zip.fileName).toBe('benchtop-runs-2026-11-28-3.zip');
		if (!('bytes' in zip)) throw new Error('expected a zip');
		const files = unzipSync(zip.bytes);
		expect(Object.keys(files).sort()).toEqual(
			entries.map((entry) => libraryBundleFileName(entry)).sort(),
		);
		expect(Object.keys(files)).toContain(`run${entries[1]!.id}-evals-capitals.benchtop-run.json`);

		const history = new RunHistory();
		const imported = await history.importZip(zip.bytes, 'runs.zip');
		expect(imported, history.message ?? '').toHaveLength(3);
		expect(history.message).toMatch(
			/^Imported 3 of 3 runs from runs\.zip as run \d+, run \d+, run \d+\./,
		);
		expect(history.entries).toHaveLength(6);

		// Each new run writes the bundle it was imported from (the same JSON; a reader may order
		// an object's keys its own way).
		for (const [name, bytes] of Object.entries(files)) {
			const original = strFromU8(bytes);
			const kind = readAnyRunBundle(original);
			const copy = history.entries.find(
				(entry) => imported.includes(entry.id) && kind.ok && entry.kind === kind.kind,
			);
			expect(copy, name).toBeDefined();
			expect(JSON.parse(await storedBundleText(copy!)), name).toEqual(JSON.parse(original));
		}
		const evalsCopy = history.entries.find((e) => e.kind === 'evals' && imported.includes(e.id));
		expect((await listEvalsSamples(evalsCopy!.id)).map((s) => s.sampleId)).toEqual([
			'capitals.dev.0',
			'capitals.dev.1',
		]);
	});

	it('a zip with a broken bundle imports the others and says what is wrong', async () => {
		const entries = await storeThreeKinds();
		const zip = await libraryExportFile(entries.filter((entry) => entry.kind !== 'ltm'));
		if (!('bytes' in zip)) throw new Error('expected a zip');
		const files = unzipSync(zip.bytes);
		const { zipSync, strToU8 } = await import('fflate');
		const broken = zipSync({ ...files, 'bad.json': strToU8('{"format":"benchtop-run/2"') });
		const history = new RunHistory();
		expect(await history.importZip(broken, 'mixed.zip')).toHaveLength(2);
		expect(history.message).toMatch(
			/^Imported 2 of 3 runs from mixed\.zip .* mixed\.zip\/bad\.json cannot be imported/,
		);
		expect(await history.importZip(strToU8('not a zip'), 'junk.zip')).toEqual([]);
		expect(history.message).toMatch(/junk\.zip: not a readable zip/);
	});
});
