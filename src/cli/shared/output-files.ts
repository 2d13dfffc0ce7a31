/**
 * Writing under an output folder (`--out`) at paths built from input data: every path is made of
 * safe segments (core/security/contained-path), resolved with node:path and checked to stay
 * inside the folder, also on disk (a folder inside that links elsewhere is refused), and the file
 * is written without following a link at its own path (safe-write.ts).
 */
import { mkdir, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UnsafePathError, containedPath } from '../../core/security/contained-path';
import { CliInputError } from './cli-io';
import { writeFileNoFollow } from './safe-write';

function inside(root: string, path: string): boolean {
	const rel = relative(root, path);
	return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/**
 * The path of `relativePath` (`/`-separated safe segments, see safeRelativePath) under `out`, as
 * `join(out, …)` writes it; refused unless it resolves inside `out`.
 * @throws CliInputError naming the refused path.
 */
export function outputPath(out: string, relativePath: string): string {
	try {
		containedPath(out, relativePath);
	} catch (error) {
		if (error instanceof UnsafePathError) throw new CliInputError(`${out}: ${error.message}`);
		throw error;
	}
	const segments = relativePath.split('/');
	if (!inside(resolve(out), resolve(out, ...segments))) {
		throw new CliInputError(`${out}: refused to write ${relativePath} outside this folder`);
	}
	return join(out, ...segments);
}

/**
 * Writes `text` to `relativePath` under `out` (folders created), once the folder it lands in is
 * known to be inside `out` on disk too (no link inside `out` leads out), replacing the file whole
 * and never through a link at its path ({@link writeFileNoFollow}). Returns the path written.
 * @throws CliInputError when the path is refused.
 */
export async function writeOutputFile(
	out: string,
	relativePath: string,
	text: string,
): Promise<string> {
	const path = outputPath(out, relativePath);
	await mkdir(dirname(path), { recursive: true });
	const [root, folder] = await Promise.all([realpath(out), realpath(dirname(path))]);
	if (folder !== root && !inside(root, folder)) {
		throw new CliInputError(
			`${out}: refused to write ${relativePath}: its folder is a link to ${folder}, outside ${out}`,
		);
	}
	await writeFileNoFollow(path, text);
	return path;
}
