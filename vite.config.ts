/// <reference types="vitest/config" />
// Vite + Vitest configuration. The app is a static site (no backend); cross-origin isolation
// headers are sent in dev and preview so onnxruntime-web can use threaded WASM.
import { defineConfig, type Connect, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { formatContentSecurityPolicy } from './src/core/security/content-security-policy.js';
import { benchtopPwa } from './pwa.config.js';

/** Headers that make the page cross-origin isolated (SharedArrayBuffer => WASM threads). */
export const CROSS_ORIGIN_ISOLATION_HEADERS = {
	'Cross-Origin-Opener-Policy': 'same-origin',
	'Cross-Origin-Embedder-Policy': 'require-corp',
	'Cross-Origin-Resource-Policy': 'same-origin',
};

/**
 * Puts the app's Content-Security-Policy into the built index.html as a <meta> tag, so it travels
 * with the static files to any host. Build only: the dev server injects inline styles.
 */
function contentSecurityPolicy(): Plugin {
	return {
		name: 'benchtop-content-security-policy',
		apply: 'build',
		transformIndexHtml: {
			order: 'post',
			handler: (_html, context) =>
				context.path === '/index.html'
					? [
							{
								tag: 'meta',
								attrs: {
									'http-equiv': 'Content-Security-Policy',
									content: formatContentSecurityPolicy(),
								},
								injectTo: 'head-prepend',
							},
						]
					: undefined,
		},
	};
}

/** Model weights and the ORT wasm: large, already dense, fetched from this machine. */
const UNCOMPRESSED = /\.(?:onnx|onnx_data|wasm)(?:\?|$)/;

/**
 * Serves model files and wasm as they are, with Content-Length: the dev and preview servers
 * otherwise gzip them on the fly (measured: 1.4 s instead of 0.14 s for the 42 MB gpt2-en-small
 * on this machine, with no byte total for the progress bar). Static hosts set their own rules.
 */
function uncompressedModelFiles(): Plugin {
	const skipCompression = (middlewares: Connect.Server): void => {
		middlewares.use((req, _res, next) => {
			if (req.url && UNCOMPRESSED.test(req.url)) delete req.headers['accept-encoding'];
			next();
		});
	};
	return {
		name: 'benchtop-uncompressed-model-files',
		configureServer: (server) => skipCompression(server.middlewares),
		configurePreviewServer: (server) => skipCompression(server.middlewares),
	};
}

/** Rolldown's checks: no warning about the time plugins take (see `worker` below). */
export const NO_TIMING_WARNINGS = { bundlerTimings: false } as const;

export default defineConfig({
	plugins: [svelte(), contentSecurityPolicy(), uncompressedModelFiles(), benchtopPwa()],
	appType: 'mpa',
	// No [PLUGIN_TIMINGS] block on every build: Rolldown's warning that plugins (svelte's compile,
	// the PWA's precache, import.meta.url assets) took a share of the build time. `npm run build`
	// still prints the time of the whole build.
	worker: { format: 'es', rolldownOptions: { checks: NO_TIMING_WARNINGS } },
	server: { headers: CROSS_ORIGIN_ISOLATION_HEADERS },
	preview: { headers: CROSS_ORIGIN_ISOLATION_HEADERS },
	build: {
		target: 'es2022',
		chunkSizeWarningLimit: 2000,
		// harness/engine.html: a page for engine parity checks and the bench, not linked from the app.
		rollupOptions: {
			input: { main: 'index.html', engine: 'harness/engine.html' },
			checks: NO_TIMING_WARNINGS,
		},
	},
	test: {
		projects: [
			{
				extends: true,
				test: { name: 'core', include: ['tests/core/**/*.test.ts'], environment: 'node' },
			},
			{
				extends: true,
				test: { name: 'worker', include: ['tests/worker/**/*.test.ts'], environment: 'node' },
			},
			{
				extends: true,
				test: {
					name: 'providers',
					include: ['tests/providers/**/*.test.ts'],
					environment: 'node',
					testTimeout: 120_000,
				},
			},
			{
				extends: true,
				test: { name: 'suites', include: ['tests/suites/**/*.test.ts'], environment: 'node' },
			},
			{
				extends: true,
				test: {
					name: 'storage',
					include: ['tests/storage/**/*.test.ts'],
					environment: 'node',
					setupFiles: ['fake-indexeddb/auto'],
				},
			},
			{
				extends: true,
				test: {
					name: 'ui',
					include: ['tests/ui/**/*.test.ts'],
					environment: 'happy-dom',
					setupFiles: ['fake-indexeddb/auto'],
				},
			},
			{
				extends: true,
				test: { name: 'bench', include: ['tests/bench/**/*.test.ts'], environment: 'node' },
			},
			{
				extends: true,
				test: { name: 'layout', include: ['tests/layout/**/*.test.ts'], environment: 'node' },
			},
			{
				extends: true,
				test: {
					name: 'cli',
					include: ['tests/cli/**/*.test.ts', 'tests/parity/**/*.test.ts'],
					environment: 'node',
					testTimeout: 120_000,
				},
			},
		],
	},
});
