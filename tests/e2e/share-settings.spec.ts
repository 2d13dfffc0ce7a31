// Share links propose, never write: with an endpoint and a remembered key saved, opening a link
// made with another server and running it once leaves both as they were (also after a reload);
// only "Save as my endpoint" changes them. Suite links are made with the core encoder, Evals links
// by the app and edited with it; their server is unreachable, so the runs fail: the check is on
// the settings.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { decodeEvalsShare, encodeEvalsShare } from '../../src/core/evals/evals-share-payload';
import { sha256Hex } from '../../src/core/hash/sha256';
import { buildResultFingerprint } from '../../src/core/syntaxgym/share/result-fingerprint';
import { encodeShareLink } from '../../src/core/syntaxgym/share/share-link';
import { parseSuite } from '../../src/core/syntaxgym/suite/parse-suite';

const ENDPOINT_KEY = 'benchtop:endpoint';
const API_KEY_KEY = 'benchtop:endpoint-api-key';
const MINE = { baseUrl: 'http://127.0.0.1:9/v1', modelId: 'my-model', key: 'sk-mine-123' };
const THEIRS = { baseUrl: 'http://127.0.0.1:7/v1', model: 'their-model', key: 'sk-theirs-456' };

/** A share link of a (never run) suite scored through THEIRS: the fragment, without `#`. */
function linkWithAnotherServer(): string {
	const text = readFileSync('tests/fixtures/suites/good-standard.json', 'utf8');
	const parsed = parseSuite(text);
	if (!parsed.ok) throw new Error('fixture suite does not parse');
	const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
	const encoded = encodeShareLink({
		appVersion: version,
		suite: { kind: 'inline', text },
		suiteSha256: sha256Hex(text),
		model: { source: 'openai', model: THEIRS.model, baseUrl: THEIRS.baseUrl },
		convention: 'reference',
		results: buildResultFingerprint({ suite: parsed.suite, outcomes: [], regionValues: [] }),
	});
	if (!encoded.ok) throw encoded.error;
	return encoded.fragment;
}

async function savedSettings(page: Page): Promise<{ endpoint: unknown; key: string | null }> {
	return page.evaluate(
		([endpointKey, apiKeyKey]) => ({
			endpoint: JSON.parse(localStorage.getItem(endpointKey) ?? 'null') as unknown,
			key: localStorage.getItem(apiKeyKey),
		}),
		[ENDPOINT_KEY, API_KEY_KEY] as const,
	);
}

const mine = { endpoint: { baseUrl: MINE.baseUrl, modelId: MINE.modelId }, key: MINE.key };

/** Saves the user's endpoint on the Run page, with the key remembered. */
async function saveMyEndpoint(page: Page): Promise<void> {
	await page.goto('/');
	await page.getByRole('radio', { name: 'Endpoint' }).check();
	const form = page.getByTestId('endpoint-form');
	await form.getByLabel(/Base URL/).fill(MINE.baseUrl);
	await form.getByLabel('Model id').fill(MINE.modelId);
	await form.getByLabel(/API key/).fill(MINE.key);
	await form.getByLabel('Remember the key in this browser').check();
	expect(await savedSettings(page)).toEqual(mine);
}

test('opening a link and running it once changes no setting; saving it does', async ({ page }) => {
	await saveMyEndpoint(page);
	const form = page.getByTestId('endpoint-form');

	// The link's endpoint is a proposal; running it once writes nothing.
	const fragment = linkWithAnotherServer();
	await page.goto(`/#${fragment}`);
	await page.reload();
	const proposal = page.getByTestId('endpoint-proposal');
	await expect(proposal).toContainText(`This link's run used ${THEIRS.baseUrl} ${THEIRS.model}.`);
	await expect(proposal).toContainText(`Your saved endpoint (${MINE.modelId} at ${MINE.baseUrl})`);
	await expect(page.getByRole('button', { name: 'Run to reproduce' })).toHaveCount(0);
	await proposal.getByLabel(`API key for ${THEIRS.baseUrl}`).fill(THEIRS.key);
	await proposal.getByRole('button', { name: 'Run once with it' }).click();
	// Nothing listens there: the reproduction fails, and says so.
	await expect(page.locator('.share-view [role="alert"]')).toBeVisible({ timeout: 60_000 });
	expect(await savedSettings(page)).toEqual(mine);

	// After a reload every page still defaults to the user's endpoint and key.
	await page.goto('/');
	await page.reload();
	expect(await savedSettings(page)).toEqual(mine);
	await page.getByRole('radio', { name: 'Endpoint' }).check();
	await expect(form.getByLabel(/Base URL/)).toHaveValue(MINE.baseUrl);
	await expect(form.getByLabel('Model id')).toHaveValue(MINE.modelId);
	await expect(form.getByLabel(/API key/)).toHaveValue(MINE.key);

	// "Save as my endpoint" is the one way a link changes them (with the key typed for it).
	await page.goto(`/#${fragment}`);
	await page.reload();
	await proposal.getByLabel(`API key for ${THEIRS.baseUrl}`).fill(THEIRS.key);
	await proposal.getByRole('button', { name: 'Save as my endpoint' }).click();
	await expect(proposal).toContainText('It is your saved endpoint.');
	await expect(page.getByRole('button', { name: 'Run to reproduce' })).toBeVisible();
	expect(await savedSettings(page)).toEqual({
		endpoint: { baseUrl: THEIRS.baseUrl, modelId: THEIRS.model },
		key: THEIRS.key,
	});
});

test('an Evals link with an endpoint is a proposal: run once, nothing saved', async ({ page }) => {
	await saveMyEndpoint(page);
	// A short run on the local tiny model, shared; its link edited to name another server.
	await page.goto('/#/evals');
	await page
		.getByRole('button', { name: /^capitals\b/ })
		.first()
		.click();
	await page.getByLabel('Max samples').fill('2');
	await page.locator('table.params').first().getByLabel('Max new tokens').fill('2');
	await page.getByRole('button', { name: 'Run eval' }).click();
	await expect(page.getByTestId('evals-metrics')).toBeVisible({ timeout: 120_000 });
	await page.getByRole('button', { name: 'Share link' }).click();
	const link = await page.getByTestId('evals-share-link').inputValue();
	const payload = decodeEvalsShare(link.slice(link.indexOf('#/evals/share/') + 14));
	const edited = encodeEvalsShare({
		...payload,
		models: { policy: [{ source: 'openai', model: THEIRS.model, baseUrl: THEIRS.baseUrl }] },
	});

	await page.goto(`/#/evals/share/${edited}`);
	await page.reload();
	const proposal = page.getByTestId('endpoint-proposal');
	await expect(proposal).toContainText(`This link's run used ${THEIRS.baseUrl} ${THEIRS.model}.`);
	await expect(page.getByRole('button', { name: 'Run eval' })).toBeDisabled();
	expect(await savedSettings(page)).toEqual(mine);
	await proposal.getByRole('button', { name: 'Run once with it' }).click();
	// Nothing listens there: the run stops with a message; the settings are as they were.
	await expect(page.getByTestId('evals-progress')).toBeVisible({ timeout: 60_000 });
	await expect(page.getByRole('button', { name: 'Cancel' })).toHaveCount(0, { timeout: 60_000 });
	expect(await savedSettings(page)).toEqual(mine);
	await page.reload();
	expect(await savedSettings(page)).toEqual(mine);
});
