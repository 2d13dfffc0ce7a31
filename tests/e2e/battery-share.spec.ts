// A battery's share link on the real engine: a 2-suite battery of bundled suites with the bundled
// gpt2-random-tiny, its matrix, "Share link"; the link opened in a fresh profile (a new browser
// context) shows the suites, the model and the sharer's accuracies, and "Reproduce battery" runs
// it again to the same accuracy for every suite, with its own matrix. A link whose suite SHA-256
// was changed (and re-packed, so the checksum holds) is refused before anything starts; a hostile
// or cut-off link is refused; a link's endpoint is a proposal that running once never saves.
import { readFileSync } from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { sha256Hex } from '../../src/core/hash/sha256';
import { packShareFragment, unpackShareLink } from '../../src/core/share/share-codec';
import { encodeBatteryShare } from '../../src/core/syntaxgym/share/battery-share';
import { BATTERY_SHARE } from '../../src/core/syntaxgym/share/share-routes';

const MODEL_ID = 'gpt2-random-tiny';
const SUITE_FILES = ['garden-path-npz.json', 'subject-verb-agreement-pp.json'] as const;

function suiteName(file: string): string {
	return (JSON.parse(readFileSync(`suites/${file}`, 'utf8')) as { meta: { name: string } }).meta
		.name;
}

/** Runs the suites as one battery and returns the link made on its matrix page. */
async function shareNewBattery(
	page: Page,
): Promise<{ url: string; matrixCounts: Map<string, string> }> {
	await page.goto('/#/battery');
	for (const file of SUITE_FILES) {
		await page.getByRole('checkbox', { name: new RegExp(escape(suiteName(file))) }).check();
	}
	await page.getByLabel('Bundled model (works offline)').selectOption(MODEL_ID);
	await page.getByRole('button', { name: 'Run battery' }).click();
	await page.getByTestId('battery-matrix-link').click({ timeout: 150_000 });
	await expect(page).toHaveURL(/#\/matrix\/[0-9a-f-]{36}$/);
	const table = page.getByRole('table', { name: /Item accuracy per suite and model/ });
	await expect(table).toBeVisible();
	// The matrix's "correct/items" of each suite (prediction 0).
	const matrixCounts = new Map<string, string>();
	for (const file of SUITE_FILES) {
		const row = table.getByRole('row').filter({
			has: page.getByRole('rowheader', { name: suiteName(file) }),
		});
		const counts = /(\d+)\/(\d+)/.exec((await row.textContent()) ?? '');
		matrixCounts.set(suiteName(file), `${counts?.[1]} / ${counts?.[2]}`);
	}
	await page.getByRole('button', { name: 'Share link' }).click();
	const field = page.getByTestId('battery-share-url');
	await expect(field).toBeVisible();
	await expect(page.getByText(/^(Copied|Link ready) \(\d+ characters, 2 suites/)).toBeVisible();
	return { url: await field.inputValue(), matrixCounts };
}

function escape(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** A page in a new browser context: a fresh profile, no runs, no settings. */
async function freshPage(browser: Browser): Promise<Page> {
	const context = await browser.newContext();
	return context.newPage();
}

test('a battery link reproduces the whole battery in a fresh profile', async ({
	page,
	browser,
}) => {
	test.setTimeout(300_000);
	const { url, matrixCounts } = await shareNewBattery(page);
	expect(url).toMatch(/#\/share\/battery\/2\/[A-Za-z0-9_-]+$/);
	console.log(`battery link of ${SUITE_FILES.join(' + ')}: ${url.length} characters`);
	const sharedBatteryId = /#\/matrix\/([0-9a-f-]{36})$/.exec(page.url())?.[1];

	const opened = await freshPage(browser);
	await opened.goto(url);
	await expect(opened.getByRole('heading', { name: 'Shared battery' })).toBeVisible();
	await expect(opened.getByTestId('battery-share-model')).toContainText(MODEL_ID);
	const rows = opened.getByTestId('battery-share-suite');
	await expect(rows).toHaveCount(SUITE_FILES.length);
	for (const file of SUITE_FILES) {
		// Each suite by its bundled file, with the sharer's accuracy: the matrix's.
		const row = rows.filter({ hasText: suiteName(file) });
		await expect(row).toContainText(file);
		await expect(row.getByTestId('battery-shared-accuracy')).toContainText(
			`(${matrixCounts.get(suiteName(file))})`,
		);
	}
	const shared = await opened.getByTestId('battery-shared-accuracy').allTextContents();

	await opened.getByRole('button', { name: 'Reproduce battery' }).click();
	await expect(opened.getByTestId('battery-share-comparison')).toHaveText(
		/^Reproduced:\s+2 of 2 suites have the shared accuracy\.$/,
		{ timeout: 150_000 },
	);
	const reproduced = await opened.getByTestId('battery-reproduced-accuracy').allTextContents();
	for (const [index, text] of reproduced.entries()) {
		const sharedAccuracy = shared[index]?.trim() ?? 'none';
		expect(text.trim().startsWith(sharedAccuracy)).toBe(true);
		expect(text).toMatch(/same, (\d+)\/\1 outcomes identical/);
	}

	// The new battery has its own matrix in the fresh profile.
	const matrixLink = opened.getByRole('link', { name: 'Open the matrix' });
	const href = (await matrixLink.getAttribute('href')) ?? '';
	expect(href).toMatch(/^#\/matrix\/[0-9a-f-]{36}$/);
	expect(href).not.toContain(sharedBatteryId);
	await matrixLink.click();
	const table = opened.getByRole('table', { name: /Item accuracy per suite and model/ });
	await expect(table.locator('tbody tr:not(.circuit)')).toHaveCount(SUITE_FILES.length);
	await opened.context().close();

	// The same link with a suite's SHA-256 changed, re-packed so that its checksum holds.
	const unpacked = unpackShareLink(url, BATTERY_SHARE);
	if (!unpacked.ok) throw unpacked.error;
	const { kind: _kind, ...json } = unpacked.json as {
		kind: string;
		suites: { sha256: string; name: string; source: { file?: string } }[];
	};
	const first = json.suites[0];
	if (!first) throw new Error('no suite in the link');
	first.sha256 = first.sha256.replace(/^./, (digit) => (digit === '0' ? '1' : '0'));
	const tamperedUrl = `${url.slice(0, url.indexOf('#'))}#${packShareFragment(BATTERY_SHARE, json)}`;
	const tampered = await freshPage(browser);
	await tampered.goto(tamperedUrl);
	await expect(tampered.getByTestId('battery-share-problem')).toHaveText(
		`Suite "${first.name}" is not the one the link was made with: the SHA-256 of the bundled suite ${first.source.file} differs from the link's. The battery was not started.`,
	);
	await expect(tampered.getByRole('button', { name: 'Reproduce battery' })).toBeDisabled();
	// Nothing was started: no run in the fresh profile's history.
	await tampered.getByRole('link', { name: 'History' }).click();
	await expect(tampered.getByText(/No runs yet|no runs/i).first()).toBeVisible();
	await tampered.context().close();
});

test('a damaged battery link and one naming a path are refused with a message', async ({
	page,
}) => {
	const fragment = packShareFragment(BATTERY_SHARE, {
		appVersion: '0.1.0',
		model: { source: 'bundled', id: MODEL_ID, dtype: 'fp32', backend: 'wasm' },
		convention: 'reference',
		suites: [
			{
				source: { kind: 'bundled', file: '../../etc/passwd.json' },
				sha256: '0'.repeat(64),
				name: 'x',
				accuracy: { correct: 0, items: 0 },
			},
		],
	});
	await page.goto(`/#${fragment}`);
	await expect(page.getByTestId('share-error')).toHaveText(
		/^This share link is not a battery Benchtop can read \(suites\.0\.source\.file: is not the file name of a bundled suite/,
	);
	await expect(page.getByRole('button', { name: 'Reproduce battery' })).toHaveCount(0);
	const cut = fragment.slice(0, fragment.length - 7);
	await page.goto(`/#${cut}`);
	await expect(page.getByTestId('share-error')).toContainText('This share link is cut off');
});

test("a battery link's endpoint is a proposal: running it once changes no setting", async ({
	page,
}) => {
	const mine = { baseUrl: 'http://127.0.0.1:9/v1', modelId: 'my-model', key: 'sk-mine-123' };
	const theirs = { baseUrl: 'http://127.0.0.1:7/v1', model: 'their-model' };
	const settings = () =>
		page.evaluate(() => ({
			endpoint: localStorage.getItem('benchtop:endpoint'),
			key: localStorage.getItem('benchtop:endpoint-api-key'),
		}));
	await page.goto('/');
	await page.getByRole('radio', { name: 'Endpoint' }).check();
	const form = page.getByTestId('endpoint-form');
	await form.getByLabel(/Base URL/).fill(mine.baseUrl);
	await form.getByLabel('Model id').fill(mine.modelId);
	await form.getByLabel(/API key/).fill(mine.key);
	await form.getByLabel('Remember the key in this browser').check();
	const saved = await settings();
	expect(saved.key).toBe(mine.key);

	const file = SUITE_FILES[0];
	const encoded = encodeBatteryShare({
		appVersion: '0.1.0',
		model: { source: 'openai', ...theirs },
		convention: 'reference',
		suites: [
			{
				source: { kind: 'bundled', file },
				sha256: sha256Hex(readFileSync(`suites/${file}`, 'utf8')),
				name: suiteName(file),
				accuracy: { correct: 1, items: 2 },
			},
		],
	});
	if (!encoded.ok) throw encoded.error;
	await page.goto(`/#${encoded.fragment}`);
	await page.reload();
	const proposal = page.getByTestId('endpoint-proposal');
	await expect(proposal).toContainText(`This link's run used ${theirs.baseUrl} ${theirs.model}.`);
	await expect(page.getByRole('button', { name: 'Reproduce battery' })).toHaveCount(0);
	await proposal.getByRole('button', { name: 'Run once with it' }).click();
	// Nothing listens there: the battery fails, and says so; the settings are as they were.
	await expect(page.locator('.share-view [role="alert"]')).toContainText(
		`Cannot reach ${theirs.baseUrl}`,
		{ timeout: 60_000 },
	);
	expect(await settings()).toEqual(saved);
	await page.reload();
	expect(await settings()).toEqual(saved);
});
