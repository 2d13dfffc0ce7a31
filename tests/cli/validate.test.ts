import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CliInputError, type CliIo } from '../../src/cli/shared/cli-io';
import { formatDiagnostic, validateCommand } from '../../src/cli/commands/validate';

const FIXTURES = new URL('../fixtures/suites/', import.meta.url);

function fixture(name: string): string {
	return readFileSync(new URL(name, FIXTURES), 'utf8');
}

/** A CliIo over an in-memory file table that records what the command prints. */
function fakeIo(files: Record<string, string>): CliIo & { out: string; err: string } {
	const io = {
		out: '',
		err: '',
		stdout: (text: string) => void (io.out += text),
		stderr: (text: string) => void (io.err += text),
		readText: async (path: string) => {
			const text = files[path];
			if (text === undefined) throw new CliInputError(`${path}: cannot read file (no such file)`);
			return text;
		},
	};
	return io;
}

async function run(args: string[], files: Record<string, string>) {
	const io = fakeIo(files);
	const exitCode = await validateCommand(args, io);
	return { exitCode, out: io.out, err: io.err, lines: io.out.split('\n').filter(Boolean) };
}

/** A one-item suite whose only prediction is `formula`. */
function suiteWithFormula(formula: string): string {
	const condition = (name: string, verb: string) => ({
		condition_name: name,
		regions: [
			{ region_number: 1, content: 'The dog' },
			{ region_number: 2, content: verb },
		],
	});
	return JSON.stringify({
		meta: { name: 'chained', metric: 'sum' },
		region_meta: { '1': 'subject', '2': 'verb' },
		predictions: [{ type: 'formula', formula }],
		items: [{ item_number: 1, conditions: [condition('a', 'barks'), condition('b', 'bark')] }],
	});
}

describe('validate command', () => {
	it("prints a binary file's bytes as escapes, never raw control characters", async () => {
		// What readFile(…, 'utf8') gives for a PNG header, an ANSI colour code and a bell.
		const binary = '\ufffdPNG\r\n\u001a\n\u0000\u0000\u0000\rIHDR\u001b[31mred\u0007';
		const result = await run(['picture.png'], { 'picture.png': binary });
		expect(result.exitCode).toBe(2);
		const controls = [...result.out].filter((c) => c !== '\n' && (c < ' ' || c === '\u007f'));
		expect(controls).toEqual([]);
		expect(result.out).toContain('\\u001a');
		expect(result.lines.at(-1)).toMatch(/^picture\.png: not a valid suite/);
	});

	it('accepts a good suite: exit 0, one summary line, nothing on stderr', async () => {
		const result = await run(['good.json', '--strict'], {
			'good.json': fixture('good-standard.json'),
		});
		expect(result.exitCode).toBe(0);
		expect(result.lines).toEqual([
			"good.json: valid suite 'tiny_agreement' (strict mode): 2 items, 4 sentences, 2 predictions; 0 warnings",
		]);
		expect(result.err).toBe('');
	});

	it('lists the warnings of a legacy suite in compatible mode and exits 0', async () => {
		const text = fixture('legacy-2020.json');
		const result = await run(['legacy.json'], { 'legacy.json': text });
		expect(result.exitCode).toBe(0);
		const warnings = result.lines.filter((line) => line.includes(': warning: '));
		expect(
			warnings.map((line) => line.replace(/^(legacy\.json:\d+:\d+): .*\[(.*)\]$/, '$1 $2')),
		).toEqual([
			'legacy.json:5:3 relation-prediction',
			'legacy.json:6:3 relation-prediction',
			'legacy.json:7:3 relation-prediction',
			'legacy.json:8:35 formula-brackets',
			'legacy.json:17:40 region-content-whitespace',
			'legacy.json:18:40 region-content-whitespace',
		]);
		// every warning names the fix in parentheses
		for (const line of warnings) expect(line).toMatch(/ \([^)]+.*\) \[[a-z-]+\]$/);
		expect(result.lines.at(-1)).toBe(
			"legacy.json: valid suite 'legacy_2020' (compatible mode): 1 item, 2 sentences, 4 predictions; 6 warnings",
		);
	});

	it('lists every located error in strict mode and exits 2', async () => {
		const result = await run(['legacy.json', '--strict'], {
			'legacy.json': fixture('legacy-2020.json'),
		});
		expect(result.exitCode).toBe(2);
		const errors = result.lines.filter((line) => / error: /.test(line));
		expect(errors).toHaveLength(7);
		for (const line of errors) expect(line).toMatch(/^legacy\.json:\d+:\d+: error: /);
		expect(result.lines.at(-1)).toBe(
			'legacy.json: not a valid suite (strict mode): 7 errors, 0 warnings',
		);
	});

	it('shows a formula problem under the formula, with a caret at its column', async () => {
		const result = await run(['broken.json'], { 'broken.json': fixture('broken-structure.json') });
		expect(result.exitCode).toBe(2);
		const at = result.lines.findIndex((line) => line.startsWith('broken.json:5:35: error: '));
		expect(at).toBeGreaterThanOrEqual(0);
		expect(result.lines[at]).toMatch(/nomatch/);
		expect(result.lines.slice(at + 1, at + 3)).toEqual([
			'    (2;%mismatch%) > (2;%nomatch%)',
			`    ${' '.repeat(17)}^`,
		]);
		expect(result.lines.at(-1)).toBe(
			'broken.json: not a valid suite (compatible mode): 10 errors, 0 warnings',
		);
	});

	it('lists JSON syntax errors with their positions', async () => {
		const result = await run(['syntax.json'], { 'syntax.json': fixture('broken-syntax.json') });
		expect(result.exitCode).toBe(2);
		expect(result.lines).toEqual([
			expect.stringMatching(
				/^syntax\.json:2:40: error: invalid JSON: trailing comma before '\}' \(/,
			),
			expect.stringMatching(/^syntax\.json:3:2: error: invalid JSON: comments are not allowed/),
			'syntax.json: not a valid suite (compatible mode): 2 errors, 0 warnings',
		]);
	});

	it('reports a file it cannot read in one message and exits 2', async () => {
		const result = await run(['missing.json'], {});
		expect(result.exitCode).toBe(2);
		expect(result.err).toBe('missing.json: cannot read file (no such file)\n');
		expect(result.out).toBe('');
	});

	it('validates several files and exits 2 if any is unusable', async () => {
		const result = await run(['good.json', 'missing.json', 'broken.json'], {
			'good.json': fixture('good-standard.json'),
			'broken.json': fixture('broken-structure.json'),
		});
		expect(result.exitCode).toBe(2);
		expect(
			result.lines.filter((line) => !line.includes(': error: ') && !line.startsWith('    ')),
		).toEqual([
			expect.stringMatching(/^good\.json: valid suite/),
			expect.stringMatching(/^broken\.json: not a valid suite/),
		]);
		expect(result.err).toMatch(/^missing\.json: cannot read file/);
	});

	it('rejects chained comparisons by default and keeps the first with --chained-comparisons first-only', async () => {
		const files = { 'chain.json': suiteWithFormula('(1;%a%) < (1;%b%) < (2;%a%)') };
		const rejected = await run(['chain.json'], files);
		expect(rejected.exitCode).toBe(2);
		expect(rejected.lines[0]).toMatch(/^chain\.json:1:\d+: error: .*\[formula-syntax\]$/);
		const accepted = await run(['chain.json', '--chained-comparisons', 'first-only'], files);
		expect(accepted.exitCode).toBe(0);
		expect(accepted.lines[0]).toMatch(/^chain\.json:1:\d+: warning: /);
		expect(accepted.lines.at(-1)).toMatch(/valid suite 'chained' .*; 1 warning$/);
	});

	it.each([
		[[], /expected a suite file/],
		[['a.json', '--bogus'], /bogus/],
		[['a.json', '--chained-comparisons', 'all'], /must be 'error' or 'first-only'/],
	])('rejects bad usage %j with the usage line', async (args, message) => {
		const attempt = run(args, { 'a.json': fixture('good-standard.json') });
		await expect(attempt).rejects.toThrow(CliInputError);
		await expect(attempt).rejects.toThrow(message);
		await expect(attempt).rejects.toThrow(/usage: validate <suite\.json>/);
	});

	it('never throws on damaged input: truncations and 600 random edits exit 2 or 0, with a summary', async () => {
		const text = fixture('legacy-2020.json');
		const damaged: string[] = [];
		for (let end = 0; end < text.length; end += 11) damaged.push(text.slice(0, end));
		let seed = 12345;
		const random = (n: number) => {
			seed = (seed * 1103515245 + 12345) % 2 ** 31;
			return seed % n;
		};
		const replacements = [
			'',
			'"',
			'{',
			'}',
			'[',
			']',
			',',
			':',
			'0',
			'-',
			'__proto__',
			'\\u0000',
			'null',
		];
		for (let k = 0; k < 600; k++) {
			const at = random(text.length);
			const replacement = replacements[random(replacements.length)] ?? '';
			damaged.push(text.slice(0, at) + replacement + text.slice(at + random(3)));
		}
		const exitCodes = new Set<number>();
		for (const suite of damaged) {
			const result = await run(['s.json'], { 's.json': suite });
			exitCodes.add(result.exitCode);
			expect(result.lines.at(-1)).toMatch(/^s\.json: (valid suite|not a valid suite)/);
		}
		expect([...exitCodes].sort()).toEqual([0, 2]);
	});
});

describe('formatDiagnostic', () => {
	it.each([
		[{ line: 3, column: 7 }, 's.json:3:7: warning: the thing is odd (make it even) [odd-thing]\n'],
		[
			{ pointer: '/items/0' },
			's.json: warning: the thing is odd at /items/0 (make it even) [odd-thing]\n',
		],
		[{ pointer: '' }, 's.json: warning: the thing is odd (make it even) [odd-thing]\n'],
	])('%j', (fields, expected) => {
		const diagnostic = {
			severity: 'warning' as const,
			code: 'odd-thing',
			message: 'the thing is odd',
			hint: 'make it even',
			pointer: '/meta',
			...fields,
		};
		expect(formatDiagnostic('s.json', diagnostic)).toBe(expected);
	});

	it('leaves out the caret line when the formula is not known', () => {
		const diagnostic = {
			severity: 'error' as const,
			code: 'formula-syntax',
			message: 'bad',
			hint: 'fix',
			pointer: '/predictions/0/formula',
			line: 1,
			column: 2,
			formulaColumn: 4,
		};
		expect(formatDiagnostic('s.json', diagnostic)).toBe(
			's.json:1:2: error: bad (fix) [formula-syntax]\n',
		);
		expect(formatDiagnostic('s.json', diagnostic, () => 'a  b')).toBe(
			's.json:1:2: error: bad (fix) [formula-syntax]\n    a  b\n       ^\n',
		);
	});
});
