import { describe, expect, it } from 'vitest';
import { formatCliError } from '../../../src/cli/shared/format-cli-error';
import { CliInputError } from '../../../src/cli/shared/cli-io';
import { FormulaSyntaxError } from '../../../src/core/errors';
import { ReplayFileError } from '../../../src/core/model/replay-file';
import { EndpointAuthError, EndpointServerError } from '../../../src/providers/openai-client';
import { StorageQuotaError } from '../../../src/storage/shared/storage-errors';
import { BackendError, CancelledError } from '../../../src/worker/engine-errors';

describe('formatCliError', () => {
	it.each([
		[new CliInputError('a.json: cannot read file (no such file)'), 2, 'a.json: cannot read file'],
		[new FormulaSyntaxError('unexpected ")"', 7), 2, 'unexpected ")"'],
		[new ReplayFileError('a.jsonl:3: not valid JSON', 3), 2, 'a.jsonl:3'],
		[new EndpointAuthError('401 from http://h/v1', 'unauthorized', 401), 1, '401 from'],
		[new EndpointServerError('503 from http://h/v1', 'server', 503), 1, '503 from'],
		[new BackendError('session failed'), 1, 'session failed'],
		[new CancelledError('cancelled'), 1, 'cancelled'],
		[new StorageQuotaError(), 1, 'Browser storage is full'],
		[new TypeError('boom'), 1, 'unexpected error: boom'],
		['plain string', 1, 'unexpected error: plain string'],
	])('%s → exit %i', (error, exitCode, messageStart) => {
		const formatted = formatCliError(error);
		expect(formatted.exitCode).toBe(exitCode);
		expect(formatted.message.startsWith(messageStart)).toBe(true);
		expect(formatted.message).not.toMatch(/\n\s+at /);
	});
});
