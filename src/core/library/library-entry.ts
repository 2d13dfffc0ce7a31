/**
 * The Library's row of a stored run of any kind (suite, battery member, Evals, Memory): its kind in
 * words, what ran, every model with its facts (provider, base URL, dtype, convention), honest
 * status, counts, date, where it opens; and the Library's filter and search. Pure; the page holds
 * the rows' state and actions.
 */
import { RUN_KIND_REGISTRY, type RegisteredKindName } from '../kinds/registered-kinds';
import type { TextModelSpec } from '../model/model-spec';
import type { LibraryLink } from '../run/run-kind';

export type { LibraryLink } from '../run/run-kind';
import type { RunRecordBase, RunStatus } from '../run/run-types';

/**
 * A stored run as the Library reads it: any kind's record (an Evals run without its heavy input);
 * what a row shows of it beyond the fields every run has comes from its kind, via the registry.
 */
export type LibraryRun = RunRecordBase<string>;

/** The kind of run in words, as each registered kind names itself ("Suite", "Evals", "Memory"). */
export const LIBRARY_KIND_LABELS: Readonly<Record<RegisteredKindName, string>> = Object.fromEntries(
	RUN_KIND_REGISTRY.kinds.map((kind) => [kind.kind, kind.label]),
) as Record<RegisteredKindName, string>;

/**
 * A run's status in words: `interrupted` stands for a record left `running` that no session of
 * this tab works on (the page that scored it was reloaded or closed); `running` only while one does.
 */
export type LibraryStatus = Exclude<RunStatus, 'running'> | 'running' | 'interrupted';

/** Every status the Library's filter offers, in that order. */
export const LIBRARY_STATUSES: readonly LibraryStatus[] = [
	'running',
	'interrupted',
	'cancelled',
	'failed',
	'done',
];

/** The status word of a stored run (see {@link LibraryStatus}). */
export function libraryStatusOf(status: RunStatus, workedOnNow: boolean): LibraryStatus {
	return status === 'running' && !workedOnNow ? 'interrupted' : status;
}

/** One model of a run: its role, its name, and the facts that tell runs of that name apart. */
export interface LibraryModel {
	/** "model", "policy", "grader", "agent", "judge". */
	readonly role: string;
	/** The model's name: `gpt2-en-small`, `Xenova/distilgpt2@rev`, `openai/<model>`, `replay:<file>`. */
	readonly name: string;
	/** Where it comes from: `bundled`, `hub`, `local`, `endpoint`, `replay`. */
	readonly provider: string;
	/** Provider, then base URL / dtype and backend / file hash, in reading order. */
	readonly facts: readonly string[];
	/**
	 * The model in one line: `gpt2-en-small (bundled, fp32)`, `openai/m (endpoint <base URL>)`,
	 * `replay:a.jsonl (replay)`.
	 */
	readonly label: string;
	/** Where it ran: a local model's backend, an endpoint's base URL, a replay file's hash. */
	readonly place: string;
}

/** Where a stored run opens: the route its kind gives (a suite run's results, the Evals page showing it). */
export interface LibraryOpenTarget {
	readonly runId: number;
	/** Its kind's route for it (`#/results/3`, `#/evals/run/5`). */
	readonly route: string;
}

/** One row of the Library. */
export interface LibraryEntry {
	readonly id: number;
	/** A registered kind (`suite`, `evals`, `ltm`, `stimuli`, ...). */
	readonly kind: string;
	/** "Suite", "Evals", "Memory". */
	readonly kindLabel: string;
	/** What ran: the suite's, the eval's or the Memory run's name. */
	readonly title: string;
	/** A line under the title, from its kind ("suite 2 of 5 of a battery"). */
	readonly detail?: string;
	/** A fingerprint shown under the title, from its kind (a suite run's suite SHA-256). */
	readonly fingerprint?: string;
	readonly models: readonly LibraryModel[];
	/** A line under the models, from its kind (a suite run's convention). */
	readonly modelDetail?: string;
	/** Its kind's pages about the run (a suite run: Compare; a battery member: Matrix). */
	readonly links: readonly LibraryLink[];
	/** The stored status (see {@link libraryStatusOf} for the words). */
	readonly status: RunStatus;
	readonly done: number;
	readonly total: number;
	/** What the run counts, plural ("items", "samples", "tests"). */
	readonly noun: string;
	/** "3 of 5 samples". */
	readonly countsText: string;
	/** Whether the kind's resume rule offers to resume it (work left, not finished). */
	readonly resumable: boolean;
	/** Milliseconds since the Unix epoch. */
	readonly createdAt: number;
	readonly open: LibraryOpenTarget;
	/** Its kind's page (`#/` for suites, `#/evals`), where a resumed run shows its progress. */
	readonly pageRoute: string;
}

/** A model's provider and facts. */
export function libraryModelOf(role: string, spec: TextModelSpec): LibraryModel {
	switch (spec.source) {
		case 'openai':
			return {
				role,
				name: `openai/${spec.model}`,
				provider: 'endpoint',
				facts: ['endpoint', spec.baseUrl],
				label: `openai/${spec.model} (endpoint ${spec.baseUrl})`,
				place: spec.baseUrl,
			};
		case 'replay':
			return {
				role,
				name: `replay:${spec.file}`,
				provider: 'replay',
				facts: ['replay', `sha256 ${spec.sha256.slice(0, 12)}…`],
				label: `replay:${spec.file} (replay)`,
				place: `sha256 ${spec.sha256.slice(0, 12)}…`,
			};
		case 'bundled':
		case 'hub':
		case 'local': {
			const revision =
				spec.revision !== undefined && spec.revision !== 'main' ? `@${spec.revision}` : '';
			return {
				role,
				name: `${spec.id}${revision}`,
				provider: spec.source,
				facts: [spec.source, spec.dtype, spec.backend],
				label: `${spec.id}${revision} (${spec.source}, ${spec.dtype})`,
				place: spec.backend,
			};
		}
	}
}

function modelsOf(run: LibraryRun): LibraryModel[] {
	return RUN_KIND_REGISTRY.modelRoles(run).map(({ role, spec }) => libraryModelOf(role, spec));
}

/** Where the stored run `runId` of `kind` opens. @throws Error for an unknown kind. */
export function libraryOpenTarget(kind: string, runId: number): LibraryOpenTarget {
	return { runId, route: RUN_KIND_REGISTRY.openRoute(kind, runId) };
}

/** The Library's row of a stored run. Does not change `run`. */
export function libraryEntryOf(run: LibraryRun): LibraryEntry {
	// How far it got and whether it resumes: its kind's own rule, through the registry.
	const { done, total, noun } = RUN_KIND_REGISTRY.progress(run);
	const resumable = RUN_KIND_REGISTRY.resumePlan(run) !== null;
	const { detail, fingerprint, modelDetail, links = [] } = RUN_KIND_REGISTRY.libraryFacts(run);
	return {
		id: run.id,
		kind: run.kind,
		kindLabel: RUN_KIND_REGISTRY.of(run).label,
		title: run.title,
		...(detail === undefined ? {} : { detail }),
		...(fingerprint === undefined ? {} : { fingerprint }),
		models: modelsOf(run),
		...(modelDetail === undefined ? {} : { modelDetail }),
		links,
		status: run.status,
		done,
		total,
		noun,
		countsText: `${done} of ${total} ${noun}`,
		resumable,
		createdAt: run.createdAt,
		open: libraryOpenTarget(run.kind, run.id),
		pageRoute: RUN_KIND_REGISTRY.of(run).page.route,
	};
}

/** What the Library shows: a kind, a model name, a status word, and search text; null: any. */
export interface LibraryFilter {
	readonly kind: string | null;
	readonly model: string | null;
	readonly status: LibraryStatus | null;
	/** Words that must all appear (any case) in the run's kind, title, models or "run <id>". */
	readonly search: string;
}

export const NO_LIBRARY_FILTER: LibraryFilter = {
	kind: null,
	model: null,
	status: null,
	search: '',
};

/** The text a search looks in: "run <id>", kind, title, its kind's detail line, model names and facts. */
function searchTextOf(entry: LibraryEntry): string {
	return [
		`run ${entry.id}`,
		entry.kindLabel,
		entry.title,
		entry.detail ?? '',
		...entry.models.flatMap((model) => [model.name, ...model.facts]),
	]
		.join('\n')
		.toLowerCase();
}

/**
 * Whether `entry` passes `filter`; `statusOf` gives its status word (whether a session of the tab
 * works on it is the page's knowledge).
 */
export function matchesLibraryFilter(
	entry: LibraryEntry,
	filter: LibraryFilter,
	statusOf: (entry: LibraryEntry) => LibraryStatus,
): boolean {
	if (filter.kind !== null && entry.kind !== filter.kind) return false;
	if (filter.model !== null && !entry.models.some((model) => model.name === filter.model)) {
		return false;
	}
	if (filter.status !== null && statusOf(entry) !== filter.status) return false;
	const text = searchTextOf(entry);
	return filter.search
		.toLowerCase()
		.split(/\s+/)
		.filter((word) => word !== '')
		.every((word) => text.includes(word));
}

/** The model names of `entries`, each once, sorted: what the model filter offers. */
export function libraryModelNames(entries: readonly LibraryEntry[]): string[] {
	return [...new Set(entries.flatMap((entry) => entry.models.map((model) => model.name)))].sort(
		(a, b) => a.localeCompare(b),
	);
}

/**
 * A file name for a run's bundle inside an export zip: `run<id>-<kind>-<title>.benchtop-run.json`,
 * the title reduced to safe characters (at most 60).
 */
export function libraryBundleFileName(entry: Pick<LibraryEntry, 'id' | 'kind' | 'title'>): string {
	const stem =
		entry.title
			.normalize('NFKD')
			.replace(/[^A-Za-z0-9._-]+/g, '-')
			.replace(/^[-.]+|[-.]+$/g, '')
			.slice(0, 60) || 'run';
	return `run${entry.id}-${entry.kind}-${stem}.benchtop-run.json`;
}
