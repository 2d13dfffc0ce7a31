// Placeholder until the 'evaluate' command lands; see the issue that owns it.
import type { CliCommand } from '../cli-io';

export const evaluateCommand: CliCommand = async (_args, io) => {
	io.stderr('benchtop evaluate: not implemented yet\n');
	return 1;
};
