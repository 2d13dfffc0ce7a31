/**
 * The suites of a battery before it runs, and the batteries already stored: a suite's text read
 * into a listed entry (parsed in compatible mode, fingerprinted, counted, or its first problem
 * located), one entry per suite text (SHA-256), the 500-suite cap, the order added files run in,
 * the totals picked, and stored suite runs grouped into batteries. Pure.
 */
import { sha256Hex } from '../../hash/sha256';
import type { SurprisalConvention } from '../../model/model-spec';
import type { RunModelSpec, RunStatus } from '../../run/run-types';
import type { SuiteRun } from '../run/suite-run';
import { formatCount } from '../../text/format-count';
import { parseSuite } from '../suite/parse-suite';
import type { Diagnostic, Suite } from '../suite/types';

/** The most suites one battery holds (Hu et al. 2020 ran 34; a folder of thousands stops here). */
export const MAX_BATTERY_SUITES = 500;

/** The most bytes one add of files reads (files and unzipped entries together): 100 MB. */
export const MAX_BATTERY_ADD_BYTES = 100_000_000;

/** Where a listed suite comes from: bundled with the app, this browser's library, or added now. */
export type BatterySource = 'bundled' | 'library' | 'added';

/** A suite that parsed: it can be picked. `key` is the SHA-256 of its text. */
export interface ReadableBatteryEntry {
	readonly ok: true;
	readonly key: string;
	readonly source: BatterySource;
	/** File name, folder path, zip entry or bundled file: shown as text, never as markup. */
	readonly sourceName: string;
	readonly text: string;
	readonly suite: Suite;
	readonly itemCount: number;
	/** Sentences to score: one per item and condition. */
	readonly sentenceCount: number;
	readonly warningCount: number;
}

/** A file that could not be read or parsed: listed with its problem, never picked. */
export interface BrokenBatteryEntry {
	readonly ok: false;
	readonly key: string;
	readonly source: BatterySource;
	readonly sourceName: string;
	/** What is wrong, in words (the first error; how many more follow). */
	readonly problem: string;
	/** `line 2, column 23`, a JSON pointer, or null where the whole file is the problem. */
	readonly location: string | null;
}

export type BatteryEntry = ReadableBatteryEntry | BrokenBatteryEntry;

/** A broken entry for `sourceName` (unreadable, too large, not UTF-8, a bad zip). */
export function brokenBatteryEntry(
	sourceName: string,
	source: BatterySource,
	problem: string,
	location: string | null = null,
): BrokenBatteryEntry {
	return {
		ok: false,
		key: `broken:${source}:${sourceName}`,
		source,
		sourceName,
		problem,
		location,
	};
}

function locationOf(diagnostic: Diagnostic): string | null {
	if (diagnostic.line !== undefined) {
		return diagnostic.column === undefined
			? `line ${diagnostic.line}`
			: `line ${diagnostic.line}, column ${diagnostic.column}`;
	}
	return diagnostic.pointer === '' ? null : diagnostic.pointer;
}

/** Suite text as a listed entry: parsed as the Run page parses it (legacy forms accepted). */
export function readBatteryEntry(
	text: string,
	sourceName: string,
	source: BatterySource,
): BatteryEntry {
	const result = parseSuite(text, { mode: 'compatible' });
	if (!result.ok) {
		const errors = result.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
		const first = errors[0];
		if (!first) return brokenBatteryEntry(sourceName, source, 'the suite cannot be read');
		const more = errors.length > 1 ? ` (and ${errors.length - 1} more errors)` : '';
		return brokenBatteryEntry(sourceName, source, `${first.message}${more}`, locationOf(first));
	}
	const { suite } = result;
	return {
		ok: true,
		key: sha256Hex(text),
		source,
		sourceName,
		text,
		suite,
		itemCount: suite.items.length,
		sentenceCount: suite.items.reduce((sum, item) => sum + item.conditions.length, 0),
		warningCount: result.diagnostics.length,
	};
}

/**
 * What an added file is to a battery: a suite (`.json`, or minimal pairs `.jsonl`/`.csv`/`.tsv`,
 * converted as on the Run page), a zip of suites, or neither (skipped: a folder's README). `name`
 * is the file's path in its folder or zip.
 */
export function batteryFileKind(name: string): 'suite' | 'zip' | null {
	// Hidden files and macOS resource forks (`._x.json`, `__MACOSX/`) are not suites.
	if (name.split('/').some((part) => part.startsWith('.') || part === '__MACOSX')) return null;
	if (/\.zip$/iu.test(name)) return 'zip';
	return /\.(json|jsonl|csv|tsv)$/iu.test(name) ? 'suite' : null;
}

const byPath = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Added files in path order (`suite-2` before `suite-10`): a folder's entries come unordered. */
export function orderBySourceName<T extends { readonly sourceName: string }>(
	entries: readonly T[],
): T[] {
	return [...entries].sort((a, b) => byPath.compare(a.sourceName, b.sourceName));
}

/** `incoming` entries left out of the list, and why. */
export interface MergedBatteryEntries {
	readonly entries: readonly BatteryEntry[];
	/**
	 * Readable entries whose text is already listed: `sourceName` is the same suite as `sameAs`,
	 * the listed entry of `key` (the one to pick when the user added the file on purpose).
	 */
	readonly duplicates: readonly {
		readonly sourceName: string;
		readonly sameAs: string;
		readonly key: string;
	}[];
	/** Entries not listed because the list holds `cap` already. */
	readonly overCap: number;
}

/**
 * `existing` with `incoming` added: one entry per suite text (the first listed stays), an added
 * file of a path already added replaces that entry (a fixed file dropped again), and at most
 * `cap` entries in all.
 */
export function mergeBatteryEntries(
	existing: readonly BatteryEntry[],
	incoming: readonly BatteryEntry[],
	cap = MAX_BATTERY_SUITES,
): MergedBatteryEntries {
	const replaced = new Set(
		incoming.filter((entry) => entry.source === 'added').map((entry) => entry.sourceName),
	);
	const entries = existing.filter(
		(entry) => entry.source !== 'added' || !replaced.has(entry.sourceName),
	);
	const byKey = new Map(entries.map((entry) => [entry.key, entry]));
	const duplicates: { sourceName: string; sameAs: string; key: string }[] = [];
	let overCap = 0;
	for (const entry of incoming) {
		const listed = byKey.get(entry.key);
		if (listed) {
			if (entry.ok) {
				duplicates.push({ sourceName: entry.sourceName, sameAs: nameOf(listed), key: listed.key });
			}
			continue;
		}
		if (entries.length >= cap) {
			overCap += 1;
			continue;
		}
		entries.push(entry);
		byKey.set(entry.key, entry);
	}
	return { entries, duplicates, overCap };
}

/** What an add of files left out, for the user; null when every file was listed. */
export function leftOutNotice(leftOut: {
	readonly duplicates: MergedBatteryEntries['duplicates'];
	/** Files that are not suites or zips. */
	readonly skipped: number;
	/** Files not read: over the suite cap or the bytes one add reads. */
	readonly notRead: number;
}): string | null {
	const { duplicates, skipped, notRead } = leftOut;
	const parts = duplicates
		.slice(0, 3)
		.map(
			(duplicate) =>
				`${duplicate.sourceName} is the same suite as ${duplicate.sameAs}: listed once, and picked.`,
		);
	if (duplicates.length > 3) {
		parts.push(
			`${formatCount(duplicates.length - 3, 'more file')} repeat suites already listed (picked).`,
		);
	}
	if (skipped > 0) {
		parts.push(`${formatCount(skipped, 'file')} skipped: not .json, .jsonl, .csv, .tsv or .zip.`);
	}
	if (notRead > 0) {
		parts.push(
			`${formatCount(notRead, 'file')} not read: a battery lists at most ${MAX_BATTERY_SUITES} suites, and one add reads at most ${MAX_BATTERY_ADD_BYTES / 1e6} MB.`,
		);
	}
	return parts.length > 0 ? parts.join(' ') : null;
}

/** The name a listed entry is shown by: the suite's `meta.name`, or its file. */
export function nameOf(entry: BatteryEntry): string {
	return entry.ok && entry.suite.meta.name !== '' ? entry.suite.meta.name : entry.sourceName;
}

/** The keys of every readable entry, in list order, at most `cap`. */
export function readableKeys(entries: readonly BatteryEntry[], cap = MAX_BATTERY_SUITES): string[] {
	return entries
		.filter((entry) => entry.ok)
		.slice(0, cap)
		.map((entry) => entry.key);
}

/** The picked suites in list order (broken and unknown keys are never picked). */
export function pickedEntries(
	entries: readonly BatteryEntry[],
	picked: ReadonlySet<string>,
): ReadableBatteryEntry[] {
	return entries.filter(
		(entry): entry is ReadableBatteryEntry => entry.ok && picked.has(entry.key),
	);
}

export interface BatteryTotals {
	readonly suites: number;
	readonly items: number;
	readonly sentences: number;
}

export function batteryTotals(entries: readonly ReadableBatteryEntry[]): BatteryTotals {
	return {
		suites: entries.length,
		items: entries.reduce((sum, entry) => sum + entry.itemCount, 0),
		sentences: entries.reduce((sum, entry) => sum + entry.sentenceCount, 0),
	};
}

/**
 * How a stored battery stands: `running` (scoring, or the tab closed while it was), `done` (every
 * suite's run done), `failed` or `cancelled` (resumable), `incomplete` (suite runs are missing).
 */
export type StoredBatteryStatus = RunStatus | 'incomplete';

/** A battery as stored: the suite runs that share its id. */
export interface StoredBattery {
	readonly id: string;
	readonly model: RunModelSpec;
	readonly convention: SurprisalConvention;
	/** Suites the battery was started with. */
	readonly size: number;
	/** Its suite runs still stored, in the battery's suite order. */
	readonly runs: readonly SuiteRun[];
	readonly suitesDone: number;
	readonly itemsDone: number;
	readonly itemsTotal: number;
	readonly status: StoredBatteryStatus;
	/** When its first run was created (ms since the epoch). */
	readonly createdAt: number;
}

function batteryStatus(runs: readonly SuiteRun[], size: number): StoredBatteryStatus {
	if (runs.some((run) => run.status === 'running')) return 'running';
	if (runs.some((run) => run.status === 'failed')) return 'failed';
	if (runs.some((run) => run.status === 'cancelled')) return 'cancelled';
	return runs.length < size ? 'incomplete' : 'done';
}

/** Suite runs grouped by battery id, newest battery first; runs of no battery are left out. */
export function groupBatteries(runs: readonly SuiteRun[]): StoredBattery[] {
	const groups = new Map<string, SuiteRun[]>();
	for (const run of runs) {
		if (!run.battery) continue;
		const group = groups.get(run.battery.id);
		if (group) group.push(run);
		else groups.set(run.battery.id, [run]);
	}
	const batteries: StoredBattery[] = [];
	for (const [id, group] of groups) {
		const ordered = [...group].sort((a, b) => (a.battery?.index ?? 0) - (b.battery?.index ?? 0));
		const first = ordered[0]!;
		const size = Math.max(ordered.length, ...ordered.map((run) => run.battery?.size ?? 0));
		batteries.push({
			id,
			model: first.model,
			convention: first.convention,
			size,
			runs: ordered,
			suitesDone: ordered.filter((run) => run.status === 'done').length,
			itemsDone: ordered.reduce((sum, run) => sum + run.itemsDone, 0),
			itemsTotal: ordered.reduce((sum, run) => sum + run.itemCount, 0),
			status: batteryStatus(ordered, size),
			createdAt: Math.min(...ordered.map((run) => run.createdAt)),
		});
	}
	return batteries.sort((a, b) => b.createdAt - a.createdAt);
}
