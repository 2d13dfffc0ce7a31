// Builds the `benchtop` command (package.json `bin`) from src/cli/main.ts into one ES module,
// build/cli/benchtop.js, so it starts without compiling TypeScript. Dependencies stay
// external (read from node_modules at run time). Run by `npm run build`.
import { chmod, readFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = resolve(root, process.argv[2] ?? 'build/cli/benchtop.js');

/**
 * Sources find files next to themselves with `new URL('../x', import.meta.url)`. In the bundle
 * `import.meta.url` is the bundle's URL, so each source's own URL is rebuilt from the bundle's.
 */
const keepModuleUrls = {
	name: 'keep-module-urls',
	setup(pluginBuild) {
		pluginBuild.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
			const contents = await readFile(args.path, 'utf8');
			if (!contents.includes('import.meta.url')) return undefined;
			const fromBundle = relative(dirname(outfile), args.path).split('\\').join('/');
			return {
				contents: contents.replaceAll(
					'import.meta.url',
					`new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`,
				),
				loader: 'ts',
			};
		});
	},
};

await build({
	entryPoints: [resolve(root, 'src/cli/main.ts')],
	outfile,
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node20',
	packages: 'external',
	banner: { js: '#!/usr/bin/env node' },
	plugins: [keepModuleUrls],
	logLevel: 'warning',
});
await chmod(outfile, 0o755);
console.log(`built ${relative(root, outfile)}`);
