/**
 * Share links in the app: builds the link of a stored run (suite, model, convention, word-boundary
 * option, app version, result fingerprint) and copies it. Scoring and packing are the core's; this
 * only reads storage.
 */
import { describeError } from '../../core/messages/describe-error';
import { buildResultFingerprint } from '../../core/syntaxgym/share/result-fingerprint';
import {
	encodeShareLink,
	formatShareUrl,
	type SharedSuite,
} from '../../core/syntaxgym/share/share-link';
import { copyText } from '../copy-text';
import { loadStoredRun } from '../stored-run';

export type ShareLinkStatus = 'idle' | 'building' | 'ready' | 'too-large' | 'failed';

/** A built link: the whole URL and how its parts went in. */
export interface BuiltShareLink {
	readonly url: string;
	/** Characters of the fragment (after `#`). */
	readonly fragmentChars: number;
	readonly suite: SharedSuite['kind'];
	readonly values: 'all-regions' | 'key-regions';
}

/** The share button's state: build, then copy. */
export class ShareLinkBuilder {
	#status = $state<ShareLinkStatus>('idle');
	#link = $state.raw<BuiltShareLink | null>(null);
	#message = $state<string | null>(null);
	#copied = $state(false);

	get status(): ShareLinkStatus {
		return this.#status;
	}

	get link(): BuiltShareLink | null {
		return this.#link;
	}

	/** What went wrong (or why the run bundle is offered), for the user. */
	get message(): string | null {
		return this.#message;
	}

	get copied(): boolean {
		return this.#copied;
	}

	/** Builds the share link of stored run `runId` for the page at `pageUrl`. */
	async build(runId: number, pageUrl: string): Promise<BuiltShareLink | null> {
		this.#status = 'building';
		this.#message = null;
		this.#copied = false;
		this.#link = null;
		try {
			const { run, suiteText, results } = await loadStoredRun(runId);
			const encoded = encodeShareLink({
				appVersion: run.appVersion,
				suite: { kind: 'inline', text: suiteText },
				suiteSha256: run.suiteSha256,
				model: run.model,
				convention: run.convention,
				...(run.wordBoundaries ? { wordBoundaries: true } : {}),
				results: buildResultFingerprint(results),
			});
			if (!encoded.ok) {
				this.#status = encoded.error.kind === 'too-large' ? 'too-large' : 'failed';
				this.#message = encoded.error.message;
				return null;
			}
			const link: BuiltShareLink = {
				url: formatShareUrl(pageUrl, encoded.fragment),
				fragmentChars: encoded.fragment.length,
				suite: encoded.suite,
				values: encoded.values,
			};
			this.#link = link;
			this.#status = 'ready';
			return link;
		} catch (error) {
			this.#status = 'failed';
			this.#message = `The share link could not be made: ${describeError(error)}`;
			return null;
		}
	}

	/** Copies the built link to the clipboard; false (with a message) where that is refused. */
	async copy(): Promise<boolean> {
		const link = this.#link;
		if (!link) return false;
		if (await copyText(link.url)) {
			this.#copied = true;
			return true;
		}
		this.#message = 'The browser refused to copy: select the link and copy it by hand.';
		return false;
	}
}
