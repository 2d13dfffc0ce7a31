// Files added to a loaded registry on the Evals page add up (issue 18): a second file with
// another eval lists both; a broken YAML added on top is reported once, located by file and line,
// and both evals stay listed and can be picked.
import { expect, test, type Page } from '@playwright/test';

const evalYaml = (name: string): string =>
	`${name}:\n  id: ${name}.dev.v0\n  description: ${name} test eval\n${name}.dev.v0:\n  class: evals.elsuite.basic.match:Match\n  args:\n    samples_jsonl: ${name}.jsonl\n`;
const SAMPLES = ['France', 'Peru', 'Japan']
	.map((country) => JSON.stringify({ input: `Capital of ${country}?`, ideal: 'x' }))
	.join('\n');

/** Drops `files` (name → text) on the registry input, as one pick. */
async function dropFiles(page: Page, files: Record<string, string>): Promise<void> {
	await page.getByTestId('evals-files').setInputFiles(
		Object.entries(files).map(([name, text]) => ({
			name,
			mimeType: 'text/plain',
			buffer: Buffer.from(text),
		})),
	);
}

test('files added to a loaded registry add up; a broken YAML is reported once and the evals stay', async ({
	page,
}) => {
	await page.goto('/#/evals');
	await expect(page.getByRole('heading', { name: 'Evals', level: 2 })).toBeVisible();
	const evalSelect = page.getByLabel('Eval', { exact: true });
	const options = evalSelect.locator('option:not([disabled])');

	await dropFiles(page, { 'capitals.yaml': evalYaml('capitals'), 'capitals.jsonl': SAMPLES });
	await expect(options).toHaveText([/^capitals/]);

	await dropFiles(page, { 'rivers.yaml': evalYaml('rivers'), 'rivers.jsonl': SAMPLES });
	await expect(options).toHaveText([/^capitals/, /^rivers/]);
	await expect(page.getByRole('alert')).toHaveCount(0);

	// Line 3 nests a mapping in a compact one: a YAML syntax error.
	await dropFiles(page, { 'broken.yaml': 'broken:\n  id: broken.dev.v0\n  class: a: b\n' });
	const problems = page.getByRole('alert').filter({ hasText: 'Problems in the registry' });
	await expect(problems.getByRole('listitem')).toHaveCount(1);
	await expect(problems.getByRole('listitem')).toContainText('evals/broken.yaml:3');
	await expect(problems.getByRole('listitem')).toContainText('YAML error');
	const text = await problems.getByRole('listitem').innerText();
	expect(text.split('broken.yaml')).toHaveLength(2);
	expect(text).not.toMatch(/at line \d/u);

	await expect(options).toHaveText([/^capitals/, /^rivers/]);
	await evalSelect.selectOption('rivers');
	await expect(page.getByText(/Picked rivers\.dev\.v0/)).toContainText('3 samples');
	await expect(page.getByRole('button', { name: 'Run eval' })).toBeEnabled();
});
