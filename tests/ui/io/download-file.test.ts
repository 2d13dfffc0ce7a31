// The one download helper: a blob URL on a temporary link, clicked once with the file name,
// removed from the page and revoked afterwards.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { downloadBlob, downloadText } from '../../../src/ui/io/download-file';

afterEach(() => {
	vi.restoreAllMocks();
	vi.useRealTimers();
});

describe('downloadText', () => {
	it('clicks a link to a blob of the text with the file name, then revokes the URL', async () => {
		vi.useFakeTimers();
		const blobs: Blob[] = [];
		vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
			blobs.push(blob as Blob);
			return 'blob:test/1';
		});
		const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
		const clicked: { href: string; download: string; attached: boolean }[] = [];
		vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
			this: HTMLAnchorElement,
		) {
			clicked.push({ href: this.href, download: this.download, attached: this.isConnected });
		});
		downloadText('a,b\n1,2\n', 'samples.csv', 'text/csv');
		expect(clicked).toEqual([{ href: 'blob:test/1', download: 'samples.csv', attached: true }]);
		expect(document.querySelectorAll('a')).toHaveLength(0);
		expect(blobs[0]?.type).toBe('text/csv');
		expect(await blobs[0]?.text()).toBe('a,b\n1,2\n');
		expect(revoke).not.toHaveBeenCalled();
		vi.runAllTimers();
		expect(revoke).toHaveBeenCalledWith('blob:test/1');
	});

	it('downloads bytes as they are', async () => {
		const blobs: Blob[] = [];
		vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
			blobs.push(blob as Blob);
			return 'blob:test/2';
		});
		vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
		vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
		downloadBlob(new Blob([new Uint8Array([80, 75, 3, 4])], { type: 'application/zip' }), 'r.zip');
		expect([...new Uint8Array(await (blobs[0] as Blob).arrayBuffer())]).toEqual([80, 75, 3, 4]);
	});
});
