/**
 * Text made safe to print on a terminal: control characters (C0 but line feed and tab, DEL, C1)
 * and the bidirectional controls that reorder what is shown are written as `\u001b`-style escapes,
 * so a binary or hostile file cannot ring the bell, recolour or rewrite the terminal's lines.
 */
const UNPRINTABLE =
	// eslint-disable-next-line no-control-regex -- control characters are what this finds
	/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** `text` with every unprintable character as `\uXXXX` (see the module comment). */
export function printable(text: string): string {
	return text.replace(
		UNPRINTABLE,
		(character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
	);
}
