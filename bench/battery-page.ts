/**
 * The app's Battery page as the bench drives it: a page opened on `#/battery` with suite files
 * added, and the wait for "Battery done". Shared by the bundled model's battery (run-bench.ts)
 * and the GPT-2-sized model's (gpt2-124m-bench.ts).
 */
import type { Page } from '@playwright/test';

/** Opens the Battery page at `origin` and adds `files`; resolves once all are picked. */
export async function openBatteryWithSuites(
	page: Page,
	origin: string,
	files: readonly string[],
): Promise<void> {
	await page.goto(`${origin}/#/battery`);
	await page.getByTestId('battery-files').setInputFiles([...files]);
	await page
		.getByTestId('battery-totals')
		.filter({ hasText: `${files.length} suites picked` })
		.waitFor({ timeout: 120_000 });
}

/**
 * Waits for the Battery page's "Battery done" heading, checked every 20 ms in the page: a
 * locator's wait polls every 500 ms once it has waited a while, which showed as wall times
 * bunched 0.5 s apart.
 */
export async function waitForBatteryDone(page: Page, timeoutMs = 600_000): Promise<void> {
	await page.waitForFunction(
		() =>
			[...document.querySelectorAll('h1, h2, h3')].some((heading) =>
				heading.textContent?.includes('Battery done'),
			),
		undefined,
		{ polling: 20, timeout: timeoutMs },
	);
}
