// The one clipboard helper: true when the text was written, false (never a throw) when the
// browser refuses or has no clipboard.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { copyText } from '../../../src/ui/io/copy-text';

afterEach(() => {
	vi.unstubAllGlobals();
});

function stubClipboard(writeText: (text: string) => Promise<void>): void {
	vi.stubGlobal('navigator', { clipboard: { writeText } });
}

describe('copyText', () => {
	it('writes the text and says so', async () => {
		const written: string[] = [];
		stubClipboard(async (text) => void written.push(text));
		expect(await copyText('https://example.test/#/share/1/abc')).toBe(true);
		expect(written).toEqual(['https://example.test/#/share/1/abc']);
	});

	it('answers false when the browser refuses', async () => {
		stubClipboard(async () => {
			throw new DOMException('Write permission denied.', 'NotAllowedError');
		});
		expect(await copyText('x')).toBe(false);
	});

	it('answers false with no clipboard (an insecure page)', async () => {
		vi.stubGlobal('navigator', {});
		expect(await copyText('x')).toBe(false);
	});
});
