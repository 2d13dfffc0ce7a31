/**
 * What one family of runs (a kind: suite, Evals, Memory, …) tells the rest of the app, as one
 * object its own folder exports: how its stored records look, when they resume, how its bundles
 * and links are read and written, what a list says of a run, where it opens, and the words its
 * pages explain (its glossary terms). The kind registry (core/kinds/kind-registry.ts) derives
 * every list of kinds from these; nothing outside a family's folders names the family. Pure.
 */
import type * as v from 'valibot';
import type { TextModelSpec } from '../model/model-spec';
import type { ResumeRule } from './resume-plan';
import type { RunRecordBase } from './run-types';
import type { ReadBundleResult, RunBundleFormat } from './task-run-json';
import type { ShareRoute } from '../share/share-codec';

/**
 * A word of the glossary, explained in two or three plain sentences a teacher can read aloud:
 * shown on the Glossary page and in the `?` tips. Text only.
 */
export interface GlossaryTerm<Id extends string = string> {
	/** Lowercase letters, digits and `-`; unique across the shared words and every kind's. */
	readonly id: Id;
	readonly term: string;
	/** One sentence: what the `?` tip says. */
	readonly short: string;
	/** More, for the Glossary page. */
	readonly more: string;
	/** The `?` button's name when “What is <term>?” does not read well. */
	readonly ask?: string;
}

/** A model of a run with its role in it (`model`; Evals: `policy`, `grader`; Memory: `agent`, `judge`). */
export interface ModelInRole {
	readonly role: string;
	readonly spec: TextModelSpec;
}

/** A page of the run's family about the run, offered on its Library row (a hash route). */
export interface LibraryLink {
	/** The button's word ("Compare"). */
	readonly label: string;
	/** Its accessible name, saying which run ("Compare models on the suite of run 3"). */
	readonly ariaLabel: string;
	readonly route: string;
}

/** What a kind adds to its runs' Library rows besides title, models, status and counts. */
export interface LibraryFacts {
	/** A line under the title ("suite 2 of 5 of a battery"). */
	readonly detail?: string;
	/** A fingerprint shown under the title (its first 12 hex digits; all of it on hover). */
	readonly fingerprint?: string;
	/** A line under the models (a suite run's convention). */
	readonly modelDetail?: string;
	/** Pages about the run, offered as buttons on its row. */
	readonly links?: readonly LibraryLink[];
}

/** A page about several runs of one kind, picked in the Library (the suite family's matrix). */
export interface LibraryPick {
	/** The button's words, before the count ("Matrix of picked runs"). */
	readonly label: string;
	/** What the picked runs make, in a pick box's name ("the matrix"). */
	readonly purpose: string;
	/** What the page shows, for the hint above the list ("one column per model, one row per suite"). */
	readonly hint: string;
	/** The page's hash route for the picked runs, in the order picked. */
	readonly route: (runIds: readonly number[]) => string;
}

/** A kind's links: the codec's route, and the payload read and written after it. */
export interface ShareFacet<Payload> extends ShareRoute {
	/** The link data after `route`; throws a ShareLinkError (`too-large`) over the budget. */
	readonly encode: (payload: Payload) => string;
	/** Reads the link data after `route`; throws an Error that says what is wrong. */
	readonly decode: (data: string) => Payload;
}

/**
 * The hash (`#/evals/share/2/…`) of a link at `facet`: the one way a page makes a share URL's
 * fragment. Throws the facet's ShareLinkError (`too-large`) over the link budget.
 */
export function shareHashOf<Payload>(facet: ShareFacet<Payload>, payload: Payload): string {
	return `#${facet.route}${facet.encode(payload)}`;
}

/** A kind's bundles: the envelope's facts and the kind's reader and writer. */
export interface BundleFacet<Bundle> extends RunBundleFormat {
	/** Reads a bundle of this kind (format 2 or the kind's 0.1.0 format) from untrusted text. */
	readonly read: (text: string) => ReadBundleResult<Bundle>;
	/**
	 * The same reading of the text's JSON already parsed (the registry parses a bundle once to
	 * learn its kind): absent, the registry hands `read` the text again.
	 */
	readonly readJson?: (json: unknown) => ReadBundleResult<Bundle>;
	/** The bundle as JSON text in the `benchtop-run/2` envelope, sealed with its fingerprint. */
	readonly write: (bundle: Bundle) => string;
	/** One line for lists and messages: name, model, how far, status. */
	readonly summarize: (bundle: Bundle) => string;
}

/** How far a stored run got, in the kind's own unit. */
export interface RunProgressCount {
	readonly done: number;
	readonly total: number;
}

/** One stored piece of a run (an item, a sample, a log entry), keyed within its run. */
export interface StoredRunItem {
	readonly kind: string;
	readonly key: number | string;
	readonly [field: string]: unknown;
}

/**
 * A run as storage keeps it, apart from its id: the record and its pieces. Storage imports and
 * exports a kind's runs through this when the kind gives `toStored` and `fromStored`.
 */
export interface StoredRun<Run> {
	readonly run: Omit<Run, 'id'>;
	readonly items: readonly StoredRunItem[];
}

export interface RunKindDefinition<
	Run extends RunRecordBase<string> = RunRecordBase<string>,
	Bundle = unknown,
	Payload = unknown,
	TermId extends string = string,
> {
	/** The records' and bundles' `kind`: lowercase letters, digits and `-`. */
	readonly kind: Run['kind'];
	/** The kind in lists and filters: "Suite", "Evals", "Memory". */
	readonly label: string;
	/** The page that starts runs of this kind: its name in the menu and its route. */
	readonly page: { readonly name: string; readonly route: string };
	/**
	 * The fields of a stored record that pages format, beyond every run's (id, title, status,
	 * times): checked before a row is shown; a row that fails is listed as unreadable.
	 */
	readonly storedEntries: v.ObjectEntries;
	/** When a stored run can be resumed and how far it got; the words of the shared messages. */
	readonly resume: ResumeRule<Run, Run['kind']>;
	/** Every model a run used, in its roles' order (e.g. policy models then grader). */
	readonly models: (run: Run) => readonly TextModelSpec[];
	/** `run`'s models with their roles, as the Library lists them (absent: each of `models` as `model`). */
	readonly modelRoles?: (run: Run) => readonly ModelInRole[];
	/** What the Library shows of a run of this kind besides what every run has (absent: nothing). */
	readonly libraryFacts?: (run: Run) => LibraryFacts;
	/** A page about several of its runs picked in the Library (absent: runs are picked to export). */
	readonly libraryPick?: LibraryPick;
	/** How far a stored run got, counted in `resume.noun`. */
	readonly progress: (run: Run) => RunProgressCount;
	/** Where the stored run `runId` opens (a hash route, with `#`). */
	readonly openRoute: (runId: number) => string;
	readonly bundle: BundleFacet<Bundle>;
	/** The kind's own link (a run's result, re-run where it opens). */
	readonly share: ShareFacet<Payload>;
	/** Other links the family opens (the suite family's battery link). */
	readonly moreShares?: readonly ShareFacet<unknown>[];
	/** A bundle as storage keeps it (import); absent while the kind imports through its own page. */
	readonly toStored?: (bundle: Bundle) => StoredRun<Run>;
	/** A stored run as a bundle (export); absent while the kind exports through its own page. */
	readonly fromStored?: (run: Run, items: readonly StoredRunItem[]) => Bundle;
	/**
	 * The words of this family (its own glossary module), shown on the Glossary page after the
	 * words every family shares, and named by the `?` tips of its pages.
	 */
	readonly glossary?: readonly GlossaryTerm<TermId>[];
}

/** A kind definition of any record, bundle and payload (what the registry holds). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each kind's own types vary
export type AnyRunKind = RunKindDefinition<any, any, any>;
