/**
 * What a share box is given: each kind of run (suite, Evals, Memory, battery) builds its own link
 * and answers with a ShareBoxOutcome; the box copies it, shows it and offers the run bundle when
 * the run is too large for a link.
 */
import { ShareLinkError } from '../../core/errors';
import { describeError } from '../../core/messages/describe-error';

/** A built link (with how it was made, e.g. "suite by URL, key regions only"), or why there is none. */
export type ShareBoxOutcome =
	| { readonly ok: true; readonly url: string; readonly detail?: string }
	| { readonly ok: false; readonly tooLarge: boolean; readonly message: string };

/** The run bundle offered instead of a link. */
export interface ShareBundleFile {
	readonly text: string;
	readonly fileName: string;
	readonly mimeType: string;
}

/** The whole link of app route `hash` (`#/…`) on the page at `page`: what is copied. */
export function shareUrlOnPage(
	hash: string,
	page: Pick<Location, 'origin' | 'pathname'> = location,
): string {
	return `${page.origin}${page.pathname}${hash}`;
}

/** The outcome of app route `hash` made into a link; null: the run is not there to share. */
export function shareOutcomeOfHash(
	hash: string | null,
	page: Pick<Location, 'origin' | 'pathname'> = location,
): ShareBoxOutcome {
	return hash === null
		? {
				ok: false,
				tooLarge: false,
				message: 'This run cannot be shared: it is no longer stored, or it has not finished.',
			}
		: { ok: true, url: shareUrlOnPage(hash, page) };
}

/** The outcome of a link that could not be made: too large (the bundle is offered) or an error. */
export function shareOutcomeOfError(error: unknown): ShareBoxOutcome {
	if (error instanceof ShareLinkError && error.kind === 'too-large') {
		return { ok: false, tooLarge: true, message: error.message };
	}
	return {
		ok: false,
		tooLarge: false,
		message: `The share link could not be made: ${describeError(error)}`,
	};
}

/** The sentence under a built link; the count is of what is copied, the whole link. */
export function describeShareLink(
	url: string,
	copied: boolean,
	detail: string | undefined,
): string {
	const details = [`${url.length} characters`, ...(detail ? [detail] : [])].join(', ');
	return `${copied ? 'Copied' : 'Link ready'} (${details}).`;
}
