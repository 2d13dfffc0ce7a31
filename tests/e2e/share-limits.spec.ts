// Share links have limits, in the built app: a hostile link that unpacks past the cap (a
// 0.1.0-style Evals link, a format-2 suite link whose header says so, a Memory link) shows the
// clear message without the tab's memory growing; a run too large for a link gets its run bundle offered
// (a real run of a bundled suite on gpt2-random-tiny, imported elsewhere with a large suite note;
// a 2-sample Evals run of a 5,000-sample eval); links made by the 0.1.0 release still open and
// reproduce (tests/fixtures/release-links).
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { deflateSync, strToU8, zipSync } from 'fflate';
import { sha256Hex } from '../../src/core/hash/sha256';
import { RUN_KIND_REGISTRY } from '../../src/core/kinds/registered-kinds';
import { encodeBase64Url } from '../../src/core/share/base64url';
import {
	MAX_SHARE_INFLATED_BYTES,
	SHARE_LINK_BUDGET_CHARS,
	packShareBody,
} from '../../src/core/share/share-codec';
import { SUITE_SHARE } from '../../src/core/syntaxgym/share/share-routes';

const CAP_MESSAGE = /This link unpacks to more than 16 MiB, more than a share link may hold/;

/** Raw DEFLATE of `bytes` spaces: about 1,000 to 1. */
const spaces = (bytes: number) => deflateSync(new Uint8Array(bytes).fill(32), { level: 9 });

/**
 * The page's memory in MiB from the DevTools protocol: the JavaScript heap in use and the
 * ArrayBuffers' backing stores (where inflated bytes live), after the link was refused.
 */
async function memoryMiB(page: Page): Promise<{ heap: number; buffers: number }> {
	const cdp = await page.context().newCDPSession(page);
	const usage = (await cdp.send('Runtime.getHeapUsage')) as {
		usedSize: number;
		backingStorageSize?: number;
	};
	await cdp.detach();
	return { heap: usage.usedSize / 2 ** 20, buffers: (usage.backingStorageSize ?? 0) / 2 ** 20 };
}

test('a link that unpacks past the cap says so, and the tab stays small', async ({ page }) => {
	// The case: a 349 k-character 0.1.0-style Evals link that unpacked to 256 MB.
	const evalsBomb = `/#/evals/share/${encodeBase64Url(spaces(256 * 2 ** 20))}`;
	const suiteBomb = `/#${packShareBody(SUITE_SHARE, 2, ' '.repeat(MAX_SHARE_INFLATED_BYTES + 1))}`;
	const memoryBomb = `/#/memory/share/${encodeBase64Url(spaces(64 * 2 ** 20))}`;
	expect(evalsBomb.length).toBeGreaterThan(349_000);
	expect(suiteBomb.length).toBeLessThan(SHARE_LINK_BUDGET_CHARS);

	await page.goto('/#/glossary');
	const before = await memoryMiB(page);
	const cases: [string, string][] = [
		[evalsBomb, 'Evals'],
		[suiteBomb, 'suite'],
		[memoryBomb, 'Memory'],
	];
	for (const [url, what] of cases) {
		const started = Date.now();
		await page.goto(url);
		await expect(page.getByText(CAP_MESSAGE), what).toBeVisible({ timeout: 15_000 });
		const after = await memoryMiB(page);
		console.log(
			`${what} link of ${url.length} characters: refused in ${Date.now() - started} ms; JS heap ${after.heap.toFixed(0)} MiB, array buffers ${after.buffers.toFixed(0)} MiB (glossary page: ${before.heap.toFixed(0)} and ${before.buffers.toFixed(0)} MiB)`,
		);
		// At most the 16 MiB cap and its passing copies; unpacked in full, the Evals link alone
		// is 256 MB of bytes and a 256 MB string.
		expect(after.heap + after.buffers, what).toBeLessThan(before.heap + before.buffers + 96);
	}
	// Nothing from the links is shown: no shared run, no reproduction button.
	await expect(page.getByRole('button', { name: /Re-run the shared run/ })).toHaveCount(0);
});

/** Deterministic text that does not compress (xorshift32 over 26 letters). */
function noise(length: number): string {
	let state = 2463534242;
	let text = '';
	for (let i = 0; i < length; i++) {
		state ^= state << 13;
		state ^= state >>> 17;
		state ^= state << 5;
		text += String.fromCharCode(97 + ((state >>> 0) % 26));
	}
	return text;
}

/** Drops a file on the page header: the page-wide drop target takes suites and run bundles. */
async function dropFile(page: Page, name: string, content: string): Promise<void> {
	const dataTransfer = await page.evaluateHandle(
		({ name, content }) => {
			const transfer = new DataTransfer();
			transfer.items.add(new File([content], name, { type: 'application/json' }));
			return transfer;
		},
		{ name, content },
	);
	for (const type of ['dragenter', 'dragover', 'drop']) {
		await page.dispatchEvent('header', type, { dataTransfer });
	}
}

async function download(page: Page, button: string): Promise<string> {
	const [file] = await Promise.all([
		page.waitForEvent('download'),
		page.getByRole('button', { name: button }).click(),
	]);
	return readFileSync(await file.path(), 'utf8');
}

test('a run too large for a link offers its run bundle instead', async ({ page, browser }) => {
	await page.goto('/');
	await page.getByRole('button', { name: /Garden path: NP\/Z/ }).click();
	await page.getByLabel('Bundled model (works offline)').selectOption('gpt2-random-tiny');
	await page.getByRole('button', { name: 'Run suite' }).click();
	await expect(page).toHaveURL(/#\/results\/\d+$/);
	await expect(page.getByTestId('results-status')).toContainText('Done: 16 of 16 items', {
		timeout: 120_000,
	});
	const exported = JSON.parse(await download(page, 'Run bundle (JSON)')) as {
		run: { suiteSha256: string };
		suite: { text: string };
	};

	// The same run with 60,000 characters of notes in its suite: too large for any link.
	const suite = JSON.parse(exported.suite.text) as { meta: Record<string, unknown> };
	suite.meta['notes'] = noise(60_000);
	const suiteText = JSON.stringify(suite, null, '\t');
	exported.suite.text = suiteText;
	exported.run.suiteSha256 = sha256Hex(suiteText);

	const other = await (await browser.newContext()).newPage();
	await other.goto('/');
	await dropFile(other, 'large.benchtop-run.json', JSON.stringify(exported));
	await expect(other).toHaveURL(/#\/results\/1$/);
	await other.getByRole('button', { name: 'Share link' }).click();
	const refusal = other.getByTestId('share-too-large');
	await expect(refusal).toContainText(
		/This run is too large for a link: the link would be [\d,]+ characters, more than the 32,768 a link may have/,
	);
	await expect(other.getByTestId('share-url')).toHaveCount(0);
	const bundle = await download(other, 'Download the run bundle');
	const read = RUN_KIND_REGISTRY.readBundle(bundle);
	expect(read.ok && read.kind).toBe('suite');
	expect(read.ok && read.kind === 'suite' && read.bundle.suiteText).toBe(suiteText);
	expect(JSON.parse(bundle)).toMatchObject({ format: 'benchtop-run/2', kind: 'suite' });
});

test('an Evals run of a large eval offers its run bundle instead of a link', async ({ page }) => {
	// The case, smaller: 2 samples run of a 5,000-sample eval (the link would carry all).
	const samples = Array.from({ length: 5000 }, (_, index) =>
		JSON.stringify({
			input: [{ role: 'user', content: `Greet guest ${noise(24).slice(index % 8)} ${index}.` }],
			ideal: ' ',
		}),
	).join('\n');
	const zip = zipSync({
		'registry/evals/greetings.yaml': readFileSync(
			'tests/fixtures/evals-ui/registry/evals/greetings.yaml',
		),
		'registry/data/greetings/samples.jsonl': strToU8(`${samples}\n`),
	});
	await page.goto('/#/evals');
	await page.getByTestId('evals-files').setInputFiles({
		name: 'registry.zip',
		mimeType: 'application/zip',
		buffer: Buffer.from(zip),
	});
	await page.getByLabel('Eval', { exact: true }).selectOption('greetings');
	await expect(page.getByText(/Picked greetings\.dev\.v0/)).toContainText('5000 samples');
	await page.locator('table.params').first().getByLabel('Max new tokens').fill('1');
	await page.getByLabel('Max samples').fill('2');
	await page.getByRole('button', { name: 'Run eval' }).click();
	// The run's panel, message included: a run that stopped early says why in the failure.
	const runPanel = page.getByRole('region', { name: '3. Run' });
	await expect(runPanel).toContainText('2 of 2 samples', { timeout: 120_000 });
	await page.getByRole('button', { name: 'Share link' }).click();
	await expect(page.getByTestId('share-too-large')).toContainText(
		/This run is too large for a link: the link would be [\d,]+ characters, more than the 32,768 a link may have/,
	);
	await expect(page.getByTestId('evals-share-link')).toHaveCount(0);
	const read = RUN_KIND_REGISTRY.readBundle(await download(page, 'Download the run bundle'));
	expect(read.ok && read.kind).toBe('evals');
	expect(read.ok && read.kind === 'evals' && read.bundle.samples).toHaveLength(2);
});

test('links of the 0.1.0 release still open and reproduce (Evals and Memory, replay models)', async ({
	page,
}) => {
	const link = (name: string) =>
		readFileSync(`tests/fixtures/release-links/${name}`, 'utf8').trim();
	await page.goto(`/${link('evals.link.txt')}`);
	await expect(page.getByText(/Opened a shared run of capitals \(2 verdicts\)/)).toBeVisible();
	await page.getByRole('button', { name: 'Run eval' }).click();
	await expect(page.getByText('Reproduced: 2/2 verdicts identical to the shared run.')).toBeVisible(
		{ timeout: 60_000 },
	);

	await page.goto(`/${link('memory.link.txt')}`);
	await expect(page.getByRole('heading', { name: 'Shared run: t' })).toBeVisible();
	await page.getByRole('button', { name: 'Re-run the shared run' }).click();
	await expect(page.getByText(/Reproduced: all 1 scores match the sharer/)).toBeVisible({
		timeout: 60_000,
	});
});
