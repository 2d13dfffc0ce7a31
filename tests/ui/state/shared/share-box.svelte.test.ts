// The share box's state, whatever the kind of run: a built link is copied and kept; a refusal
// (too large, or any other failure, thrown or answered) is said, with no link; a browser that
// refuses the clipboard leaves the link to copy by hand; a new build clears the last answer.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { shareLinkTooLargeError } from '../../../../src/core/share/share-codec';
import type { ShareBoxOutcome } from '../../../../src/ui/io/share-box';
import { ShareBoxState } from '../../../../src/ui/state/shared/share-box.svelte';

const URL_TEXT = 'https://example.org/#/evals/share/2/abc';

afterEach(() => {
	vi.unstubAllGlobals();
});

function stubClipboard(writeText: (text: string) => Promise<void>): void {
	vi.stubGlobal('navigator', { clipboard: { writeText } });
}

describe('ShareBoxState', () => {
	it('copies a built link and keeps it with its detail', async () => {
		const written: string[] = [];
		stubClipboard(async (text) => void written.push(text));
		const box = new ShareBoxState();
		await box.share(async () => ({ ok: true, url: URL_TEXT, detail: 'key regions only' }));
		expect(box.status).toBe('ready');
		expect(box.link).toEqual({ url: URL_TEXT, detail: 'key regions only' });
		expect(box.copied).toBe(true);
		expect(box.message).toBeNull();
		expect(written).toEqual([URL_TEXT]);
	});

	it('shows the link to copy by hand when the browser refuses the clipboard', async () => {
		stubClipboard(async () => {
			throw new DOMException('Write permission denied.', 'NotAllowedError');
		});
		const box = new ShareBoxState();
		await box.share(async () => ({ ok: true, url: URL_TEXT }));
		expect(box.status).toBe('ready');
		expect(box.link?.url).toBe(URL_TEXT);
		expect(box.copied).toBe(false);
		expect(box.message).toMatch(/copy it by hand/);
	});

	it('says a too-large refusal with no link', async () => {
		const box = new ShareBoxState();
		const message = shareLinkTooLargeError(50_000).message;
		await box.share(async () => ({ ok: false, tooLarge: true, message }));
		expect(box.status).toBe('too-large');
		expect(box.link).toBeNull();
		expect(box.message).toBe(message);
	});

	it('says a thrown too-large error as too large, and any other throw as a failure', async () => {
		const box = new ShareBoxState();
		await box.share(async () => {
			throw shareLinkTooLargeError(50_000);
		});
		expect(box.status).toBe('too-large');
		await box.share(async () => {
			throw new Error('the database is closed');
		});
		expect(box.status).toBe('failed');
		expect(box.message).toMatch(/could not be made: .*database is closed/);
		expect(box.link).toBeNull();
	});

	it('clears the last link while a new one is built, and builds one at a time', async () => {
		stubClipboard(async () => undefined);
		const box = new ShareBoxState();
		await box.share(async () => ({ ok: true, url: URL_TEXT }));
		let finish: (outcome: ShareBoxOutcome) => void = () => undefined;
		let builds = 0;
		const build = () => {
			builds += 1;
			return new Promise<ShareBoxOutcome>((resolve) => (finish = resolve));
		};
		const first = box.share(build);
		expect(box.status).toBe('building');
		expect(box.link).toBeNull();
		expect(box.copied).toBe(false);
		const second = box.share(build);
		finish({ ok: false, tooLarge: false, message: 'The run is gone.' });
		await Promise.all([first, second]);
		expect(builds).toBe(1);
		expect(box.status).toBe('failed');
		expect(box.message).toBe('The run is gone.');
	});
});
