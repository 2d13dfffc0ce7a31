// The offline app (vite-plugin-pwa + Workbox): manifest, icons, and a service worker that
// precaches the app shell only. Models and onnxruntime's wasm are not precached: transformers.js
// keeps the model files and the ORT wasm/mjs it loads in Cache Storage ('transformers-cache').
import { VitePWA } from 'vite-plugin-pwa';

export function benchtopPwa() {
	return VitePWA({
		// The app shows its own "update available" prompt (src/ui/components/PwaStatus.svelte) and
		// registers the worker itself (src/ui/pwa-register.ts).
		registerType: 'prompt',
		injectRegister: false,
		// The glob below already takes the icons and the manifest.
		includeManifestIcons: false,
		manifest: {
			name: 'Benchtop: language-model evaluation in your browser',
			short_name: 'Benchtop',
			description:
				'Run SyntaxGym suites on language models in a browser tab: per-token surprisal, predictions, reproducible share links. Works offline.',
			start_url: './',
			scope: './',
			display: 'standalone',
			background_color: '#ffffff',
			theme_color: '#1f4e79',
			icons: [
				{ src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png' },
				{ src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png' },
				{ src: 'icons/icon.svg', sizes: 'any', type: 'image/svg+xml' },
				{
					src: 'icons/icon-maskable-512.png',
					sizes: '512x512',
					type: 'image/png',
					purpose: 'maskable',
				},
			],
		},
		workbox: {
			// The shell: scripts (app, worker, suite chunks), styles, the page, icons, the manifest.
			globPatterns: ['**/*.{js,mjs,css,html,svg,png,ico,webmanifest}'],
			// Not the models, not onnxruntime's wasm/mjs, not the engine harness page.
			globIgnores: ['**/models/**', '**/ort-wasm-*', '**/harness/**', 'engine.html'],
			maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
			navigateFallback: 'index.html',
			navigateFallbackDenylist: [/^\/models\//, /^\/harness\//],
			cleanupOutdatedCaches: true,
		},
	});
}
