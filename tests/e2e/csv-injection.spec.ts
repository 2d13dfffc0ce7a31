// A suite whose name, condition names and region contents are spreadsheet formulas, run in the
// built app with the bundled gpt2-random-tiny: the results page's "Region table CSV" writes every
// such text cell inert (a `'` in front, quoted) and the metric columns as plain numbers.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { readTsvTable } from '../../src/core/formats/tsv-table';

const HYPERLINK = '=HYPERLINK("http://x","y")';
const SUITE = {
	meta: { name: HYPERLINK, metric: 'sum' },
	region_meta: { '1': 'start', '2': 'end' },
	predictions: [{ type: 'formula', formula: '(2;%-good%) < (2;%-bad%)' }],
	items: [1, 2].map((item) => ({
		item_number: item,
		conditions: [
			{
				condition_name: '-good',
				regions: [
					{ region_number: 1, content: HYPERLINK },
					{ region_number: 2, content: "+cmd|' /C calc'!A0" },
				],
			},
			{
				condition_name: '-bad',
				regions: [
					{ region_number: 1, content: '@SUM(1)' },
					{ region_number: 2, content: '-2+3' },
				],
			},
		],
	})),
};

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

test('the region table CSV of a hostile suite: formula-like texts inert, numbers as numbers', async ({
	page,
}) => {
	await page.goto('/');
	await dropFile(page, 'hostile.json', JSON.stringify(SUITE));
	await expect(page.getByRole('heading', { name: HYPERLINK })).toBeVisible();
	await page.getByLabel('Bundled model (works offline)').selectOption('gpt2-random-tiny');
	await page.getByRole('button', { name: 'Run suite' }).click();
	await expect(page.getByTestId('results-status')).toContainText('Done: 2 of 2 items', {
		timeout: 120_000,
	});
	const [download] = await Promise.all([
		page.waitForEvent('download'),
		page.getByRole('button', { name: 'Region table CSV' }).click(),
	]);
	const csv = readFileSync(await download.path(), 'utf8');
	expect(csv).toContain(`,"'-good",1,"'=HYPERLINK(""http://x"",""y"")",`);
	for (const text of [
		"'-good",
		"'-bad",
		`'${HYPERLINK}`,
		"'+cmd|' /C calc'!A0",
		"'@SUM(1)",
		"'-2+3",
	]) {
		expect(csv).toContain(`"${text.replaceAll('"', '""')}"`);
	}
	const table = readTsvTable(csv, { separator: 'comma' });
	expect(table.rows).toHaveLength(2 * 2 * 2);
	for (const { fields } of table.rows) {
		// No cell starts a formula; the metric columns are numbers.
		for (const field of fields) expect(field).not.toMatch(/^[=+@\t\r]|^-(?!\d)/);
		for (const value of fields.slice(5))
			expect(value).toMatch(/^-?\d+(\.\d+)?(e[-+]\d+)?$|^nan$|^-?inf$/);
	}
});
