// What every share box is given and says: the whole link of a route on this page, a refused link
// told apart from a broken one, and the sentence under a built link.
import { describe, expect, it } from 'vitest';
import { ShareLinkError } from '../../../src/core/errors';
import { shareLinkTooLargeError } from '../../../src/core/share/share-codec';
import {
	describeShareLink,
	shareOutcomeOfError,
	shareOutcomeOfHash,
	shareUrlOnPage,
} from '../../../src/ui/io/share-box';

const PAGE = { origin: 'https://example.org', pathname: '/bench/' };

describe('shareUrlOnPage', () => {
	it('puts the route after the page’s origin and path', () => {
		expect(shareUrlOnPage('#/evals/share/2/abc', PAGE)).toBe(
			'https://example.org/bench/#/evals/share/2/abc',
		);
	});
});

describe('shareOutcomeOfHash', () => {
	it('makes a route into the whole link', () => {
		expect(shareOutcomeOfHash('#/memory/share/2/xyz', PAGE)).toEqual({
			ok: true,
			url: 'https://example.org/bench/#/memory/share/2/xyz',
		});
	});

	it('says why there is no link when the run is not there (not too large: no bundle offered)', () => {
		const outcome = shareOutcomeOfHash(null, PAGE);
		expect(outcome.ok).toBe(false);
		expect(!outcome.ok && outcome.tooLarge).toBe(false);
		expect(!outcome.ok && outcome.message).toMatch(/cannot be shared/);
	});
});

describe('shareOutcomeOfError', () => {
	it('keeps the codec’s too-large message, which says to share the bundle', () => {
		const outcome = shareOutcomeOfError(shareLinkTooLargeError(40_000));
		expect(outcome).toEqual({
			ok: false,
			tooLarge: true,
			message: expect.stringMatching(/40,000 characters, more than the 32,768/),
		});
	});

	it('says any other failure as a failure, not as too large', () => {
		for (const error of [
			new ShareLinkError('not-a-share-link', 'This is not a share link.'),
			new Error('storage is closed'),
			'a thrown string',
		]) {
			const outcome = shareOutcomeOfError(error);
			expect(outcome.ok).toBe(false);
			expect(!outcome.ok && outcome.tooLarge).toBe(false);
			expect(!outcome.ok && outcome.message).toMatch(/^The share link could not be made: /);
		}
	});
});

describe('describeShareLink', () => {
	it('counts the characters of the whole link, what is copied', () => {
		const url = 'https://example.org/#/share/2/abcdef';
		expect(describeShareLink(url, true, undefined)).toBe(`Copied (${url.length} characters).`);
		expect(describeShareLink(url, false, undefined)).toBe(`Link ready (${url.length} characters).`);
	});

	it('adds how the link was made', () => {
		expect(describeShareLink('x'.repeat(12), true, 'key regions only')).toBe(
			'Copied (12 characters, key regions only).',
		);
	});
});
