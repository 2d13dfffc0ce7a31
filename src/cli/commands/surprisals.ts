// Placeholder until the 'surprisals' command lands; see the issue that owns it.
import type { CliCommand } from '../cli-io';

export const surprisalsCommand: CliCommand = async (_args, io) => {
	io.stderr('benchtop surprisals: not implemented yet\n');
	return 1;
};
