import { describe, expect, it } from 'vitest';
import { CliHelpRequest, CliInputError } from '../../../src/cli/shared/cli-io';
import { RUN_USAGE, runCommand } from '../../../src/cli/commands/run';
import { CONVENTION_HELP } from '../../../src/cli/commands/surprisals';
import { VALIDATE_USAGE, validateCommand } from '../../../src/cli/commands/validate';
import { parseCommandArgs } from '../../../src/cli/shared/parse-command-args';
import { runCliCommand } from '../run-cli-command';

const USAGE = 'usage: demo <file> [--flag]';
const OPTIONS = { flag: { type: 'boolean' }, model: { type: 'string' } } as const;

describe('parseCommandArgs', () => {
	it.each([[['--help']], [['-h']], [['a.json', '--model', 'x', '--help']]])(
		'%j asks for help, carrying the usage',
		(args) => {
			let thrown: unknown;
			try {
				parseCommandArgs(args, USAGE, OPTIONS);
			} catch (error) {
				thrown = error;
			}
			expect(thrown).toBeInstanceOf(CliHelpRequest);
			expect((thrown as CliHelpRequest).usage).toBe(USAGE);
		},
	);

	it('takes --help after -- as a positional', () => {
		expect(parseCommandArgs(['--', '--help'], USAGE, OPTIONS).positionals).toEqual(['--help']);
	});

	it('names an unknown option and adds the usage', () => {
		expect(() => parseCommandArgs(['--nope'], USAGE, OPTIONS)).toThrow(CliInputError);
		expect(() => parseCommandArgs(['--nope'], USAGE, OPTIONS)).toThrow(/--nope[\s\S]*usage: demo/);
	});

	it('reads options and positionals', () => {
		expect(parseCommandArgs(['a.json', '--model', 'm', '--flag'], USAGE, OPTIONS)).toEqual({
			positionals: ['a.json'],
			values: { model: 'm', flag: true },
		});
	});
});

describe('command --help', () => {
	it.each([
		['run', runCommand, `${RUN_USAGE}\n${CONVENTION_HELP}`],
		['validate', validateCommand, VALIDATE_USAGE],
	] as const)('%s --help prints its usage on stdout and exits 0', async (_name, command, usage) => {
		const run = await runCliCommand(command, ['--help'], {});
		expect(run).toEqual({ exitCode: 0, stdout: `${usage}\n`, stderr: '' });
	});

	it('run --help says what each convention does for Llama-3, Qwen and GPT-2, and the default', () => {
		expect(CONVENTION_HELP).toMatch(/reference .*GPT-2 \(and Qwen\): nothing/s);
		expect(CONVENTION_HELP).toMatch(/Llama, Llama-3 .*that BOS is kept/s);
		expect(CONVENTION_HELP).toMatch(/\(Qwen\), config\.json's bos_token_id/s);
		expect(CONVENTION_HELP).toMatch(/default +the model's own, by the app's rule/);
	});
});
