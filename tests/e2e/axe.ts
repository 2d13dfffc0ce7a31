// One axe-core runner for the E2E specs: WCAG 2.x A/AA and best practices on the whole page (or
// one region of it), the violations in a line each (rule, impact, help, the first nodes and why
// they fail).
import { createRequire } from 'node:module';
import type { Locator, Page } from '@playwright/test';

const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve('axe-core/axe.min.js');

export interface AxeViolation {
	readonly id: string;
	readonly impact: string | null;
	readonly help: string;
	readonly nodes: readonly { target: string[]; failureSummary?: string | undefined }[];
}

export interface AxeOptions {
	/**
	 * Only this region of the page (and everything in it) is checked, for a spec about one part
	 * of a page whose other parts are swept elsewhere. It must be on the page: a missing region
	 * fails the check rather than passing it.
	 */
	readonly include?: Locator;
}

/**
 * axe's violations on the page as it is now. The app's CSP forbids inline scripts, which is how
 * axe is injected: a spec using this sets `test.use({ bypassCSP: true })`.
 */
export async function axeViolations(page: Page, options: AxeOptions = {}): Promise<AxeViolation[]> {
	// A hover tooltip left under the pointer by the last click is not part of the view.
	await page.mouse.move(0, 0);
	if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_PATH });
	const region = options.include ? await options.include.elementHandle() : null;
	const violations = await page.evaluate(async (element) => {
		const axe = (
			window as unknown as {
				axe: {
					run: (
						context: Document | Element,
						options: object,
					) => Promise<{ violations: AxeViolation[] }>;
				};
			}
		).axe;
		const result = await axe.run(element ?? document, { resultTypes: ['violations'] });
		return result.violations.map((violation) => ({
			id: violation.id,
			impact: violation.impact,
			help: violation.help,
			nodes: violation.nodes
				.slice(0, 5)
				.map((node) => ({ target: node.target, failureSummary: node.failureSummary })),
		}));
	}, region);
	await region?.dispose();
	return violations;
}

/** The violations as lines, `<state>: <rule> (<impact>) <help>: <nodes>`; empty when none. */
export async function axeSummary(
	page: Page,
	state: string,
	options: AxeOptions = {},
): Promise<string[]> {
	const violations = await axeViolations(page, options);
	return violations.map(
		(violation) =>
			`${state}: ${violation.id} (${violation.impact}) ${violation.help}: ${violation.nodes
				.map((node) => `${node.target.join(' ')} — ${node.failureSummary ?? ''}`)
				.join(' | ')}`,
	);
}

/** {@link axeSummary} in the light theme, then the dark one (the page is left dark). */
export async function axeSummaryInBothThemes(
	page: Page,
	state: string,
	options: AxeOptions = {},
): Promise<string[]> {
	const lines: string[] = [];
	for (const theme of ['light', 'dark'] as const) {
		await page.emulateMedia({ colorScheme: theme });
		lines.push(...(await axeSummary(page, `${state}, ${theme}`, options)));
	}
	return lines;
}
