/**
 * `serve`: an OpenAI-compatible HTTP server over a local model (the server is in ../serve/). This
 * reads the options and the API key (env, key file or flag), starts it and stops it on Ctrl-C.
 */
import * as v from 'valibot';
import type { ModelDtype } from '../../core/model/model-spec';
import { readApiKeyFile } from '../serve/api-key';
import {
	DEFAULT_MAX_QUEUE,
	DEFAULT_REQUEST_TIMEOUT_MS,
	startServer,
	type RunningServer,
	type ServeOptions,
} from '../serve/server';
import { CliInputError, type CliCommand, type CliIo } from '../shared/cli-io';
import { parseCommandArgs } from '../shared/parse-command-args';

/** The environment variable `serve` reads its API key from. */
export const SERVE_API_KEY_ENV = 'BENCHTOP_SERVE_API_KEY';

export const SERVE_USAGE =
	'usage: serve [--model <bundled name | folder | hub owner/name>] [--host 127.0.0.1] [--port 8000] ' +
	'[--allowed-origins <origin,origin | *>] [--api-key-file <file>] [--max-queue N] ' +
	'[--request-timeout <seconds>] [--dtype fp32|fp16|q8] [--threads <n>]\n' +
	'  --allowed-origins: web pages that may call the server besides loopback ones ' +
	'(http://127.0.0.1:*, http://localhost:*, http://[::1]:*); * allows any page\n' +
	`  API key: ${SERVE_API_KEY_ENV}=<key> or --api-key-file <file> (one line); ` +
	'--api-key <key> also works but shows in ps and shell history\n' +
	`  --max-queue: requests that may wait behind the running one (default ${DEFAULT_MAX_QUEUE}; ` +
	'past it: 503 with Retry-After)\n' +
	`  --request-timeout: seconds a request may take, waiting included (default ${DEFAULT_REQUEST_TIMEOUT_MS / 1000}; past it: 504)`;

/** `--allowed-origins`: comma-separated, or vLLM's JSON list (`'["http://a"]'`). */
export function parseOrigins(text: string | undefined): string[] | undefined {
	if (text === undefined) return undefined;
	if (text.trim().startsWith('[')) {
		let json: unknown;
		try {
			json = JSON.parse(text);
		} catch {
			json = undefined;
		}
		const parsed = v.safeParse(v.array(v.string()), json);
		if (!parsed.success)
			throw new CliInputError(
				`--allowed-origins: a JSON list of strings, or origins separated by commas.`,
			);
		return parsed.output;
	}
	return text
		.split(',')
		.map((o) => o.trim())
		.filter((o) => o !== '');
}

const SERVE_OPTIONS = {
	model: { type: 'string' },
	host: { type: 'string' },
	port: { type: 'string' },
	'allowed-origins': { type: 'string' },
	'api-key': { type: 'string' },
	'api-key-file': { type: 'string' },
	'max-queue': { type: 'string' },
	'request-timeout': { type: 'string' },
	dtype: { type: 'string' },
	threads: { type: 'string' },
} as const;

type ServeValues = Partial<Record<keyof typeof SERVE_OPTIONS, string | boolean>>;

function stringValue(value: string | boolean | undefined): string | undefined {
	return typeof value === 'string' ? value : undefined;
}

/** A numeric option, or `fallback` when absent; a CliInputError unless `check` holds. */
function numberOption(
	values: ServeValues,
	name: keyof typeof SERVE_OPTIONS,
	what: string,
	check: (n: number) => boolean,
): number | undefined {
	const text = stringValue(values[name]);
	if (text === undefined) return undefined;
	const n = Number(text);
	if (text.trim() === '' || !check(n)) {
		throw new CliInputError(`--${name} must be ${what} (got '${text}').\n${SERVE_USAGE}`);
	}
	return n;
}

/** Where the key comes from: `--api-key-file`, `--api-key`, then the environment variable. */
async function readApiKey(
	values: ServeValues,
	env: Readonly<Record<string, string | undefined>>,
): Promise<{ key: string; from: string } | undefined> {
	const file = stringValue(values['api-key-file']);
	const flag = stringValue(values['api-key']);
	if (file !== undefined && flag !== undefined)
		throw new CliInputError(`Give --api-key-file or --api-key, not both.\n${SERVE_USAGE}`);
	if (file !== undefined) {
		try {
			return { key: await readApiKeyFile(file), from: '--api-key-file' };
		} catch (error) {
			if (error instanceof RangeError) throw new CliInputError(error.message);
			const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
			throw new CliInputError(`${file}: cannot read the key file (${code}).`);
		}
	}
	if (flag !== undefined) {
		if (flag === '') throw new CliInputError('--api-key: the key is empty.');
		return { key: flag, from: '--api-key' };
	}
	const fromEnv = env[SERVE_API_KEY_ENV];
	return fromEnv ? { key: fromEnv, from: SERVE_API_KEY_ENV } : undefined;
}

/** The server options of a `serve` command line (the key read from its file or `env`). */
export async function readServeOptions(
	args: readonly string[],
	env: Readonly<Record<string, string | undefined>>,
): Promise<ServeOptions & { readonly apiKeyFrom?: string }> {
	const { positionals, values } = parseCommandArgs(args, SERVE_USAGE, SERVE_OPTIONS);
	if (positionals.length > 0)
		throw new CliInputError(`serve takes no file arguments.\n${SERVE_USAGE}`);
	const port = numberOption(values, 'port', 'a whole number 0–65535', (n) => {
		return Number.isInteger(n) && n >= 0 && n <= 65535;
	});
	const whole = (min: number) => (n: number) => Number.isInteger(n) && n >= min;
	const threads = numberOption(values, 'threads', 'a whole number ≥ 1', whole(1));
	const maxQueue = numberOption(values, 'max-queue', 'a whole number ≥ 0', whole(0));
	const timeout = numberOption(values, 'request-timeout', 'a number of seconds > 0', (n) => n > 0);
	const dtype = (stringValue(values.dtype) ?? 'fp32') as ModelDtype;
	if (!['fp32', 'fp16', 'q8'].includes(dtype)) {
		throw new CliInputError(
			`--dtype must be one of fp32, fp16, q8 (got '${dtype}').\n${SERVE_USAGE}`,
		);
	}
	const origins = parseOrigins(stringValue(values['allowed-origins']));
	const apiKey = await readApiKey(values, env);
	const model = stringValue(values.model);
	const host = stringValue(values.host);
	return {
		...(model !== undefined ? { model } : {}),
		...(host !== undefined ? { host } : {}),
		port: port ?? 8000,
		...(origins !== undefined ? { allowedOrigins: origins } : {}),
		...(apiKey !== undefined ? { apiKey: apiKey.key, apiKeyFrom: apiKey.from } : {}),
		...(maxQueue !== undefined ? { maxQueue } : {}),
		...(timeout !== undefined ? { requestTimeoutMs: timeout * 1000 } : {}),
		dtype,
		...(threads !== undefined ? { threads } : {}),
	};
}

/** The startup lines: the URL on stdout (scripts read it), the rules on stderr. */
function describeServer(
	server: RunningServer,
	options: ServeOptions & { readonly apiKeyFrom?: string },
	io: CliIo,
): void {
	io.stdout(`Benchtop serve: model ${server.modelId} at ${server.baseUrl}\n`);
	const listed = options.allowedOrigins ?? [];
	const cors = listed.includes('*') ? 'any origin (*)' : ['loopback origins', ...listed].join(', ');
	const key = options.apiKeyFrom ? `API key from ${options.apiKeyFrom}` : 'no API key';
	const queue = options.maxQueue ?? DEFAULT_MAX_QUEUE;
	const timeout = (options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS) / 1000;
	io.stderr(
		`serve: CORS for ${cors}; ${key}; queue ${queue}, timeout ${timeout} s. Ctrl-C stops it.\n`,
	);
}

export const serveCommand: CliCommand = async (args, io) => {
	const options = await readServeOptions(args, process.env);
	const server = await startServer({ ...options, log: (line) => io.stderr(`serve: ${line}\n`) });
	describeServer(server, options, io);
	await new Promise<void>((resolve) => {
		const stop = (): void => {
			process.off('SIGINT', stop);
			process.off('SIGTERM', stop);
			void server.close().then(resolve);
		};
		process.on('SIGINT', stop);
		process.on('SIGTERM', stop);
	});
	return 0;
};
