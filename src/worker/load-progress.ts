/**
 * Load progress: transformers.js's ProgressInfo reduced to the protocol's LoadProgress, and the
 * byte counting of a bundled model's downloads (read from the responses as they arrive).
 */
import type { LoadProgress } from './protocol';

/** `(url, bytesSoFar, contentLength, done)`: `done` once, at the end of the body. */
export type ByteProgress = (
	url: string,
	loaded: number,
	total: number | undefined,
	done: boolean,
) => void;

/** At most one progress report per this many bytes of a response. */
const PROGRESS_STEP_BYTES = 1 << 20;

/** `response` with its body counted as it is read, reported to `report`. */
export function countedResponse(response: Response, url: string, report: ByteProgress): Response {
	if (!response.ok || !response.body) return response;
	const total = Number(response.headers.get('content-length')) || undefined;
	let loaded = 0;
	let reported = 0;
	const counted = response.body.pipeThrough(
		new TransformStream<Uint8Array, Uint8Array>({
			transform(chunk, controller) {
				loaded += chunk.byteLength;
				if (loaded - reported >= PROGRESS_STEP_BYTES || loaded === total) {
					reported = loaded;
					report(url, loaded, total, false);
				}
				controller.enqueue(chunk);
			},
			flush() {
				report(url, loaded, total, true);
			},
		}),
	);
	return new Response(counted, {
		status: response.status,
		statusText: response.statusText,
		headers: response.headers,
	});
}

/** transformers.js's ProgressInfo, reduced to the protocol's plain LoadProgress. */
export function pickProgress(info: Record<string, unknown>): LoadProgress {
	const pick = <T>(key: string, type: string): T | undefined =>
		typeof info[key] === type ? (info[key] as T) : undefined;
	const name = pick<string>('name', 'string');
	const file = pick<string>('file', 'string');
	const progress = pick<number>('progress', 'number');
	const loaded = pick<number>('loaded', 'number');
	const total = pick<number>('total', 'number');
	return {
		status: pick<string>('status', 'string') ?? 'progress',
		...(name !== undefined ? { name } : {}),
		...(file !== undefined ? { file } : {}),
		...(progress !== undefined ? { progress } : {}),
		...(loaded !== undefined ? { loaded } : {}),
		...(total !== undefined ? { total } : {}),
	};
}

/**
 * A bundled model's byte progress as transformers.js progress infos for `progress_callback`:
 * file paths relative to the model's folder `<bundledModelsPath><modelId>/`.
 */
export function bundledByteProgress(
	bundledModelsPath: string,
	modelId: string,
	progress_callback: (info: Record<string, unknown>) => void,
): ByteProgress {
	const prefix = `${bundledModelsPath}${modelId}/`;
	return (url, loaded, total, done) => {
		const path = new URL(url, 'http://x/').pathname;
		const file = path.startsWith(prefix) ? path.slice(prefix.length) : path;
		progress_callback({
			status: done ? 'done' : 'progress',
			name: modelId,
			file,
			loaded,
			...(total !== undefined ? { total, progress: (loaded / total) * 100 } : {}),
		});
	};
}
