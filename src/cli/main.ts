/**
 * `npm run cli -- <command> ...`: the headless Benchtop, over the same core as the app.
 * Bad input gives one clear message on stderr and exit code 2, never a stack trace.
 */
import { readFile } from 'node:fs/promises';
import { CliInputError, EXIT_BAD_INPUT, type CliCommand, type CliIo } from './shared/cli-io';
import { reportCommandError } from './shared/format-cli-error';

const COMMANDS: Record<string, { summary: string; load: () => Promise<CliCommand> }> = {
	validate: {
		summary:
			'validate <suite.json>... [--strict] [--chained-comparisons error|first-only]: check suites, list warnings or located errors',
		load: async () => (await import('./commands/validate')).validateCommand,
	},
	regions: {
		summary:
			'regions <suite.json> --surprisals <lm-zoo.tsv> [--spec <lm-zoo spec.json>]: region metric table (TSV)',
		load: async () => (await import('./commands/regions')).regionsCommand,
	},
	evaluate: {
		summary:
			'evaluate <suite.json> (--surprisals <lm-zoo.tsv> | --regions <regions.tsv>): prediction results (TSV)',
		load: async () => (await import('./commands/evaluate')).evaluateCommand,
	},
	surprisals: {
		summary:
			'surprisals <sentences.txt> [--words [--bow]] [--model ...] [--convention ...]: lm-zoo surprisal TSV (per word with --words; beginning-of-word corrected with --bow)',
		load: async () => (await import('./commands/surprisals')).surprisalsCommand,
	},
	stimuli: {
		summary:
			'stimuli <stimuli.csv|.tsv> (--text C [--by G] | --word C --by G [--word-n O] | --context C --target T) [--punctuation ...] [--ignore-regex ...] [--model ...]: per-word surprisal table of experiment stimuli (CSV/TSV, every input column kept)',
		load: async () => (await import('./commands/stimuli')).stimuliCommand,
	},
	'import-pairs': {
		summary:
			'import-pairs <pairs.jsonl|.csv|.tsv> [--name <suite name>]: minimal pairs (BLiMP JSONL or good,bad table) as a suite (JSON)',
		load: async () => (await import('./commands/import-pairs')).importPairsCommand,
	},
	run: {
		summary: 'run <suite.json>... [--model ...] [--convention ...]: score suites with a model',
		load: async () => (await import('./commands/run')).runCommand,
	},
	generate: {
		summary:
			'generate [--model M] [--max-tokens N] [--temperature T] "prompt": print a completion (local, openai/<m>, replay:<file>)',
		load: async () => (await import('./commands/generate')).generateCommand,
	},
	serve: {
		summary:
			'serve [--model M] [--host 127.0.0.1] [--port 8000] [--allowed-origins ...] [--api-key-file F]: OpenAI-compatible server over a local model',
		load: async () => (await import('./commands/serve')).serveCommand,
	},
	oaieval: {
		summary:
			'oaieval <model>[,<grader>] <eval> [--registry_path <dir>] [--record_path log.jsonl] [--max_samples N] [--seed N]: run an OpenAI Evals eval',
		load: async () => (await import('./commands/oaieval')).oaievalCommand,
	},
	ltm: {
		summary:
			'ltm run <definitions folder | .zip | ltm-suite.json> --agent <model> [--judge <model>] [--memory-span N] [--isolated] [--out <dir>]: long-term-memory tests (GoodAI LTM)\n' +
			'  ltm generate <prompt.json> --generator <model> --out <definitions folder> [--dataset "<Dataset Name>"] [--examples N]: write test definitions with a model',
		load: async () => (await import('./commands/ltm')).ltmCommand,
	},
};

const io: CliIo = {
	stdout: (text) => process.stdout.write(text),
	stderr: (text) => process.stderr.write(text),
	readText: async (path) => {
		try {
			return await readFile(path, 'utf8');
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : code;
			throw new CliInputError(`${path}: cannot read file (${why ?? 'unknown error'})`);
		}
	},
};

function usage(): string {
	const lines = Object.entries(COMMANDS).map(([, c]) => `  ${c.summary}`);
	return `usage: benchtop <command> [options]   (or: npm run cli -- <command> [options])\n\ncommands:\n${lines.join('\n')}\n`;
}

async function main(argv: readonly string[]): Promise<number> {
	const [name, ...rest] = argv;
	if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
		io.stdout(usage());
		return name === undefined ? EXIT_BAD_INPUT : 0;
	}
	const command = COMMANDS[name];
	if (!command) {
		io.stderr(`benchtop: unknown command '${name}'\n\n${usage()}`);
		return EXIT_BAD_INPUT;
	}
	try {
		return await (
			await command.load()
		)(rest, io);
	} catch (error) {
		return reportCommandError(error, `benchtop ${name}`, io);
	}
}

process.exitCode = await main(process.argv.slice(2));
