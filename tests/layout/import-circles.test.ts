// No import circle anywhere in src (issue 26): between files, and between folders at depths 1 to
// 3 (a file counts in its folder cut to that depth, so a folder's subfolders count as the folder).
// Type imports count too. Imports are read with TypeScript's own pre-processor from .ts files and
// the <script> blocks of .svelte files; only relative imports are followed.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve('src');

function sourceFiles(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return /\.(ts|svelte)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
	});
}

function scriptOf(path: string): string {
	const text = readFileSync(path, 'utf8');
	if (!path.endsWith('.svelte')) return text;
	return [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)]
		.map((match) => match[1])
		.join('\n');
}

/** The file a relative import names, as Vite resolves it here (extension left out or `.js`). */
function resolveImport(from: string, specifier: string): string | null {
	const base = resolve(dirname(from), specifier);
	const candidates = [base, `${base}.ts`, base.replace(/\.js$/, '.ts'), join(base, 'index.ts')];
	return candidates.find((path) => existsSync(path) && statSync(path).isFile()) ?? null;
}

function importGraph(): Map<string, Set<string>> {
	const graph = new Map<string, Set<string>>();
	for (const file of sourceFiles(SRC)) {
		const { importedFiles } = ts.preProcessFile(scriptOf(file), true, true);
		const targets = new Set<string>();
		for (const { fileName } of importedFiles) {
			if (!fileName.startsWith('.')) continue;
			const target = resolveImport(file, fileName);
			if (target === null) throw new Error(`${relative(SRC, file)}: cannot resolve ${fileName}`);
			targets.add(relative(SRC, target));
		}
		graph.set(relative(SRC, file), targets);
	}
	return graph;
}

/** The strongly connected parts of more than one node (Tarjan), each sorted. */
function circles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
	let next = 0;
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const found: string[][] = [];
	const visit = (node: string): void => {
		index.set(node, next);
		low.set(node, next);
		next += 1;
		stack.push(node);
		onStack.add(node);
		for (const target of graph.get(node) ?? []) {
			if (!index.has(target)) {
				visit(target);
				low.set(node, Math.min(low.get(node)!, low.get(target)!));
			} else if (onStack.has(target)) {
				low.set(node, Math.min(low.get(node)!, index.get(target)!));
			}
		}
		if (low.get(node) === index.get(node)) {
			const part: string[] = [];
			let member: string;
			do {
				member = stack.pop()!;
				onStack.delete(member);
				part.push(member);
			} while (member !== node);
			if (part.length > 1) found.push(part.sort());
		}
	};
	for (const node of graph.keys()) if (!index.has(node)) visit(node);
	return found;
}

/** The graph between folders cut to `depth` (a file at the top counts as `.`). */
function folderGraph(files: ReadonlyMap<string, ReadonlySet<string>>, depth: number) {
	const folderOf = (file: string): string =>
		dirname(file).split('/').slice(0, depth).join('/') || '.';
	const graph = new Map<string, Set<string>>();
	for (const [file, targets] of files) {
		const from = folderOf(file);
		const edges = graph.get(from) ?? new Set<string>();
		graph.set(from, edges);
		for (const target of targets) if (folderOf(target) !== from) edges.add(folderOf(target));
	}
	return graph;
}

describe('imports in src', () => {
	const files = importGraph();

	it('reads every source file and its relative imports', () => {
		expect(files.size).toBeGreaterThan(300);
		const edges = [...files.values()].reduce((sum, targets) => sum + targets.size, 0);
		expect(edges).toBeGreaterThan(files.size);
		// The reader sees a .svelte file's imports, type imports included.
		expect(files.get('App.svelte')).toContain('ui/kind-pages.ts');
		expect(files.get('core/run/run-kind.ts')).toContain('core/run/run-types.ts');
	});

	it('has no circle between files', () => {
		expect(circles(files)).toEqual([]);
	});

	it.each([1, 2, 3])('has no circle between folders cut to depth %i', (depth) => {
		expect(circles(folderGraph(files, depth))).toEqual([]);
	});

	it('finds a circle where there is one', () => {
		const made = new Map([
			['a/x.ts', new Set(['b/y.ts'])],
			['b/y.ts', new Set(['a/z.ts'])],
			['a/z.ts', new Set<string>()],
		]);
		expect(circles(made)).toEqual([]);
		expect(circles(folderGraph(made, 1))).toEqual([['a', 'b']]);
		made.set('a/z.ts', new Set(['a/x.ts']));
		expect(circles(made)).toEqual([['a/x.ts', 'a/z.ts', 'b/y.ts']]);
	});
});
