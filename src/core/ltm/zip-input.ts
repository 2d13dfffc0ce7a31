/**
 * LTM definitions from a zip (reference §4.2): upstream `<Dataset Name>/<id>.def.json` files with
 * their `config.yml` (at any depth), or a single `ltm-suite.json`. Paths in messages are
 * `<zip name>/<entry>`. Pure (fflate).
 */
import { strFromU8, unzipSync } from 'fflate';
import { loadLtmDefinitions, type LoadDefinitionsOptions, type LoadResult } from './definitions';
import { loadLtmSuite } from './ltm-suite';

/** Loads the definitions or the suite a zip holds; `zipName` names it in messages. */
export function loadLtmZip(
	zipName: string,
	bytes: Uint8Array,
	options: LoadDefinitionsOptions = {},
): LoadResult {
	let entries: Record<string, Uint8Array>;
	try {
		entries = unzipSync(bytes, {
			filter: (file) =>
				!file.name.endsWith('/') &&
				!file.name.split('/').some((part) => part === '__MACOSX' || part.startsWith('.')),
		});
	} catch (cause) {
		return failed(
			zipName,
			`not a readable zip (${cause instanceof Error ? cause.message : String(cause)}): give a .zip of <Dataset Name>/<id>.def.json files, or of one ltm-suite.json`,
		);
	}
	const names = Object.keys(entries).sort();
	const definitions = names.filter(
		(name) => name.endsWith('.def.json') || /(^|\/)config\.ya?ml$/.test(name),
	);
	if (definitions.some((name) => name.endsWith('.def.json'))) {
		const files: Record<string, string> = {};
		for (const name of definitions) files[`${zipName}/${name}`] = strFromU8(entries[name]!);
		return loadLtmDefinitions(files, options);
	}
	const suites = names.filter((name) => name.endsWith('.json'));
	if (suites.length === 1) {
		const name = suites[0]!;
		return loadLtmSuite(`${zipName}/${name}`, strFromU8(entries[name]!), options);
	}
	return failed(
		zipName,
		suites.length > 1
			? `holds ${suites.length} JSON files and no .def.json: zip one ltm-suite.json at a time`
			: 'holds no <Dataset Name>/<id>.def.json files and no ltm-suite.json',
	);
}

function failed(path: string, message: string): LoadResult {
	return { ok: false, diagnostics: [{ severity: 'error', path, pointer: '', message }] };
}
