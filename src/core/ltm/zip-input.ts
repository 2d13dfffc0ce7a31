/**
 * LTM definitions from a zip (reference §4.2): upstream `<Dataset Name>/<id>.def.json` files with
 * their `config.yml` (at any depth), or a single `ltm-suite.json`. Paths in messages are
 * `<zip name>/<entry>`. Read within the caps of formats/zip-archive.ts. Pure.
 */
import { entryText, unzipBounded } from '../formats/zip-archive';
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
		entries = unzipBounded(
			zipName,
			bytes,
			(name) => name.endsWith('.json') || /\.ya?ml$/.test(name),
		);
	} catch (cause) {
		return failed(
			zipName,
			`${(cause instanceof Error ? cause.message : String(cause)).replace(`${zipName}: `, '')} Give a .zip of <Dataset Name>/<id>.def.json files, or of one ltm-suite.json.`,
		);
	}
	const names = Object.keys(entries).sort();
	const definitions = names.filter(
		(name) => name.endsWith('.def.json') || /(^|\/)config\.ya?ml$/.test(name),
	);
	if (definitions.some((name) => name.endsWith('.def.json'))) {
		const files: Record<string, string> = {};
		for (const name of definitions) files[`${zipName}/${name}`] = entryText(entries[name]!);
		return loadLtmDefinitions(files, options);
	}
	const suites = names.filter((name) => name.endsWith('.json'));
	if (suites.length === 1) {
		const name = suites[0]!;
		return loadLtmSuite(`${zipName}/${name}`, entryText(entries[name]!), options);
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
