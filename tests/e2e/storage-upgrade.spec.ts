// A profile filled by a released build (tests/fixtures/release-profile/: a finished and an
// interrupted suite run, two Evals runs with cached answers, a Memory run stopped mid-way) is
// recreated at the release's database version, then opened by this build, which upgrades it:
// every run, item, sample, state and cache entry is still there, readable, resumable, exportable.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import {
	countRows,
	dumpDatabase,
	restoreDatabase,
	type DatabaseDump,
	type ReleaseProfile,
} from './indexeddb-profile';

const PROFILE = JSON.parse(
	readFileSync('tests/fixtures/release-profile/benchtop.json', 'utf8'),
) as ReleaseProfile;
/** A file of the build that the service worker never answers with the app: no database opened. */
const STATIC_FILE = '/models/gpt2-random-tiny/config.json';

interface SuiteRunRow {
	id: number;
	suiteName: string;
	suiteSha256: string;
	status: string;
	itemsDone: number;
	itemCount: number;
	createdAt: number;
}
interface ItemResultRow {
	runId: number;
	itemNumber: number;
	savedAt: number;
	sentences: { surprisalsBits: unknown }[];
}
interface EvalsRunRow {
	id: number;
	evalName: string;
	status: string;
	createdAt: number;
	progress: { done: number; total: number };
	report?: Record<string, number>;
}
interface EvalsSampleRow {
	runId: number;
	sampleId: string;
	savedAt: number;
	result: { correct?: boolean };
}
interface LtmRunRow {
	id: number;
	runName: string;
	status: string;
	createdAt: number;
	progress: { testsDone: number; testsTotal: number };
}
interface LtmStateRow {
	runId: number;
	savedAt: number;
	state: { log: unknown[] };
}

function rows<T>(database: DatabaseDump, store: string): T[] {
	return (database.stores.find((entry) => entry.name === store)?.rows ?? []).map(
		(row) => row.value as T,
	);
}

const release = {
	suiteRuns: rows<SuiteRunRow>(PROFILE.database, 'runs'),
	items: rows<ItemResultRow>(PROFILE.database, 'itemResults'),
	evalsRuns: rows<EvalsRunRow>(PROFILE.database, 'evalsRuns'),
	samples: rows<EvalsSampleRow>(PROFILE.database, 'evalsSamples'),
	ltmRuns: rows<LtmRunRow>(PROFILE.database, 'ltmRuns'),
	ltmStates: rows<LtmStateRow>(PROFILE.database, 'ltmStates'),
	cache: rows<{ key: string; completion: string; createdAt: string }>(
		PROFILE.database,
		'responseCache',
	),
	suites: rows<{ sha256: string; text: string }>(PROFILE.database, 'suites'),
};
const finishedRun = release.suiteRuns.find((run) => run.status === 'done');
const interruptedRun = release.suiteRuns.find((run) => run.status !== 'done');

/** A `{ $type: 'Float64Array', base64 }` marker of the dump as numbers. */
function float64s(marker: unknown): number[] {
	const { $type, base64 } = marker as { $type: string; base64: string };
	expect($type).toBe('Float64Array');
	const bytes = Buffer.from(base64, 'base64');
	return Array.from(new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8));
}

async function downloadText(page: Page, button: string): Promise<string> {
	const [download] = await Promise.all([
		page.waitForEvent('download'),
		page.getByRole('button', { name: button, exact: true }).click(),
	]);
	return readFileSync(await download.path(), 'utf8');
}

test.beforeEach(async ({ page }) => {
	expect(finishedRun && interruptedRun).toBeTruthy();
	await page.goto(STATIC_FILE);
	await restoreDatabase(page, PROFILE.database);
	await page.evaluate((entries) => {
		for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
	}, PROFILE.localStorage);
});

test('the upgraded database holds every run, item, sample, state and cache entry', async ({
	page,
}, testInfo) => {
	// History lists the runs once the app has opened (and so upgraded) the database.
	await page.goto('/#/history');
	await expect(
		page.getByRole('rowheader', { name: new RegExp(`^Run ${interruptedRun?.id}\\b`) }),
	).toBeVisible();
	const upgraded = await dumpDatabase(page, 'benchtop');
	const before = countRows(PROFILE.database);
	const after = countRows(upgraded);
	console.log(`release (version ${PROFILE.database.version}):`, JSON.stringify(before));
	console.log(`upgraded (version ${upgraded.version}):`, JSON.stringify(after));
	testInfo.annotations.push(
		{ type: 'rows before', description: JSON.stringify(before) },
		{ type: 'rows after', description: JSON.stringify(after) },
	);
	expect(upgraded.version).toBeGreaterThan(PROFILE.database.version);
	expect(upgraded.stores.map((store) => store.name)).not.toContain('itemResults');

	interface RunRecord {
		id: number;
		kind: string;
		title: string;
		status: string;
		createdAt: number;
	}
	interface RunItem {
		runId: number;
		kind: string;
		key: number | string;
		savedAt?: number;
		result?: { correct?: boolean };
		state?: { log?: unknown[] };
	}
	const runs = rows<RunRecord>(upgraded, 'runs');
	const items = rows<RunItem>(upgraded, 'runItems');
	const byId = new Map(runs.map((run) => [run.id, run]));
	const describe = (run: RunRecord | undefined) =>
		run ? `${run.kind} ${run.title} ${run.status} ${run.createdAt}` : 'no run';
	const sorted = (list: string[]) => [...list].sort();

	// Runs: the same ones, by kind, title, status and creation time; suite runs keep their ids.
	expect(sorted(runs.map(describe))).toEqual(
		sorted([
			...release.suiteRuns.map((run) => `suite ${run.suiteName} ${run.status} ${run.createdAt}`),
			...release.evalsRuns.map((run) => `evals ${run.evalName} ${run.status} ${run.createdAt}`),
			...release.ltmRuns.map((run) => `ltm ${run.runName} ${run.status} ${run.createdAt}`),
		]),
	);
	for (const run of release.suiteRuns) expect(byId.get(run.id)?.title).toBe(run.suiteName);

	// Suite items: every item of every run, with the time it was saved (not scored again).
	expect(
		sorted(
			items
				.filter((item) => item.kind === 'suite-item')
				.map((item) => `${item.runId}/${item.key}@${item.savedAt}`),
		),
	).toEqual(
		sorted(release.items.map((item) => `${item.runId}/${item.itemNumber}@${item.savedAt}`)),
	);

	// Evals samples: every sample under its run, with its verdict.
	const evalsName = new Map(release.evalsRuns.map((run) => [run.id, run.evalName]));
	expect(
		sorted(
			items
				.filter((item) => item.kind === 'evals-sample')
				.map(
					(item) =>
						`${byId.get(item.runId)?.title}/${item.key} ${item.result?.correct}@${item.savedAt}`,
				),
		),
	).toEqual(
		sorted(
			release.samples.map(
				(sample) =>
					`${evalsName.get(sample.runId)}/${sample.sampleId} ${sample.result.correct}@${sample.savedAt}`,
			),
		),
	);

	// Each Evals run's input (the resolved eval, replay texts) is one item beside its run row.
	expect(
		sorted(
			items
				.filter((item) => item.kind === 'evals-input')
				.map((item) => `${byId.get(item.runId)?.title}`),
		),
	).toEqual(sorted(release.evalsRuns.map((run) => run.evalName)));

	// The Memory run's state, and every entry of its log (inside the state or kept apart).
	const ltmName = new Map(release.ltmRuns.map((run) => [run.id, run.runName]));
	const logLength = (runId: number) =>
		items
			.filter((item) => item.runId === runId)
			.reduce(
				(sum, item) =>
					sum +
					(item.kind === 'ltm-log' ? 1 : 0) +
					(item.kind === 'ltm-state' ? (item.state?.log?.length ?? 0) : 0),
				0,
			);
	expect(
		sorted(
			items
				.filter((item) => item.kind === 'ltm-state')
				.map(
					(item) => `${byId.get(item.runId)?.title}@${item.savedAt} log ${logLength(item.runId)}`,
				),
		),
	).toEqual(
		sorted(
			release.ltmStates.map(
				(row) => `${ltmName.get(row.runId)}@${row.savedAt} log ${row.state.log.length}`,
			),
		),
	);

	// The response cache and the suite library, entry for entry.
	expect(sorted(rows<{ key: string }>(upgraded, 'responseCache').map((row) => row.key))).toEqual(
		sorted(release.cache.map((row) => row.key)),
	);
	expect(sorted(rows<{ sha256: string }>(upgraded, 'suites').map((row) => row.sha256))).toEqual(
		sorted(release.suites.map((row) => row.sha256)),
	);
});

test('the Library lists every run of every kind; the finished suite run shows and exports every item, the interrupted one resumes', async ({
	page,
}) => {
	const done = finishedRun!;
	const stopped = interruptedRun!;
	await page.goto('/#/history');
	// The Library lists every run of every kind of the release profile, each once.
	const kinds = { suite: release.suiteRuns, evals: release.evalsRuns, ltm: release.ltmRuns };
	await expect(page.getByRole('rowheader', { name: /^Run \d+\b/ })).toHaveCount(
		Object.values(kinds).reduce((sum, runs) => sum + runs.length, 0),
	);
	for (const [kind, runs] of Object.entries(kinds)) {
		await expect(page.locator(`table.history tbody tr[data-kind="${kind}"]`)).toHaveCount(
			runs.length,
		);
	}
	const historyRow = (id: number) => page.getByRole('row', { name: new RegExp(`^Run ${id}\\b`) });
	// A Memory run left running reads interrupted (nothing works on it), with Resume.
	for (const ltm of release.ltmRuns) {
		const row = page
			.locator('table.history tbody tr[data-kind="ltm"]')
			.filter({ hasText: ltm.runName });
		const word = ltm.status === 'running' ? 'interrupted' : ltm.status;
		await expect(row).toContainText(
			`${word}, ${ltm.progress.testsDone}/${ltm.progress.testsTotal} tests`,
		);
		if (ltm.status === 'running') {
			await expect(row.getByRole('button', { name: /^Resume run \d+$/ })).toBeEnabled();
		}
	}
	await expect(historyRow(done.id)).toContainText(
		`done, ${done.itemCount}/${done.itemCount} items`,
	);
	await expect(historyRow(stopped.id)).toContainText(
		`${stopped.itemsDone}/${stopped.itemCount} items`,
	);
	const resume = historyRow(stopped.id).getByRole('button', { name: `Resume run ${stopped.id}` });
	await expect(resume).toBeEnabled();
	await expect(page.getByRole('heading', { name: 'Interrupted runs' })).toBeVisible();

	// The finished run: every item in the grid, every item in the exports, the same surprisals.
	await page.getByRole('button', { name: `Open run ${done.id}` }).click();
	await expect(page.getByTestId('results-status')).toContainText(
		`Done: ${done.itemCount} of ${done.itemCount} items`,
	);
	await expect(page.getByTestId('item-grid').locator('tbody tr')).toHaveCount(done.itemCount);
	const suite = release.suites.find((entry) => entry.sha256 === done.suiteSha256);
	const predictions = (JSON.parse(suite?.text ?? '{}') as { predictions: unknown[] }).predictions;
	const tsv = await downloadText(page, 'Result TSV');
	expect(tsv.trimEnd().split('\n')).toHaveLength(1 + done.itemCount * predictions.length);
	const bundle = JSON.parse(await downloadText(page, 'Run bundle (JSON)')) as {
		items: { itemNumber: number; sentences: { surprisalsBits: unknown[] }[] }[];
	};
	const storedItems = release.items.filter((item) => item.runId === done.id);
	expect(bundle.items).toHaveLength(storedItems.length);
	for (const stored of storedItems) {
		const exported = bundle.items.find((item) => item.itemNumber === stored.itemNumber);
		expect(exported?.sentences.map((sentence) => sentence.surprisalsBits)).toEqual(
			stored.sentences.map((sentence) => float64s(sentence.surprisalsBits)),
		);
	}

	// The interrupted run goes on from its stored items to the end.
	await page.getByRole('link', { name: 'Library' }).click();
	await resume.click();
	const progress = page.getByRole('region', { name: 'Run progress' });
	await expect(progress.getByText(`${stopped.itemCount} / ${stopped.itemCount} items`)).toBeVisible(
		{ timeout: 150_000 },
	);
	await expect(progress.getByRole('status')).toHaveText('Done');
});

test('Evals lists both runs with their reports and verdicts; the response cache counts every entry', async ({
	page,
}) => {
	await page.goto('/#/evals');
	await expect(page.getByRole('heading', { name: 'Evals', level: 2 })).toBeVisible();
	for (const run of release.evalsRuns) {
		const row = page
			.getByRole('row')
			.filter({ has: page.getByRole('rowheader', { name: run.evalName, exact: true }) });
		await expect(row).toContainText(
			`${run.status}, ${run.progress.done}/${run.progress.total} samples`,
		);
		const accuracy = run.report?.accuracy;
		if (accuracy !== undefined) await expect(row).toContainText(accuracy.toFixed(3));

		// Shown: its metrics, one table row per sample, and the verdicts in the exported log.
		await row.getByRole('button', { name: /^Show run \d+$/ }).click();
		const metrics = page.getByTestId('evals-metrics');
		await expect(metrics).toBeVisible();
		if (accuracy !== undefined) {
			const shown = metrics
				.getByRole('row', { name: /^accuracy/ })
				.locator('td')
				.first();
			expect(Number(await shown.innerText())).toBeCloseTo(accuracy, 4);
		}
		const samples = release.samples.filter((sample) => sample.runId === run.id);
		await expect(
			page.getByText(`${samples.length} of ${samples.length} samples shown`),
		).toBeVisible();
		const log = (await downloadText(page, 'Export oaieval log (JSONL)'))
			.split('\n')
			.filter((line) => line.trim() !== '')
			.map(
				(line) =>
					JSON.parse(line) as { type?: string; sample_id?: string; data?: { correct?: boolean } },
			);
		const verdicts = log
			.filter((event) => event.type === 'match')
			.map((event) => `${event.sample_id} ${event.data?.correct}`)
			.sort();
		expect(verdicts).toEqual(
			samples.map((sample) => `${sample.sampleId} ${sample.result.correct}`).sort(),
		);
	}

	// The cache panel counts every entry and lists the newest ones, read back whole.
	await page.goto('/#/history');
	await expect(page.getByTestId('response-cache-size')).toContainText(
		`${release.cache.length} cached completions`,
	);
	const newest = [...release.cache].sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
	await expect(page.getByTestId('response-cache').locator('tbody')).toContainText(
		newest?.completion.trim() ?? 'no cached completion in the fixture',
	);
});

test('Memory lists the interrupted run, and Resume goes on to the end', async ({ page }) => {
	const run = release.ltmRuns[0]!;
	await page.goto('/#/memory');
	await expect(page.getByRole('heading', { name: 'Memory', level: 2 })).toBeVisible();
	const row = page
		.getByRole('row')
		.filter({ has: page.getByRole('rowheader', { name: run.runName, exact: true }) });
	// A run left `running` that no session of this tab works on reads "interrupted".
	const statusWord = run.status === 'running' ? 'interrupted' : run.status;
	await expect(row).toContainText(
		`${statusWord}, ${run.progress.testsDone}/${run.progress.testsTotal} tests`,
	);
	const notice = page.getByRole('status').filter({ hasText: 'stopped' });
	await expect(notice).toContainText(run.runName);
	await notice.getByRole('button', { name: /Resume/ }).click();
	await expect(page.getByTestId('memory-progress')).toContainText(
		`${run.progress.testsTotal} of ${run.progress.testsTotal} tests`,
		{ timeout: 180_000 },
	);
	await expect(page.getByTestId('memory-overall')).toBeVisible();
	await expect(row).toContainText(
		`done, ${run.progress.testsTotal}/${run.progress.testsTotal} tests`,
	);
	// The conversation kept what came before the reload.
	await expect(page.getByTestId('memory-conversation').locator('.message').first()).toBeVisible();
});
