/**
 * Battery share links in the app: building a battery's link from its stored runs (bundled suites
 * found by their SHA-256), and opening one: its suites loaded and checked against their SHA-256
 * before anything starts, the battery run again with the link's model and convention (in a
 * session of its own: the app's saved settings are never changed), and each suite compared with
 * the link. Packing, checking and comparing are the core's (battery-share.ts).
 */
import { describeError } from '../../../core/messages/describe-error';
import { sha256Hex } from '../../../core/hash/sha256';
import type { SuiteRun } from '../../../core/syntaxgym/run/suite-run';
import {
	buildBatterySharePayload,
	compareBatterySuite,
	decodeBatteryShare,
	encodeBatteryShare,
	readBatterySuiteText,
	type BatteryShareSuite,
	type BatterySuiteComparison,
	type DecodeBatteryShareResult,
} from '../../../core/syntaxgym/share/battery-share';
import { formatShareUrl } from '../../../core/syntaxgym/share/share-link';
import type { Suite } from '../../../core/syntaxgym/suite/types';
import type { InferenceClientApi } from '../../../worker/protocol';
import { listBatteryRuns } from '../../../storage/syntaxgym/suite-runs-repository';
import { shareOutcomeOfError, type ShareBoxOutcome } from '../../io/share-box';
import { loadReproducedRun, loadStoredRun } from '../../io/stored-run';
import { listBundledSuites, loadBundledSuiteText } from '../../io/suite-sources';
import { SuiteRunSession, type ModelLoader, type SuiteRunInput } from './suite-run-session.svelte';
import { browserSpecOf } from './share-reproduction.svelte';

let bundledBySha: Promise<ReadonlyMap<string, string>> | null = null;

/** SHA-256 → file name of the bundled suites (loaded once: a few small files). */
function bundledFilesBySha(): Promise<ReadonlyMap<string, string>> {
	bundledBySha ??= Promise.all(
		listBundledSuites().map(async ({ file }) => {
			const loaded = await loadBundledSuiteText(file);
			return loaded.ok ? ([sha256Hex(loaded.text), file] as const) : null;
		}),
	).then((pairs) => new Map(pairs.filter((pair) => pair !== null)));
	return bundledBySha;
}

/** The share box's outcome for battery `batteryId`: its link on the page at `pageUrl`. */
export async function buildBatteryShareLink(
	batteryId: string,
	pageUrl: string,
): Promise<ShareBoxOutcome> {
	try {
		const runs = await listBatteryRuns(batteryId);
		const bundled = await bundledFilesBySha();
		const stored = await Promise.all(runs.map((run) => loadStoredRun(run.id)));
		const payload = buildBatterySharePayload(
			stored.map(({ run, suiteText, results }) => {
				const file = bundled.get(run.suiteSha256);
				return { run, suiteText, results, ...(file === undefined ? {} : { bundledFile: file }) };
			}),
		);
		const encoded = encodeBatteryShare(payload);
		if (!encoded.ok) return shareOutcomeOfError(encoded.error);
		const inline = payload.suites.filter((suite) => suite.source.kind === 'inline').length;
		const details = [
			`${payload.suites.length} suites`,
			...(inline > 0 ? [`${inline} inline`] : []),
			...(encoded.fingerprints ? [] : ['accuracies only']),
		];
		return {
			ok: true,
			url: formatShareUrl(pageUrl, encoded.fragment),
			detail: details.join(', '),
		};
	} catch (error) {
		return shareOutcomeOfError(error);
	}
}

/** One suite of an opened link: loaded and checked, or why it cannot be run. */
export interface OpenedBatterySuite {
	readonly shared: BatteryShareSuite;
	readonly suite: Suite | null;
	readonly problem: string | null;
}

export type BatteryReproductionStatus =
	'loading-suites' | 'ready' | 'refused' | 'running' | 'compared' | 'failed';

/** An opened battery link: its suites, and running it again on request. */
export class BatteryShareReproduction {
	readonly decoded: DecodeBatteryShareResult;
	readonly #appVersion: string;
	#suites = $state.raw<readonly OpenedBatterySuite[]>([]);
	#inputs: readonly SuiteRunInput[] = [];
	#status = $state<BatteryReproductionStatus>('loading-suites');
	#message = $state<string | null>(null);
	#session = $state.raw<SuiteRunSession | null>(null);
	#batteryId = $state<string | null>(null);
	#comparisons = $state.raw<readonly BatterySuiteComparison[]>([]);
	readonly #loaded: Promise<void>;

	constructor(fragment: string, appVersion: string) {
		this.#appVersion = appVersion;
		this.decoded = decodeBatteryShare(fragment, {
			bundledFiles: listBundledSuites().map((entry) => entry.file),
		});
		this.#loaded = this.#loadSuites();
	}

	get suites(): readonly OpenedBatterySuite[] {
		return this.#suites;
	}

	/** The first suite that cannot be run, in words: the battery is refused, nothing starts. */
	get problem(): string | null {
		return this.#suites.find((suite) => suite.problem !== null)?.problem ?? null;
	}

	get status(): BatteryReproductionStatus {
		return this.#status;
	}

	/** Every suite is loaded and matches the link, and no run of it is going on. */
	get canRun(): boolean {
		return this.#status === 'ready' || this.#status === 'compared' || this.#status === 'failed';
	}

	get message(): string | null {
		return this.#message;
	}

	/** The session of the new battery (progress), while and after it runs. */
	get session(): SuiteRunSession | null {
		return this.#session;
	}

	/** The new battery's id in this browser, once it has run. */
	get batteryId(): string | null {
		return this.#batteryId;
	}

	/** Per suite (the link's order), after the run. */
	get comparisons(): readonly BatterySuiteComparison[] {
		return this.#comparisons;
	}

	/**
	 * Runs the link's suites as one battery with its model, convention and word-boundary option,
	 * then compares each suite with the link. Nothing starts while a suite is missing or changed.
	 */
	async reproduce(
		client: InferenceClientApi,
		models: ModelLoader,
		onRunChanged?: (run: SuiteRun) => void,
	): Promise<void> {
		await this.#loaded;
		if (!this.decoded.ok || !this.canRun) return;
		const { payload } = this.decoded;
		this.#status = 'running';
		this.#message = null;
		this.#batteryId = null;
		this.#comparisons = [];
		const session = new SuiteRunSession({
			client,
			models,
			appVersion: this.#appVersion,
			...(onRunChanged ? { onRunChanged } : {}),
		});
		this.#session = session;
		try {
			const runs = await session.startBattery(
				this.#inputs,
				browserSpecOf(payload.model),
				payload.convention,
				payload.wordBoundaries ? { wordBoundaries: true } : {},
			);
			this.#batteryId = session.batteryId ?? runs?.[0]?.battery?.id ?? null;
			if (!runs || runs.length !== this.#inputs.length || runs.some((r) => r.status !== 'done')) {
				this.#status = 'failed';
				this.#message = session.message ?? 'The battery did not finish.';
				return;
			}
			const ordered = [...runs].sort((a, b) => (a.battery?.index ?? 0) - (b.battery?.index ?? 0));
			this.#comparisons = await Promise.all(
				ordered.map(async (run, index) =>
					compareBatterySuite(payload, index, await loadReproducedRun(run.id)),
				),
			);
			this.#status = 'compared';
		} catch (error) {
			this.#status = 'failed';
			this.#message = `The battery could not be compared: ${describeError(error)}`;
		}
	}

	/** Loads every suite (bundled from the app, inline from the link) and checks its SHA-256. */
	async #loadSuites(): Promise<void> {
		if (!this.decoded.ok) {
			this.#status = 'refused';
			return;
		}
		const opened = await Promise.all(this.decoded.payload.suites.map(openSuite));
		this.#suites = opened.map(({ suite }) => suite);
		const refused = opened.some(({ suite }) => suite.problem !== null);
		this.#inputs = opened.flatMap(({ input }) => (input ? [input] : []));
		this.#status = refused ? 'refused' : 'ready';
	}
}

async function openSuite(
	shared: BatteryShareSuite,
): Promise<{ suite: OpenedBatterySuite; input: SuiteRunInput | null }> {
	const { source } = shared;
	const loaded =
		source.kind === 'bundled'
			? await loadBundledSuiteText(source.file)
			: { ok: true as const, text: source.text };
	if (!loaded.ok) return { suite: { shared, suite: null, problem: loaded.message }, input: null };
	const read = readBatterySuiteText(shared, loaded.text);
	if (!read.ok) return { suite: { shared, suite: null, problem: read.message }, input: null };
	return {
		suite: { shared, suite: read.suite, problem: null },
		input: {
			suiteText: loaded.text,
			suite: read.suite,
			origin: source.kind === 'bundled' ? 'bundled' : 'import',
			sourceName: source.kind === 'bundled' ? source.file : 'battery share link',
		},
	};
}
