// Placeholder until the 'regions' command lands; see the issue that owns it.
import type { CliCommand } from '../cli-io';

export const regionsCommand: CliCommand = async (_args, io) => {
	io.stderr('benchtop regions: not implemented yet\n');
	return 1;
};
