// The stderr line that says which surprisal convention a CLI run used and where it came from.
import { describe, expect, it } from 'vitest';
import { describeConventionChoice, type ModelRequest } from '../../src/cli/commands/surprisals';

const BUNDLED = {
	source: 'bundled',
	id: 'gpt2-en-small',
	dtype: 'fp32',
	backend: 'node-cpu',
} as const;
const HUB = {
	source: 'hub',
	id: 'Xenova/gpt2',
	revision: 'main',
	dtype: 'fp32',
	backend: 'node-cpu',
} as const;

describe('describeConventionChoice', () => {
	const cases: [string, ModelRequest, string][] = [
		[
			'default on a bundled model names its own default',
			{ spec: BUNDLED, convention: 'reference' },
			"convention: reference (the CLI default, as syntaxgym-core); gpt2-en-small's own default is bos (--convention bos)",
		],
		[
			'asked for bos on a bundled model',
			{ spec: BUNDLED, convention: 'bos', conventionFromOption: true },
			'convention: bos (--convention)',
		],
		[
			'asked for reference explicitly',
			{ spec: BUNDLED, convention: 'reference', conventionFromOption: true },
			"convention: reference (--convention); gpt2-en-small's own default is bos (--convention bos)",
		],
		[
			'hub model, default',
			{ spec: HUB, convention: 'reference' },
			'convention: reference (the CLI default, as syntaxgym-core)',
		],
	];
	it.each(cases)('%s', (_name, request, line) => {
		expect(describeConventionChoice(request)).toBe(line);
	});
});
