// A `?suite=<url>` link naming another host (issue 28, item 7): the page asks before it fetches,
// names the host, fetches once on "Load" and never on "Don't load"; a body that never ends is cut
// at the 10 MB cap with a message. The suite server is started here on 127.0.0.1 (another port,
// so another origin) and counts the requests it sees. The page's Content-Security-Policy names
// what the page may connect to.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { axeSummary } from './axe';

const SUITE_TEXT = readFileSync('suites/filler-gap-object.json', 'utf8');
const SUITE_NAME = 'Filler-gap dependencies: object extraction';

let server: Server | undefined;
let origin = '';
const requests: string[] = [];

test.beforeAll(async () => {
	server = createServer((request, response) => {
		requests.push(request.url ?? '');
		response.setHeader('Access-Control-Allow-Origin', '*');
		if (request.url === '/suite.json') {
			response.setHeader('Content-Type', 'application/json');
			response.end(SUITE_TEXT);
			return;
		}
		if (request.url === '/endless.json') {
			// No Content-Length: 64 KiB chunks as fast as the page reads them, never an end.
			response.setHeader('Content-Type', 'application/json');
			const chunk = Buffer.alloc(64 * 1024, 0x20);
			const pump = (): void => {
				while (!response.destroyed && response.write(chunk));
				if (!response.destroyed) response.once('drain', pump);
			};
			response.on('close', () => response.removeAllListeners('drain'));
			pump();
			return;
		}
		response.statusCode = 404;
		response.end();
	});
	await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
	origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
	server?.closeAllConnections();
	await new Promise((resolve) => server?.close(resolve));
});

test.beforeEach(() => {
	requests.length = 0;
});

test('a ?suite= link to another host asks first, naming the host; Load fetches it once', async ({
	page,
}) => {
	const url = `${origin}/suite.json`;
	await page.goto(`/?suite=${encodeURIComponent(url)}`);
	const prompt = page.getByRole('alertdialog', { name: /load a suite from another site/i });
	await expect(prompt).toBeVisible();
	await expect(prompt).toContainText(`This link asks to load a suite from ${new URL(url).host}`);
	await expect(prompt.getByText(url, { exact: true })).toBeVisible();
	// Focus is in the prompt, on the choice that sends nothing.
	await expect(prompt.getByRole('button', { name: "Don't load" })).toBeFocused();
	expect(requests).toEqual([]);

	await prompt.getByRole('button', { name: 'Load', exact: true }).click();
	await expect(page.getByRole('heading', { name: SUITE_NAME })).toBeVisible();
	await expect(prompt).toBeHidden();
	// One request in all: none before the answer, one after it.
	expect(requests).toEqual(['/suite.json']);
});

test("Don't load (or Escape) fetches nothing and says so", async ({ page }) => {
	const url = `${origin}/suite.json`;
	await page.goto(`/?suite=${encodeURIComponent(url)}`);
	const prompt = page.getByRole('alertdialog');
	await prompt.getByRole('button', { name: "Don't load" }).click();
	await expect(prompt).toBeHidden();
	await expect(page.getByText(`Not loaded: ${url}`)).toBeVisible();
	expect(requests).toEqual([]);

	await page.goto(`/?suite=${encodeURIComponent(url)}`);
	await expect(page.getByRole('alertdialog')).toBeVisible();
	await page.keyboard.press('Escape');
	await expect(page.getByRole('alertdialog')).toBeHidden();
	await expect(page.getByText(`Not loaded: ${url}`)).toBeVisible();
	expect(requests).toEqual([]);

	// A later page that loads it sends the only request the server ever sees.
	await page.goto(`/?suite=${encodeURIComponent(url)}`);
	await page.getByRole('button', { name: 'Load', exact: true }).click();
	await expect(page.getByRole('heading', { name: SUITE_NAME })).toBeVisible();
	expect(requests).toEqual(['/suite.json']);
});

test.describe('the prompt for axe', () => {
	// axe is injected as an inline script, which the app's CSP forbids.
	test.use({ bypassCSP: true });

	test('has no accessibility violations', async ({ page }) => {
		await page.goto(`/?suite=${encodeURIComponent(`${origin}/suite.json`)}`);
		const prompt = page.getByRole('alertdialog');
		await expect(prompt).toBeVisible();
		expect(await axeSummary(page, 'suite link prompt', { include: prompt })).toEqual([]);
		expect(requests).toEqual([]);
	});
});

test('a body that never ends is cut at the 10 MB cap, with a message', async ({ page }) => {
	const url = `${origin}/endless.json`;
	await page.goto(`/?suite=${encodeURIComponent(url)}`);
	await page.getByRole('button', { name: 'Load', exact: true }).click();
	// Chromium hands the body over in chunks of up to about 0.5 MB: the read stops at the first
	// chunk past the cap.
	await expect(page.getByRole('alert')).toHaveText(
		new RegExp(
			`^${url.replace(/[.]/g, '\\.')} is larger than 10 MB; stopped reading at 10\\.\\d MB\\. Suites larger than 10 MB are not accepted\\.$`,
		),
	);
	expect(requests).toEqual(['/endless.json']);
});

// connect-src stays open to http(s) hosts: endpoints are typed at run time and a static policy
// cannot name them (src/core/security/content-security-policy.ts); the prompt above is what keeps
// a link from sending requests. Everything else stays the app's own.
test("the built page's CSP is the documented one", async ({ page }) => {
	await page.goto('/');
	const policy = await page
		.locator('meta[http-equiv="Content-Security-Policy"]')
		.getAttribute('content');
	const connect = (policy ?? '').split('; ').find((d) => d.startsWith('connect-src '));
	expect(connect).toBe(
		"connect-src 'self' blob: data: https://huggingface.co https://*.huggingface.co https://*.hf.co http: https:",
	);
	expect(policy).toContain("script-src 'self' 'wasm-unsafe-eval';");
	expect(policy).toContain("default-src 'self';");
});
