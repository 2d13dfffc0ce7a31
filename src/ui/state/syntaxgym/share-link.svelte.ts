/**
 * Share links of suite runs: builds the link of a stored run (suite, model, convention,
 * word-boundary option, app version, result fingerprint) for the share box, which copies and shows
 * it. Scoring and packing are the core's; this only reads storage.
 */
import { buildResultFingerprint } from '../../../core/syntaxgym/share/result-fingerprint';
import { encodeShareLink, formatShareUrl } from '../../../core/syntaxgym/share/share-link';
import { type ShareBoxOutcome, shareOutcomeOfError } from '../../io/share-box';
import { loadStoredRun } from '../../io/stored-run';

/**
 * Builds the share link of stored run `runId` for the page at `pageUrl`; its detail says how the
 * suite and the values went in (a long suite by its URL, only key regions' values).
 */
export async function buildSuiteShareLink(
	runId: number,
	pageUrl: string,
): Promise<ShareBoxOutcome> {
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
		if (!encoded.ok) return shareOutcomeOfError(encoded.error);
		const details = [
			...(encoded.suite === 'url' ? ['suite by URL'] : []),
			...(encoded.values === 'key-regions' ? ['key regions only'] : []),
		];
		return {
			ok: true,
			url: formatShareUrl(pageUrl, encoded.fragment),
			...(details.length > 0 ? { detail: details.join(', ') } : {}),
		};
	} catch (error) {
		return shareOutcomeOfError(error);
	}
}
