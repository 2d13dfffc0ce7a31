/**
 * The kind registry: the one place that holds every family of runs (each a RunKindDefinition
 * from its own folder) and derives what code handling runs of any kind needs: the kinds' names,
 * the stored-row check, resume plans, models and progress of any record, any bundle read by its
 * envelope, any link opened by its route. Adding a family is its folders plus one line in
 * registered-kinds.ts. Pure.
 */
import * as v from 'valibot';
import { ShareLinkError } from '../errors';
import { sha256Hex } from '../hash/sha256';
import type { TextModelSpec } from '../model/model-spec';
import type { ResumePlan } from '../run/resume-plan';
import type {
	AnyRunKind,
	LibraryFacts,
	ModelInRole,
	RunKindDefinition,
	RunProgressCount,
	ShareFacet,
} from '../run/run-kind';
import { RUN_STATUSES, type RunRecordBase } from '../run/run-types';
import {
	TimeMsSchema,
	parseJsonText,
	pointerOfIssue,
	readRunBundleEnvelope,
	resultsSha256Of,
	sealToCheck,
	sealVerdict,
} from '../run/task-run-json';
import { shareFragmentOf, shareRouteOf } from '../share/share-codec';

/** A stored run row that cannot be shown: its id, its kind as stored, and what is wrong. */
export interface UnreadableRun {
	readonly id: number;
	/** The row's `kind` when it is a registered kind, else null. */
	readonly kind: string | null;
	/** Where and what, e.g. `/createdAt: expected a time …`. */
	readonly problem: string;
}

/** A kind's name with its bundle type (distributes over a union of kinds). */
type KindBundle<K> =
	K extends RunKindDefinition<infer Run, infer Bundle, infer _Payload>
		? { readonly kind: Run['kind']; readonly bundle: Bundle }
		: never;

/** A bundle of any of `Kinds`, read: its kind and its kind's bundle. */
export type ReadAnyBundleResult<Kind extends AnyRunKind = AnyRunKind> =
	| ({ readonly ok: true; readonly resultsSha256?: string } & KindBundle<Kind>)
	| { readonly ok: false; readonly message: string; readonly pointer: string };

/** A bundle opened by KindRegistry.openBundle: parsed, its kind known, its seal ready to hash. */
export interface OpenedBundle<Kind extends AnyRunKind = AnyRunKind> {
	readonly ok: true;
	readonly kind: Kind;
	readonly json: unknown;
	readonly text: string;
	/** The seal it claims and the text whose SHA-256 that must be (`sealVerdict` says whether). */
	readonly seal?: { readonly claimed: string; readonly canonical: string };
}

export type OpenBundleResult<Kind extends AnyRunKind = AnyRunKind> =
	OpenedBundle<Kind> | { readonly ok: false; readonly message: string; readonly pointer: string };

/** A link of any registered kind, read: the facet's kind (e.g. `battery`) and its payload. */
export type DecodeAnyLinkResult =
	| { readonly ok: true; readonly kind: string; readonly payload: unknown }
	| { readonly ok: false; readonly error: Error };

const KIND_NAME = /^[a-z][a-z0-9-]{0,39}$/;
const TERM_ID = /^[a-z][a-z0-9-]{0,59}$/;

/** Every run's fields that pages format, whatever its kind. */
const BASE_ENTRIES = {
	id: v.pipe(v.number(), v.integer(), v.minValue(1)),
	title: v.string(),
	status: v.picklist(RUN_STATUSES),
	createdAt: TimeMsSchema,
	updatedAt: TimeMsSchema,
	errorMessage: v.optional(v.string()),
};

export class KindRegistry<const Kinds extends readonly AnyRunKind[] = readonly AnyRunKind[]> {
	readonly #kinds: Kinds[number][] = [];
	readonly #byName = new Map<string, Kinds[number]>();
	readonly #storedSchemas = new Map<string, v.GenericSchema>();
	/** Every kind's glossary term ids, each with the kind that explains it. */
	readonly #termKinds = new Map<string, string>();
	#shareFacets: readonly ShareFacet<unknown>[] = [];

	/** @throws Error as {@link register} does. */
	constructor(kinds: Kinds) {
		for (const kind of kinds) this.register(kind);
	}

	/**
	 * Adds a kind: from then on its records are stored and listed, its bundles and links read,
	 * its runs resumed, by every part of the app that goes through this registry.
	 * @throws Error when its name is not a kind name, or its name, a link route or a glossary term
	 * id is taken (by another kind, or twice by its own glossary).
	 */
	register(kind: AnyRunKind): void {
		if (!KIND_NAME.test(kind.kind)) throw new Error(`"${kind.kind}" is not a kind name.`);
		if (this.#byName.has(kind.kind)) throw new Error(`Kind "${kind.kind}" is registered twice.`);
		if (kind.bundle.kind !== kind.kind || kind.share.kind !== kind.kind) {
			throw new Error(`Kind "${kind.kind}": its bundle and its link must name it.`);
		}
		const facets = [kind.share, ...(kind.moreShares ?? [])];
		for (const { route } of facets) {
			if (this.#shareFacets.some((taken) => taken.route === route)) {
				throw new Error(`Link route ${route} of kind "${kind.kind}" is taken.`);
			}
		}
		const termIds = (kind.glossary ?? []).map(({ id }) => id);
		for (const [index, id] of termIds.entries()) {
			if (!TERM_ID.test(id)) throw new Error(`"${id}" (kind "${kind.kind}") is not a term id.`);
			const owner = termIds.indexOf(id) < index ? kind.kind : this.#termKinds.get(id);
			if (owner !== undefined) {
				throw new Error(
					`Glossary term "${id}" of kind "${kind.kind}" is taken by kind "${owner}".`,
				);
			}
		}
		this.#kinds.push(kind);
		this.#byName.set(kind.kind, kind);
		for (const id of termIds) this.#termKinds.set(id, kind.kind);
		this.#shareFacets = [...this.#shareFacets, ...facets];
		this.#storedSchemas.set(
			kind.kind,
			v.looseObject({ ...BASE_ENTRIES, kind: v.literal(kind.kind), ...kind.storedEntries }),
		);
	}

	/** The registered kinds, in registration order (the Library's order of kinds). */
	get kinds(): readonly Kinds[number][] {
		return this.#kinds;
	}

	/** Their `kind` names. */
	get names(): readonly string[] {
		return this.#kinds.map(({ kind }) => kind);
	}

	/** Every link route of every kind (a family may have several: suite and battery). */
	get shareFacets(): readonly ShareFacet<unknown>[] {
		return this.#shareFacets;
	}

	/** The kind named `name`, or undefined. */
	get(name: string): Kinds[number] | undefined {
		return this.#byName.get(name);
	}

	/** The kind of `run` (a record of a registered kind). @throws Error for an unknown kind. */
	of(run: RunRecordBase<string>): Kinds[number] {
		const kind = this.#byName.get(run.kind);
		if (kind === undefined) throw new Error(`Runs of kind "${run.kind}" are not known here.`);
		return kind;
	}

	/** What is wrong with a stored run row (`/pointer: message`), or null when pages can show it. */
	storedRunProblem(row: unknown): string | null {
		const kind =
			typeof row === 'object' && row !== null ? (row as { kind?: unknown }).kind : undefined;
		const schema = typeof kind === 'string' ? this.#storedSchemas.get(kind) : undefined;
		if (schema === undefined) {
			return `/kind: expected a kind of run (${this.names.map((name) => JSON.stringify(name)).join(', ')})`;
		}
		const result = v.safeParse(schema, row);
		if (result.success) return null;
		const issue = result.issues[0];
		return `${pointerOfIssue(issue) || '/'}: ${issue.message}`;
	}

	/** A row that failed {@link storedRunProblem}, as the lists show it. */
	unreadableRun(id: number, row: unknown, problem: string): UnreadableRun {
		const kind =
			typeof row === 'object' && row !== null ? (row as { kind?: unknown }).kind : undefined;
		return { id, kind: typeof kind === 'string' && this.#byName.has(kind) ? kind : null, problem };
	}

	/** When `run` can be resumed and how far it got (null: nothing to resume). */
	resumePlan(run: RunRecordBase<string>): ResumePlan | null {
		return this.of(run).resume.resumePlan(run);
	}

	/** Every model `run` used, in its roles' order. */
	models(run: RunRecordBase<string>): readonly TextModelSpec[] {
		return this.of(run).models(run);
	}

	/** Every model `run` used with its role, in its kind's order (`model` where it has no roles). */
	modelRoles(run: RunRecordBase<string>): readonly ModelInRole[] {
		const kind = this.of(run);
		return kind.modelRoles?.(run) ?? kind.models(run).map((spec) => ({ role: 'model', spec }));
	}

	/** What the Library shows of `run` besides what every run has. */
	libraryFacts(run: RunRecordBase<string>): LibraryFacts {
		return this.of(run).libraryFacts?.(run) ?? {};
	}

	/** How far `run` got, in its kind's unit. */
	progress(run: RunRecordBase<string>): RunProgressCount & { readonly noun: string } {
		const kind = this.of(run);
		return { ...kind.progress(run), noun: kind.resume.noun };
	}

	/** Where the stored run `runId` of `kind` opens (a hash route). @throws Error for an unknown kind. */
	openRoute(kind: string, runId: number): string {
		const known = this.#byName.get(kind);
		if (known === undefined) throw new Error(`Runs of kind "${kind}" are not known here.`);
		return known.openRoute(runId);
	}

	/**
	 * Reads a bundle of any registered kind (its envelope says which); failures say where and
	 * what. A sealed bundle's checked `resultsSha256` comes with it. The same as
	 * {@link openBundle}, the seal hashed here, then {@link readOpenedBundle}.
	 */
	readBundle(text: string): ReadAnyBundleResult<Kinds[number]> {
		const opened = this.openBundle(text);
		if (!opened.ok) return opened;
		const { seal } = opened;
		if (seal === undefined) return this.readOpenedBundle(opened, undefined);
		const verdict = sealVerdict(seal.claimed, sha256Hex(seal.canonical));
		return verdict.ok ? this.readOpenedBundle(opened, verdict) : verdict;
	}

	/**
	 * A bundle's first step of {@link readBundle}: parsed, its kind known, and its seal ready to
	 * hash where its kind's reader takes parsed JSON (so a thread with the platform's hash can
	 * hash it: then `sealVerdict`, then {@link readOpenedBundle}). A problem found here is the one
	 * readBundle reports.
	 */
	openBundle(text: string): OpenBundleResult<Kinds[number]> {
		const parsed = parseJsonText(text);
		if (!parsed.ok) return parsed;
		const envelope = readRunBundleEnvelope(
			parsed.json,
			this.kinds.map(({ bundle }) => bundle),
		);
		if (!envelope.ok) return envelope;
		const kind = this.#byName.get(envelope.kind);
		if (kind === undefined) {
			return {
				ok: false,
				pointer: '/kind',
				message: `a bundle of a kind of run this Benchtop does not know (${JSON.stringify(envelope.kind)}; it knows ${this.names.join(', ')}): update Benchtop`,
			};
		}
		const { json } = parsed;
		// A kind that reads text checks its own seal.
		if (kind.bundle.readJson === undefined) return { ok: true, kind, json, text };
		const toCheck = sealToCheck(json as object, kind.bundle);
		if (!toCheck.ok) return toCheck;
		return { ok: true, kind, json, text, ...(toCheck.seal ? { seal: toCheck.seal } : {}) };
	}

	/**
	 * The last step of {@link readBundle}: the opened bundle read by its kind's reader. `sealHolds`
	 * is sealVerdict's word on the opened bundle's seal, which must hold: a seal left unchecked
	 * reads nothing.
	 * @throws Error when the opened bundle has a seal that `sealHolds` does not vouch for
	 */
	readOpenedBundle(
		opened: OpenedBundle<Kinds[number]>,
		sealHolds: { readonly resultsSha256: string } | undefined,
	): ReadAnyBundleResult<Kinds[number]> {
		const { kind, json, text, seal } = opened;
		if (seal !== undefined && sealHolds?.resultsSha256 !== seal.claimed) {
			throw new Error('a bundle read before its seal was checked');
		}
		let read;
		if (kind.bundle.readJson === undefined) read = kind.bundle.read(text);
		else if (seal === undefined) read = kind.bundle.readJson(json);
		else {
			// The seal is checked: the kind's reader reads the bundle without it, not hashing again.
			const { resultsSha256: _checked, ...unsealed } = json as Record<string, unknown>;
			read = kind.bundle.readJson(unsealed);
			if (read.ok) read = { ...read, resultsSha256: seal.claimed };
		}
		return (read.ok ? { ...read, kind: kind.kind } : read) as ReadAnyBundleResult<Kinds[number]>;
	}

	/**
	 * The fingerprint of a bundle of `kind`: the `resultsSha256` it is sealed with (SHA-256 of the
	 * canonical JSON of its results).
	 */
	fingerprint(name: string, bundle: unknown): string {
		const kind = this.#byName.get(name);
		if (kind === undefined) throw new Error(`Runs of kind "${name}" are not known here.`);
		return resultsSha256Of(kind.bundle, JSON.parse(kind.bundle.write(bundle)));
	}

	/** Opens a link of any registered kind (a URL, `#hash` or fragment; its route says which). */
	decodeShareLink(input: string): DecodeAnyLinkResult {
		const fragment = shareFragmentOf(input);
		const facet = shareRouteOf(fragment, this.shareFacets);
		if (facet === null) {
			return {
				ok: false,
				error: new ShareLinkError('not-a-share-link', 'This is not a Benchtop share link.'),
			};
		}
		try {
			const found = this.shareFacets.find(({ route }) => route === facet.route);
			if (found === undefined) throw new Error('unreachable');
			return {
				ok: true,
				kind: found.kind,
				payload: found.decode(fragment.slice(found.route.length)),
			};
		} catch (error) {
			return { ok: false, error: error instanceof Error ? error : new Error(String(error)) };
		}
	}
}
