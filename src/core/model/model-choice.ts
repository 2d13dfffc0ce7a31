/**
 * Pure parts of picking and loading a model: checking a hub id and revision as typed, and
 * summing transformers.js progress events into bytes. The worker sends the events; no I/O here.
 */

/** `owner/name` as the Hugging Face hub allows it (letters, digits, `-`, `_`, `.`; ≤ 96 chars). */
const HUB_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,95}\/[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/;
const REVISION_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$/;

/** Why a typed hub id cannot be used, or null when it can. */
export function checkHubModelId(id: string): string | null {
	const trimmed = id.trim();
	if (trimmed === '') return 'Type a model id such as Xenova/distilgpt2.';
	if (!HUB_ID_PATTERN.test(trimmed) || trimmed.includes('..')) {
		return 'A hub model id is owner/name, e.g. Xenova/distilgpt2 (letters, digits, - _ .).';
	}
	return null;
}

/** Why a typed revision cannot be used, or null when it can (empty means `main`). */
export function checkHubRevision(revision: string): string | null {
	const trimmed = revision.trim();
	if (trimmed === '') return null;
	if (!REVISION_PATTERN.test(trimmed) || trimmed.includes('..')) {
		return 'A revision is a branch, tag or commit hash (letters, digits, - _ . /).';
	}
	return null;
}

/** The fields of a transformers.js progress event this module reads. */
export interface LoadProgressEvent {
	readonly status: string;
	readonly file?: string;
	readonly loaded?: number;
	readonly total?: number;
}

/** Bytes loaded per file, and the overall total when the loader announced it. */
export interface LoadBytes {
	readonly files: Readonly<Record<string, { readonly loaded: number; readonly total: number }>>;
	/** From a `progress_total` event: the loader's own sum over all files. */
	readonly overall?: { readonly loaded: number; readonly total: number };
}

export const NO_LOAD_BYTES: LoadBytes = { files: {} };

function finite(value: number | undefined): number | undefined {
	return value !== undefined && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** Folds one progress event into the byte counts (returns a new object; input unchanged). */
export function accumulateLoadProgress(bytes: LoadBytes, event: LoadProgressEvent): LoadBytes {
	const loaded = finite(event.loaded);
	const total = finite(event.total);
	if (event.status === 'progress_total' && loaded !== undefined && total !== undefined) {
		return { ...bytes, overall: { loaded, total } };
	}
	if (event.file === undefined) return bytes;
	const previous = bytes.files[event.file];
	if (event.status === 'progress' && loaded !== undefined) {
		const fileTotal = total ?? previous?.total ?? 0;
		return { ...bytes, files: { ...bytes.files, [event.file]: { loaded, total: fileTotal } } };
	}
	if (event.status === 'done' && previous) {
		const size = Math.max(previous.total, previous.loaded);
		return { ...bytes, files: { ...bytes.files, [event.file]: { loaded: size, total: size } } };
	}
	return bytes;
}

/** Bytes loaded and expected so far (`total` 0 when no size is known yet). */
export function sumLoadBytes(bytes: LoadBytes): { loaded: number; total: number } {
	if (bytes.overall) return { ...bytes.overall };
	let loaded = 0;
	let total = 0;
	for (const file of Object.values(bytes.files)) {
		loaded += file.loaded;
		total += Math.max(file.total, file.loaded);
	}
	return { loaded, total };
}

/**
 * Paths of a picked local model folder relative to the folder (`webkitRelativePath` minus the
 * folder's own name): `my-model/onnx/model.onnx` → `onnx/model.onnx`.
 */
export function stripFolderName(relativePath: string): string {
	const slash = relativePath.indexOf('/');
	return slash === -1 ? relativePath : relativePath.slice(slash + 1);
}

/** Why a local folder cannot be a transformers.js model, or null when the needed files are there. */
export function checkLocalModelFiles(paths: readonly string[]): string | null {
	if (paths.length === 0)
		return 'Pick a model folder (with config.json, tokenizer.json and onnx/).';
	const missing = ['config.json', 'tokenizer.json'].filter((name) => !paths.includes(name));
	if (!paths.some((path) => /^onnx\/[^/]+\.onnx$/.test(path))) missing.push('onnx/model.onnx');
	if (missing.length > 0) {
		return `This folder is not a transformers.js model: ${missing.join(', ')} missing. Pick the folder that holds config.json.`;
	}
	return null;
}
