/**
 * Copies text to the clipboard. The one place the UI writes the clipboard; a refusal (no
 * permission, an insecure page) is an answer, not an error, so callers can say "copy it by hand".
 */

/** Copies `text`; false when the browser refuses or has no clipboard. */
export async function copyText(text: string): Promise<boolean> {
	try {
		if (typeof navigator === 'undefined' || !navigator.clipboard) return false;
		await navigator.clipboard.writeText(text);
		return true;
	} catch {
		return false;
	}
}
