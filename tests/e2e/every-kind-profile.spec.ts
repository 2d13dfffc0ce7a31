// A profile filled by a recent release with a run of every kind (tests/fixtures/every-kind-profile/:
// suite runs finished and interrupted, a two-suite battery, an Evals run with cached answers, an
// interrupted Memory run, Stimuli runs finished and interrupted) is recreated at its database
// version and opened by this build: every run shows in the Library with honest status words,
// opens on its kind's page, exports as a sealed bundle that imports back, and every interrupted
// run resumes to its end.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import { countRows, dumpDatabase, restoreDatabase, type ReleaseProfile } from './indexeddb-profile';

const PROFILE = JSON.parse(
	readFileSync('tests/fixtures/every-kind-profile/benchtop.json', 'utf8'),
) as ReleaseProfile;
/** A file of the build that the service worker never answers with the app: no database opened. */
const STATIC_FILE = '/models/gpt2-random-tiny/config.json';

interface StoredRun {
	id: number;
	kind: 'suite' | 'evals' | 'ltm' | 'stimuli';
	title: string;
	status: string;
	battery?: { id: string };
}
interface StoredItem {
	runId: number;
	kind: string;
}

function rows<T>(store: string): T[] {
	return (PROFILE.database.stores.find((entry) => entry.name === store)?.rows ?? []).map(
		(row) => row.value as T,
	);
}

const runs = rows<StoredRun>('runs');
const items = rows<StoredItem>('runItems');
const ofKind = (kind: StoredRun['kind']) => runs.filter((run) => run.kind === kind);
const interrupted = runs.filter((run) => run.status === 'running');
const table = (page: Page) => page.getByRole('table', { name: /Stored runs/ });
const libraryRow = (page: Page, id: number) =>
	table(page)
		.locator('tbody tr')
		.filter({ has: page.getByRole('button', { name: `Open run ${id}`, exact: true }) });

async function openLibrary(page: Page): Promise<void> {
	await page.goto('/#/history');
	await expect(page.getByRole('heading', { name: 'Library', exact: true })).toBeVisible();
	await expect(table(page).locator('tbody tr')).toHaveCount(runs.length);
}

test.beforeEach(async ({ page }) => {
	// The profile is what the test is about: it must hold every kind, finished and interrupted.
	expect(new Set(runs.map((run) => run.kind))).toEqual(
		new Set(['suite', 'evals', 'ltm', 'stimuli']),
	);
	expect(ofKind('suite').filter((run) => run.battery !== undefined)).toHaveLength(2);
	expect(new Set(interrupted.map((run) => run.kind))).toEqual(new Set(['suite', 'ltm', 'stimuli']));
	await page.goto(STATIC_FILE);
	await restoreDatabase(page, PROFILE.database);
});

test('the Library shows every run of every kind honestly; each opens on its page; all export as sealed bundles and import back', async ({
	page,
}) => {
	test.setTimeout(240_000);
	await openLibrary(page);
	for (const kind of ['suite', 'evals', 'ltm', 'stimuli'] as const) {
		await expect(table(page).locator(`tbody tr[data-kind="${kind}"]`)).toHaveCount(
			ofKind(kind).length,
		);
	}
	// Nothing works on a run left `running` by the release: it reads interrupted, with Resume.
	for (const run of runs) {
		const row = libraryRow(page, run.id);
		await expect(row).toContainText(run.title);
		if (run.status === 'running') {
			await expect(row).toContainText('interrupted');
			await expect(row).not.toContainText('running');
			await expect(row.getByRole('button', { name: `Resume run ${run.id}` })).toBeEnabled();
		} else {
			await expect(row).toContainText(`${run.status}, `);
		}
	}
	// The database is the release's: this build opens it without changing a row.
	const opened = await dumpDatabase(page, 'benchtop');
	expect(countRows(opened)).toEqual(PROFILE.counts);

	// Each run opens on its kind's page.
	for (const run of runs) {
		await openLibrary(page);
		await libraryRow(page, run.id)
			.getByRole('button', { name: `Open run ${run.id}` })
			.click();
		switch (run.kind) {
			case 'suite': {
				await expect(page).toHaveURL(new RegExp(`#/results/${run.id}$`));
				const stored = items.filter((item) => item.runId === run.id).length;
				await expect(page.getByTestId('results-status')).toContainText(
					run.status === 'done' ? `Done: ${stored} of ${stored} items` : `${stored} of`,
				);
				break;
			}
			case 'evals':
				await expect(page).toHaveURL(/#\/evals/);
				await expect(page.getByTestId('evals-metrics')).toBeVisible();
				break;
			case 'ltm':
				await expect(page).toHaveURL(/#\/memory/);
				await expect(
					page.getByTestId('memory-conversation').locator('.message').first(),
				).toBeVisible();
				break;
			case 'stimuli': {
				await expect(page).toHaveURL(/#\/stimuli/);
				const table = page.getByTestId('stimuli-table');
				await expect(table.locator('tbody tr').first()).toBeVisible();
				break;
			}
		}
	}

	// The battery's two suite runs make one matrix.
	await openLibrary(page);
	const battery = ofKind('suite').filter((run) => run.battery !== undefined);
	for (const run of battery) {
		await libraryRow(page, run.id)
			.getByRole('checkbox', { name: /^Pick run \d+ for/ })
			.check();
	}
	await page.getByRole('button', { name: `Matrix of picked runs (${battery.length})` }).click();
	await expect(page).toHaveURL(/#\/matrix/);
	for (const run of battery) await expect(page.getByRole('main')).toContainText(run.title);

	// Every run in one zip of sealed bundles, imported back as new runs.
	await openLibrary(page);
	for (const run of runs) {
		await libraryRow(page, run.id)
			.getByRole('checkbox', { name: /^Pick run \d+ for/ })
			.check();
	}
	const [download] = await Promise.all([
		page.waitForEvent('download'),
		page.getByRole('button', { name: `Export picked runs (${runs.length})` }).click(),
	]);
	const zip = readFileSync(await download.path());
	const files = unzipSync(new Uint8Array(zip));
	expect(Object.keys(files)).toHaveLength(runs.length);
	for (const bytes of Object.values(files)) {
		const bundle = JSON.parse(strFromU8(bytes)) as { format: string; resultsSha256: string };
		expect(bundle.format).toBe('benchtop-run/2');
		expect(bundle.resultsSha256).toMatch(/^[0-9a-f]{64}$/);
	}
	await page.getByTestId('history-import').setInputFiles({
		name: 'every-kind.zip',
		mimeType: 'application/zip',
		buffer: zip,
	});
	await expect(
		page
			.getByRole('status')
			.filter({ hasText: `Imported ${runs.length} of ${runs.length} runs from every-kind.zip` }),
	).toBeVisible();
	await expect(table(page).locator('tbody tr')).toHaveCount(2 * runs.length);
});

test('every interrupted run (suite, Memory, Stimuli) resumes from the Library to its end', async ({
	page,
}) => {
	test.setTimeout(420_000);
	for (const run of interrupted) {
		await openLibrary(page);
		await libraryRow(page, run.id)
			.getByRole('button', { name: `Resume run ${run.id}` })
			.click();
		switch (run.kind) {
			case 'suite': {
				const progress = page.getByRole('region', { name: 'Run progress' });
				await expect(progress.getByRole('status')).toHaveText('Done', { timeout: 150_000 });
				break;
			}
			case 'ltm':
				await expect(page.getByTestId('memory-progress')).toContainText(/(\d+) of \1 tests/, {
					timeout: 180_000,
				});
				await expect(page.getByTestId('memory-overall')).toBeVisible();
				break;
			case 'stimuli':
				await expect(page.getByTestId('stimuli-progress')).toContainText(/(\d+) of \1 words/, {
					timeout: 150_000,
				});
				break;
			default:
				throw new Error(`no resume check for kind ${run.kind}`);
		}
		await openLibrary(page);
		await expect(libraryRow(page, run.id)).toContainText(/done, (\d+)\/\1 /);
	}
});

test('going from one kind’s page to another by the menu reads that page’s runs and moves the focus there', async ({
	page,
}) => {
	await page.goto('/#/evals');
	await expect(page.getByRole('heading', { name: 'Evals', level: 2 })).toBeVisible();
	for (const [label, kind] of [
		['Memory', 'ltm'],
		['Stimuli', 'stimuli'],
		['Evals', 'evals'],
	] as const) {
		await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label }).click();
		await expect(page.getByRole('heading', { name: label, level: 2 })).toBeVisible();
		await expect(page.locator('main')).toBeFocused();
		// The page's own list of stored runs: every run of its kind, read on arrival.
		for (const run of ofKind(kind)) {
			await expect(
				page.getByRole('rowheader', { name: run.title, exact: true }).first(),
			).toBeVisible();
		}
	}
});
