/**
 * Where a dropped file goes in an Evals registry (`evals/`, `modelgraded/`, `data/`), from its
 * path and, for a lone YAML, its text.
 */

const REGISTRY_FOLDERS = ['evals', 'modelgraded', 'data'];

/**
 * A dropped file's path inside the registry: from its `evals/`, `modelgraded/` or `data/` folder
 * on; a lone YAML goes to `evals/` (`modelgraded/` when it looks like a grading spec), a lone
 * JSONL to `data/`.
 */
export function registryPathOf(path: string, text: string): string {
	const parts = path.replace(/\\/gu, '/').replace(/^\.\//u, '').split('/');
	const root = parts.findIndex(
		(part, index) => index < parts.length - 1 && REGISTRY_FOLDERS.includes(part),
	);
	if (root >= 0) return parts.slice(root).join('/');
	const name = parts[parts.length - 1] ?? path;
	if (/\.ya?ml$/iu.test(name)) {
		return /^\s*choice_strings\s*:/mu.test(text) ? `modelgraded/${name}` : `evals/${name}`;
	}
	return `data/${name}`;
}
