/**
 * Where the Memory page's definitions come from, read: the bundled example suites (as cards),
 * dropped or picked files (a folder, files or one zip) checked by the core, and the loading of
 * given definitions in this thread or, over 1 MiB, in the parse worker with progress. Also the
 * token counter runs are scheduled with. No state of its own: the Memory session keeps it.
 */
import { describeError } from '../../core/messages/describe-error';
import {
	checkDefinitionsDrop,
	definitionsPathOf,
	droppedPathOf,
	dropProblemDiagnostic,
	isDefinitionsPath,
	isZipName,
	noDefinitionsDiagnostic,
} from '../../core/ltm/dropped-definitions';
import { memoryCardOf, type MemoryCard } from '../../core/ltm/memory-cards';
import { loadLtmSuite, type LoadResult, type LtmDiagnostic } from '../../core/ltm';
import { formatNameList } from '../../core/text/format-count';
import {
	definitionsSize,
	loadGivenDefinitions,
	type MemoryDefinitions,
} from './memory-definitions';
import {
	PARSE_IN_WORKER_BYTES,
	checkInputSize,
	parseInputsClient,
	type ParseProgress,
} from './parse-inputs-client';

const BUNDLED_FOLDER = '/suites/memory/';

const BUNDLED_SUITES = import.meta.glob<string>('/suites/memory/*.ltm-suite.json', {
	query: '?raw',
	import: 'default',
});

/** Token counter for scheduling and gaps: cl100k_base, as upstream reports them (loaded on demand). */
export async function loadCl100kCounter(): Promise<(text: string) => number> {
	const module = await import('../../providers/token-count');
	return module.countCl100kTokens;
}

/** The reader of a bundled example by its file name, or undefined when there is none. */
export function bundledMemorySuite(name: string): (() => Promise<string>) | undefined {
	return BUNDLED_SUITES[`${BUNDLED_FOLDER}${name}`];
}

/** Every bundled example that loads, as a card (an example that does not load is left out). */
export async function bundledMemoryCards(
	countTokens: (text: string) => number,
): Promise<MemoryCard[]> {
	const cards: MemoryCard[] = [];
	for (const [path, load] of Object.entries(BUNDLED_SUITES)) {
		const name = path.replace(BUNDLED_FOLDER, '');
		const result = loadLtmSuite(name, await load(), { countTokens });
		if (result.ok) cards.push(await memoryCardOf(name, result.benchmark, countTokens));
	}
	return cards;
}

/** A drop read as definitions (and named for the page), or the diagnostics that say why not. */
export type DefinitionsDrop =
	| { readonly ok: true; readonly definitions: MemoryDefinitions; readonly name: string }
	| { readonly ok: false; readonly diagnostics: readonly LtmDiagnostic[] };

/**
 * Reads dropped or picked files: `.def.json` + config.yml (a folder, or a zip read later by the
 * core's `loadLtmZip`), or an ltm-suite.json. Other files are left out.
 */
export async function readDefinitionsDrop(files: readonly File[]): Promise<DefinitionsDrop> {
	const entries = new Map<string, string>();
	try {
		checkDefinitionsDrop(files, checkInputSize);
		const zip = files.find((file) => isZipName(file.name));
		if (zip) {
			const bytes = new Uint8Array(await zip.arrayBuffer());
			return { ok: true, definitions: { kind: 'zip', name: zip.name, bytes }, name: zip.name };
		}
		for (const file of files) {
			const path = droppedPathOf(file);
			if (isDefinitionsPath(path)) entries.set(definitionsPathOf(path), await file.text());
		}
	} catch (error) {
		return { ok: false, diagnostics: [dropProblemDiagnostic(describeError(error))] };
	}
	if (entries.size === 0) {
		return { ok: false, diagnostics: [noDefinitionsDiagnostic(files.map((file) => file.name))] };
	}
	return {
		ok: true,
		definitions: { kind: 'texts', files: entries },
		name: formatNameList(files.map(droppedPathOf)),
	};
}

/** Big definitions being loaded in the parse worker, and how far. */
export interface DefinitionsReading {
	readonly name: string;
	readonly progress: ParseProgress | null;
}

/**
 * Loads definitions (named `name` in diagnostics) in this thread, or in the parse worker over
 * 1 MiB, reporting its progress to `onReading` (null once it is over).
 */
export async function loadDefinitionsInThreadOrWorker(
	definitions: MemoryDefinitions,
	options: { readonly isolated?: boolean; readonly memorySpan?: number },
	name: string,
	io: {
		readonly countTokens: () => Promise<(text: string) => number>;
		readonly onReading: (reading: DefinitionsReading | null) => void;
	},
): Promise<LoadResult> {
	if (definitionsSize(definitions) <= PARSE_IN_WORKER_BYTES) {
		return loadGivenDefinitions(definitions, { ...options, countTokens: await io.countTokens() });
	}
	io.onReading({ name, progress: null });
	try {
		const input =
			definitions.kind === 'zip'
				? definitions
				: { kind: 'texts' as const, files: [...definitions.files] };
		return await parseInputsClient().call(
			'ltmDefinitions',
			{ definitions: input, ...options },
			{ onProgress: (progress) => io.onReading({ name, progress }) },
		);
	} catch (error) {
		const message = describeError(error);
		return { ok: false, diagnostics: [{ severity: 'error', path: name, pointer: '', message }] };
	} finally {
		io.onReading(null);
	}
}
