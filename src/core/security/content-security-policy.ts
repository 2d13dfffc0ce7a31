/**
 * The app's Content-Security-Policy, injected as a <meta> tag into the built index.html (so it
 * travels with the static files to any host). Only what the app needs: itself, WebAssembly, its
 * module workers, the Hugging Face hub for user-chosen hub models, and `fetch` to user-chosen
 * model endpoints.
 */

/**
 * Model endpoints the user types in (vLLM on a cluster, `serve` on a classroom machine, Ollama on
 * localhost, OpenAI): any host, so `connect-src` allows the http and https schemes. The policy is
 * a static <meta> tag written at build time and a page's policy can only ever be narrowed, never
 * widened, so it cannot name the endpoint a user types later; what keeps a link from making the
 * tab send requests is the app itself: a URL a link names (`?suite=` on another host, a share
 * link's suite URL or endpoint) is fetched only after the user chooses to (suite-sources.ts,
 * README "Threat model and caps"). A page served over HTTPS still cannot reach plain-HTTP hosts
 * other than localhost (mixed content). Only `connect-src` is this wide: scripts, images,
 * frames and forms stay limited to the app itself, so an endpoint can answer data but never load
 * code. The server's CORS answer still decides who may read.
 */
export const MODEL_ENDPOINT_SCHEMES = ['http:', 'https:'] as const;

/** Origins model files are fetched from when the user picks a hub model (files redirect to CDNs). */
export const MODEL_HUB_ORIGINS = [
	'https://huggingface.co',
	'https://*.huggingface.co',
	'https://*.hf.co',
] as const;

export const CONTENT_SECURITY_POLICY_DIRECTIVES: Readonly<Record<string, readonly string[]>> = {
	'default-src': ["'self'"],
	// 'wasm-unsafe-eval' compiles onnxruntime's WebAssembly; no 'unsafe-eval', no inline script.
	'script-src': ["'self'", "'wasm-unsafe-eval'"],
	// onnxruntime may start its thread workers from blob: URLs.
	'worker-src': ["'self'", 'blob:'],
	'connect-src': ["'self'", 'blob:', 'data:', ...MODEL_HUB_ORIGINS, ...MODEL_ENDPOINT_SCHEMES],
	'img-src': ["'self'", 'data:', 'blob:'],
	'style-src': ["'self'"],
	'font-src': ["'self'"],
	'object-src': ["'none'"],
	'base-uri': ["'self'"],
	'form-action': ["'none'"],
};

/** The policy as one header/meta value. */
export function formatContentSecurityPolicy(
	directives: Readonly<Record<string, readonly string[]>> = CONTENT_SECURITY_POLICY_DIRECTIVES,
): string {
	return Object.entries(directives)
		.map(([name, sources]) => `${name} ${sources.join(' ')}`)
		.join('; ');
}
