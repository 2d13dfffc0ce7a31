// Hostile files on the pages (issue 19): a zip whose entry declares 1 GiB, dropped on the Evals page
// as a registry, is refused before anything is inflated, with the zip and entry named, and the
// page goes on working (the CLI's ltm run on such a zip: tests/cli/input-caps.test.ts).
import { expect, test } from '@playwright/test';
import { strToU8, zipSync } from 'fflate';

/** Rewrites the uncompressed size of every central-directory entry (a lying header). */
function declareSize(zip: Uint8Array, size: number): Uint8Array {
	const out = zip.slice();
	const view = new DataView(out.buffer);
	for (let i = 0; i + 46 <= out.length; i++) {
		if (view.getUint32(i, true) === 0x02014b50) view.setUint32(i + 24, size, true);
	}
	return out;
}

const BOMB = Buffer.from(
	declareSize(
		zipSync({
			'registry/evals/bomb.yaml': strToU8(
				'bomb.dev.v0:\n  class: evals.elsuite.basic.match:Match\n  args:\n    samples_jsonl: bomb/samples.jsonl\n',
			),
			'registry/data/bomb/samples.jsonl': new Uint8Array(1 << 16),
		}),
		1024 ** 3,
	),
);

test('a registry zip that declares 1 GiB is refused on the Evals page, named, and the page goes on', async ({
	page,
}) => {
	await page.goto('/#/evals');
	await expect(page.getByRole('list', { name: 'Bundled example evals' })).toBeVisible();
	await page.getByTestId('evals-files').setInputFiles({
		name: 'bomb.zip',
		mimeType: 'application/zip',
		buffer: BOMB,
	});
	await expect(
		page.getByText(/bomb\.zip.*unpacks to 1024 MiB, more than the 64 MiB/),
	).toBeVisible();
	// The bundled evals are still there and can be picked.
	await page
		.getByRole('button', { name: /^capitals\b/ })
		.first()
		.click();
	await expect(page.getByText(/Picked capitals\.test\.v1/)).toBeVisible();
});
