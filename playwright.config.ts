// Playwright E2E against the built app served by `vite preview`, in Debian's Chromium.
// Playwright cannot download browsers here: CHROMIUM_PATH or /usr/bin/chromium is used.
import { defineConfig } from '@playwright/test';

// BENCHTOP_E2E_PORT / BENCHTOP_E2E_OUT_DIR let several checkouts (or helpers) test side by side.
const PORT = Number(process.env.BENCHTOP_E2E_PORT ?? 4173);
const OUT_DIR = process.env.BENCHTOP_E2E_OUT_DIR ?? 'dist';

export default defineConfig({
	testDir: 'tests/e2e',
	timeout: 180_000,
	expect: { timeout: 30_000 },
	workers: 1,
	retries: 0,
	reporter: process.env.CI ? [['list']] : [['list']],
	webServer: {
		command: `npx vite preview --host 127.0.0.1 --port ${PORT} --strictPort --outDir ${OUT_DIR}`,
		url: `http://127.0.0.1:${PORT}`,
		reuseExistingServer: !process.env.CI,
		timeout: 120_000,
	},
	use: {
		baseURL: `http://127.0.0.1:${PORT}`,
		launchOptions: {
			executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
			args: [
				'--disable-background-networking',
				'--disable-component-update',
				'--disable-sync',
				'--no-first-run',
				'--disable-quic',
			],
		},
	},
});
