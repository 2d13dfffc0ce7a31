// Cells that a spreadsheet would evaluate as formulas, each with the CSV field every export must
// write for it (a `'` in front, quoted), and numbers that must come out as they went in.

/** [cell as it came from outside, the CSV field written for it]. */
export const HOSTILE_CELLS: readonly (readonly [string, string])[] = [
	['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
	["+cmd|' /C calc'!A0", `"'+cmd|' /C calc'!A0"`],
	['@SUM(1)', `"'@SUM(1)"`],
	['-2+3', `"'-2+3"`],
	['\t=1', `"'\t=1"`],
	['\r=1', `"'\r=1"`],
];

/** Numbers as the writers print them: written unchanged, unquoted. */
export const NUMBER_CELLS: readonly string[] = [
	'-3.5',
	'-inf',
	'inf',
	'nan',
	'1e-05',
	'-0.0',
	'+1',
];
