/**
 * Saves bytes or text made in the page as a file the browser downloads (a blob URL on a
 * temporary link). The one place the UI creates object URLs for downloads; it builds no content.
 */

/** How long the blob URL outlives the click (the download starts from it asynchronously). */
const REVOKE_AFTER_MS = 1000;

/** Downloads `blob` as `fileName`. */
export function downloadBlob(blob: Blob, fileName: string): void {
	const url = URL.createObjectURL(blob);
	const link = document.createElement('a');
	link.href = url;
	link.download = fileName;
	document.body.append(link);
	link.click();
	link.remove();
	setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}

/** Downloads `text` as `fileName` of media type `mimeType` (UTF-8). */
export function downloadText(text: string, fileName: string, mimeType: string): void {
	downloadBlob(new Blob([text], { type: mimeType }), fileName);
}

/** A file made in the page: text (UTF-8) or bytes, with its name and media type. */
export type DownloadFile =
	| { readonly fileName: string; readonly mimeType: string; readonly text: string }
	| {
			readonly fileName: string;
			readonly mimeType: string;
			readonly bytes: Uint8Array<ArrayBuffer>;
	  };

/** Downloads `file`. */
export function downloadFile(file: DownloadFile): void {
	const content = 'text' in file ? file.text : file.bytes;
	downloadBlob(new Blob([content], { type: file.mimeType }), file.fileName);
}
