/**
 * Where suite text comes from in the browser: the bundled library (built into the app, offline),
 * a dropped or picked file (minimal pairs are converted to a suite), or a URL. Decodes strictly
 * (UTF-8) and refuses oversized input with a message for the user; never throws for bad input.
 * Parsing is the core's job.
 */
import bundledIndex from '../../../suites/index.json';
import { readCappedBody } from './capped-body';
import {
	convertMinimalPairs,
	detectMinimalPairFormat,
} from '../../core/syntaxgym/suite/minimal-pairs';

/** Largest suite accepted (bytes). The biggest published suites are under 1 MB. */
export const MAX_SUITE_BYTES = 10_000_000;

export type SuiteTextResult =
	{ readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string };

export interface BundledSuiteEntry {
	/** File name in `suites/`, e.g. `garden-path-npz.json`. */
	readonly file: string;
	readonly name: string;
	readonly description: string;
	readonly phenomenon: string;
	readonly format: string;
	readonly items: number;
	readonly conditions: number;
	readonly predictions: number;
}

// The suites are bundled as lazy chunks: listed at once, loaded on demand, cached by the browser.
const BUNDLED_LOADERS = import.meta.glob<string>(['/suites/*.json', '!/suites/index.json'], {
	query: '?raw',
	import: 'default',
});

interface IndexEntry {
	file?: unknown;
	name?: unknown;
	description?: unknown;
	phenomenon?: unknown;
	format?: unknown;
	items?: unknown;
	conditions?: unknown;
	predictions?: unknown;
}

function text(value: unknown, fallback = ''): string {
	return typeof value === 'string' ? value : fallback;
}

function count(value: unknown): number {
	return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** The bundled suites in index order; files not in `suites/index.json` come last by name. */
export function listBundledSuites(): BundledSuiteEntry[] {
	const files = Object.keys(BUNDLED_LOADERS).map((path) => path.replace('/suites/', ''));
	const indexEntries = ((bundledIndex as { suites?: unknown }).suites ?? []) as IndexEntry[];
	const entries: BundledSuiteEntry[] = [];
	for (const entry of Array.isArray(indexEntries) ? indexEntries : []) {
		const file = text(entry.file);
		if (!files.includes(file)) continue;
		entries.push({
			file,
			name: text(entry.name, file),
			description: text(entry.description),
			phenomenon: text(entry.phenomenon),
			format: text(entry.format, 'standard'),
			items: count(entry.items),
			conditions: count(entry.conditions),
			predictions: count(entry.predictions),
		});
	}
	for (const file of files.sort()) {
		if (entries.some((entry) => entry.file === file)) continue;
		entries.push({
			file,
			name: file,
			description: '',
			phenomenon: '',
			format: 'standard',
			items: 0,
			conditions: 0,
			predictions: 0,
		});
	}
	return entries;
}

/** The text of a bundled suite. */
export async function loadBundledSuiteText(file: string): Promise<SuiteTextResult> {
	const load = BUNDLED_LOADERS[`/suites/${file}`];
	if (!load) return { ok: false, message: `There is no bundled suite named ${file}.` };
	try {
		return { ok: true, text: await load() };
	} catch (error) {
		return {
			ok: false,
			message: `The bundled suite ${file} could not be loaded (${describe(error)}).`,
		};
	}
}

/** Decodes suite bytes as UTF-8 (a leading BOM is dropped); invalid bytes are an error. */
export function decodeSuiteBytes(bytes: Uint8Array, sourceName: string): SuiteTextResult {
	try {
		const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
		return { ok: true, text };
	} catch {
		return {
			ok: false,
			message: `${sourceName} is not UTF-8 text. Suites are JSON files saved as UTF-8; re-save it as UTF-8 in your editor.`,
		};
	}
}

function tooLarge(sourceName: string, bytes: number): SuiteTextResult {
	return {
		ok: false,
		message: `${sourceName} is ${(bytes / 1e6).toFixed(1)} MB; suites larger than ${MAX_SUITE_BYTES / 1e6} MB are not accepted. Is this the right file?`,
	};
}

/** Reads a dropped or picked file (size checked before reading); minimal pairs become a suite. */
export async function readSuiteFile(file: File): Promise<SuiteTextResult> {
	if (file.size > MAX_SUITE_BYTES) return tooLarge(file.name, file.size);
	try {
		const decoded = decodeSuiteBytes(new Uint8Array(await file.arrayBuffer()), file.name);
		return decoded.ok ? convertIfMinimalPairs(decoded.text, file.name) : decoded;
	} catch (error) {
		return { ok: false, message: `${file.name} could not be read (${describe(error)}).` };
	}
}

/**
 * A file of minimal pairs (BLiMP-style `.jsonl`, or a good,bad `.csv`/`.tsv`) as the suite it
 * converts to; any other text as it is. A file of pairs with an error gives the located message.
 */
export function convertIfMinimalPairs(text: string, fileName: string): SuiteTextResult {
	if (detectMinimalPairFormat(fileName, text) === null) return { ok: true, text };
	try {
		return { ok: true, text: convertMinimalPairs(text, fileName).suiteText };
	} catch (error) {
		return { ok: false, message: `${describe(error)} Fix that line and drop the file again.` };
	}
}

/** Longest wait for the next bytes of a fetched suite (ms); then the read stops with a message. */
export const SUITE_FETCH_IDLE_MS = 30_000;
/** Longest time for a whole suite fetch, headers and body (ms). */
export const SUITE_FETCH_DEADLINE_MS = 120_000;

export interface FetchSuiteOptions {
	readonly idleMs?: number;
	readonly deadlineMs?: number;
}

function megabytes(bytes: number): string {
	return `${(bytes / 1e6).toFixed(1)} MB`;
}

/**
 * Fetches a suite from a URL: one the user typed, or one a link names (`?suite=<url>`, a share
 * link's suite) once the user agreed to it (see {@link linkedSuiteRequest}). The page's
 * Content-Security-Policy lets `fetch` reach any http(s) host, because model endpoints are typed
 * in at run time and a static policy cannot name them; so the consent asked before a link's URL
 * is fetched is what keeps a link from making this tab send requests (README, "Threat model and
 * caps"). The server must also allow cross-origin reads (CORS). The body is read as a stream:
 * a Content-Length over {@link MAX_SUITE_BYTES} is refused before reading, and the read stops as
 * soon as the cap is passed, after {@link SUITE_FETCH_IDLE_MS} without a byte, or at
 * {@link SUITE_FETCH_DEADLINE_MS}; each with a message. Fetched once, without credentials.
 */
export async function fetchSuiteText(
	url: string,
	fetchImpl: typeof fetch = fetch,
	options: FetchSuiteOptions = {},
): Promise<SuiteTextResult> {
	let parsed: URL;
	try {
		parsed = new URL(url, globalThis.location?.href);
	} catch {
		return { ok: false, message: `"${url}" is not a URL.` };
	}
	if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
		return { ok: false, message: `Only http(s) URLs can be opened, not ${parsed.protocol}` };
	}
	const source = parsed.href;
	const idleMs = options.idleMs ?? SUITE_FETCH_IDLE_MS;
	const deadlineMs = options.deadlineMs ?? SUITE_FETCH_DEADLINE_MS;
	const deadline = Date.now() + deadlineMs;
	const controller = new AbortController();
	const timer = setTimeout(() => controller.abort(), deadlineMs);
	let response: Response;
	try {
		response = await fetchImpl(source, { credentials: 'omit', signal: controller.signal });
	} catch {
		clearTimeout(timer);
		if (controller.signal.aborted) return slowAnswer(source, deadlineMs, 0);
		return {
			ok: false,
			message: `Could not fetch ${source}. The server may be down, or it does not allow other sites to read the file (CORS); download the file and drop it here instead.`,
		};
	}
	try {
		if (!response.ok) {
			response.body?.cancel().catch(() => undefined);
			return {
				ok: false,
				message: `${source} answered ${response.status} ${response.statusText}.`,
			};
		}
		const declared = Number(response.headers.get('content-length') ?? 0);
		if (declared > MAX_SUITE_BYTES) {
			response.body?.cancel().catch(() => undefined);
			return tooLarge(source, declared);
		}
		const read = await readCappedBody(response, { maxBytes: MAX_SUITE_BYTES, idleMs, deadline });
		if (read.ok) return decodeSuiteBytes(read.bytes, source);
		switch (read.reason) {
			case 'too-large':
				return {
					ok: false,
					message: `${source} is larger than ${MAX_SUITE_BYTES / 1e6} MB; stopped reading at ${megabytes(read.bytesRead)}. Suites larger than ${MAX_SUITE_BYTES / 1e6} MB are not accepted.`,
				};
			case 'idle':
				return {
					ok: false,
					message: `${source} sent nothing for ${idleMs / 1000} s; stopped reading at ${megabytes(read.bytesRead)}. Try again later, or download the file and drop it here.`,
				};
			case 'deadline':
				return slowAnswer(source, deadlineMs, read.bytesRead);
			case 'error':
				return controller.signal.aborted
					? slowAnswer(source, deadlineMs, read.bytesRead)
					: { ok: false, message: `${source} could not be read (${describe(read.error)}).` };
		}
	} finally {
		clearTimeout(timer);
	}
}

function slowAnswer(source: string, deadlineMs: number, bytesRead: number): SuiteTextResult {
	return {
		ok: false,
		message: `${source} did not finish within ${deadlineMs / 1000} s; stopped reading at ${megabytes(bytesRead)}. Try again later, or download the file and drop it here.`,
	};
}

/** What to do with a `?suite=<url>` link: open it at once, or ask first (naming the host). */
export type LinkedSuiteRequest =
	| { readonly action: 'open'; readonly url: string }
	| { readonly action: 'ask'; readonly url: string; readonly host: string };

/**
 * A URL a link names is fetched only after the user agrees, unless it is on the page's own
 * origin (the app's own files: fetching them tells no other server anything and reaches nothing
 * the page could not load anyway). A URL that does not parse, or is not http(s), is handed on as
 * it is: fetchSuiteText refuses it with a message before any request.
 */
export function linkedSuiteRequest(raw: string, pageHref: string): LinkedSuiteRequest {
	let parsed: URL;
	try {
		parsed = new URL(raw, pageHref);
	} catch {
		return { action: 'open', url: raw };
	}
	if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
		return { action: 'open', url: raw };
	if (parsed.origin === new URL(pageHref).origin) return { action: 'open', url: parsed.href };
	return { action: 'ask', url: parsed.href, host: parsed.host };
}

/** The last path segment of a URL, for naming a suite loaded from it. */
export function fileNameOfUrl(url: string): string {
	try {
		const path = new URL(url, globalThis.location?.href).pathname;
		return decodeURIComponent(path.split('/').pop() || url);
	} catch {
		return url;
	}
}

function describe(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
