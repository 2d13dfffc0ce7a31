// What the scripts that capture a released build's browser profile share: the browser they drive,
// the row count of one store while the app runs, a file dropped on the page, and the profile
// written out. Not a spec: Playwright's testDir does not pick it up.
import { mkdirSync, writeFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from '@playwright/test';
import { countRows, dumpDatabase, type ReleaseProfile } from './indexeddb-profile';

/** Debian's Chromium, offline, as the E2E tests drive it. */
export async function launchCaptureBrowser(): Promise<Browser> {
	return chromium.launch({
		executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
		args: ['--disable-background-networking', '--disable-component-update'],
	});
}

/** A page of a new context on `baseURL`, able to run functions tsx compiled. */
export async function capturePage(browser: Browser, baseURL: string): Promise<Page> {
	const context = await browser.newContext({ baseURL });
	// tsx names functions with a `__name` helper; code sent to the page needs it defined there.
	await context.addInitScript({ content: 'globalThis.__name = (target) => target;' });
	return context.newPage();
}

/** Rows of one store of the page's database `benchtop`. */
export async function storeSize(page: Page, store: string): Promise<number> {
	return page.evaluate(
		(storeName) =>
			new Promise<number>((resolve, reject) => {
				const open = indexedDB.open('benchtop');
				open.onerror = () => reject(open.error ?? new Error('open failed'));
				open.onsuccess = () => {
					const request = open.result.transaction(storeName).objectStore(storeName).count();
					request.onerror = () => reject(request.error ?? new Error('count failed'));
					request.onsuccess = () => {
						open.result.close();
						resolve(request.result);
					};
				};
			}),
		store,
	);
}

/** Drops a file on the page header, where the page-wide drop target takes it. */
export async function dropFile(page: Page, name: string, content: string): Promise<void> {
	const transfer = await page.evaluateHandle(
		({ name, content }) => {
			const data = new DataTransfer();
			data.items.add(new File([content], name, { type: 'application/json' }));
			return data;
		},
		{ name, content },
	);
	for (const type of ['dragenter', 'dragover', 'drop']) {
		await page.dispatchEvent('header', type, { dataTransfer: transfer });
	}
}

/**
 * Dumps the page's database and localStorage into `${outDir}/benchtop.json`, from a static file
 * the service worker does not answer with the app (so nothing writes while it is read).
 */
export async function writeProfile(page: Page, commit: string, outDir: string): Promise<void> {
	await page.goto('/models/gpt2-random-tiny/config.json');
	const database = await dumpDatabase(page, 'benchtop');
	const storage = await page.evaluate(() => ({ ...localStorage }));
	const profile: ReleaseProfile = {
		capturedFrom: { commit, capturedAt: new Date().toISOString() },
		counts: countRows(database),
		localStorage: storage,
		database,
	};
	mkdirSync(outDir, { recursive: true });
	writeFileSync(`${outDir}/benchtop.json`, `${JSON.stringify(profile)}\n`);
	console.log(`database version ${database.version}, rows per store:`, profile.counts);
}
