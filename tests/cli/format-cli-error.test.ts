import { describe, expect, it } from 'vitest';
import { formatCliError } from '../../src/cli/format-cli-error';
import { CliInputError } from '../../src/cli/cli-io';
import { FormulaSyntaxError } from '../../src/core/errors';

describe('formatCliError', () => {
	it.each([
		[new CliInputError('a.json: cannot read file (no such file)'), 2, 'a.json: cannot read file'],
		[new FormulaSyntaxError('unexpected ")"', 7), 2, 'unexpected ")"'],
		[new TypeError('boom'), 1, 'unexpected error: boom'],
		['plain string', 1, 'unexpected error: plain string'],
	])('%s → exit %i', (error, exitCode, messageStart) => {
		const formatted = formatCliError(error);
		expect(formatted.exitCode).toBe(exitCode);
		expect(formatted.message.startsWith(messageStart)).toBe(true);
		expect(formatted.message).not.toMatch(/\n\s+at /);
	});
});
