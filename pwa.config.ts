// The offline app (vite-plugin-pwa + Workbox): manifest, icons, and a service worker that
// precaches the app shell, the bundled models (fp32 and q8) and onnxruntime's wasm, so "Bundled
// model (works offline)" holds for a model never used online. Hub models are cached on first
// use by transformers.js in Cache Storage ('transformers-cache').
import { VitePWA } from 'vite-plugin-pwa';

export function benchtopPwa() {
	return VitePWA({
		// The app shows its own "update available" prompt (src/ui/components/shared/PwaStatus.svelte)
		// and registers the worker itself (src/ui/state/shared/pwa-register.ts).
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
			// The shell: scripts (app, worker, suite chunks), styles, the page, icons, the manifest;
			// onnxruntime's wasm and loader; the bundled models' files the engine reads.
			globPatterns: [
				'**/*.{js,mjs,css,html,svg,png,ico,webmanifest}',
				'assets/ort-wasm-*.{wasm,mjs}',
				'models/*/{config,generation_config,tokenizer,tokenizer_config,special_tokens_map}.json',
				'models/*/onnx/*.onnx',
			],
			// Not the engine harness page, nor the models' build notes (README, logs, manifests).
			globIgnores: ['**/harness/**', 'engine.html', 'models/**/*.md'],
			// The largest file is gpt2-en-small's fp32 weights (about 43 MB).
			maximumFileSizeToCacheInBytes: 64 * 1024 * 1024,
			navigateFallback: 'index.html',
			navigateFallbackDenylist: [/^\/models\//, /^\/harness\//],
			cleanupOutdatedCaches: true,
		},
	});
}
