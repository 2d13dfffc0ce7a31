// One axe-core runner for the E2E specs: WCAG 2.x A/AA and best practices on the whole page, the
// violations in a line each (rule, impact, help, the first nodes and why they fail).
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve('axe-core/axe.min.js');

export interface AxeViolation {
	readonly id: string;
	readonly impact: string | null;
	readonly help: string;
	readonly nodes: readonly { target: string[]; failureSummary?: string | undefined }[];
}

/**
 * axe's violations on the page as it is now. The app's CSP forbids inline scripts, which is how
 * axe is injected: a spec using this sets `test.use({ bypassCSP: true })`.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
	// A hover tooltip left under the pointer by the last click is not part of the view.
	await page.mouse.move(0, 0);
	if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_PATH });
	return page.evaluate(async () => {
		const axe = (
			window as unknown as {
				axe: {
					run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }>;
				};
			}
		).axe;
		const result = await axe.run(document, { resultTypes: ['violations'] });
		return result.violations.map((violation) => ({
			id: violation.id,
			impact: violation.impact,
			help: violation.help,
			nodes: violation.nodes
				.slice(0, 5)
				.map((node) => ({ target: node.target, failureSummary: node.failureSummary })),
		}));
	});
}

/** The violations as lines, `<state>: <rule> (<impact>) <help>: <nodes>`; empty when none. */
export async function axeSummary(page: Page, state: string): Promise<string[]> {
	const violations = await axeViolations(page);
	return violations.map(
		(violation) =>
			`${state}: ${violation.id} (${violation.impact}) ${violation.help}: ${violation.nodes
				.map((node) => `${node.target.join(' ')} — ${node.failureSummary ?? ''}`)
				.join(' | ')}`,
	);
}
