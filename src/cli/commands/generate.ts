/**
 * `generate --model M [--max-tokens N] [--temperature T] [--top-p P] [--seed S] [--stop X]
 * [--base-url U] [--cache-dir D] "prompt"`: prints a completion as it streams (a smoke test of any
 * model spec: local, `openai/<m>`, `replay:<file>`).
 */
import { DEFAULT_MODEL_ID, type ModelDtype } from '../../core/model/model-spec';
import type { GenerationParams } from '../../core/model/generation';
import { openTextModel, type OpenedTextModel } from '../../providers/open-model';
import { CliInputError, EXIT_OK, type CliCommand } from '../shared/cli-io';
import { parseCommandArgs, type OptionSpec } from '../shared/parse-command-args';

export const GENERATE_USAGE =
	'usage: generate [--model <bundled | folder | hub id | openai/<m> | replay:<file>>] ' +
	'[--max-tokens N] [--temperature T] [--top-p P] [--seed S] [--stop <text>] [--chat] ' +
	'[--base-url <url>] [--cache-dir <folder>] [--dtype fp32|fp16|q8] [--threads N] [--concurrency N] "prompt"\n' +
	'  replay:<file.jsonl> lines: {"sample_id", "role", "completion"} or {"when": "<text>", "completion"};\n' +
	'  a when line answers a call whose last message contains its text (first line in the file wins; "" answers all)';

function numberOption(
	text: string | boolean | undefined,
	name: string,
	check: (n: number) => boolean,
	what: string,
): number | undefined {
	if (typeof text !== 'string') return undefined;
	const value = Number(text);
	if (text.trim() === '' || !check(value)) {
		throw new CliInputError(`--${name} must be ${what} (got '${text}').\n${GENERATE_USAGE}`);
	}
	return value;
}

const GENERATE_OPTIONS = {
	model: { type: 'string' },
	'max-tokens': { type: 'string' },
	temperature: { type: 'string' },
	'top-p': { type: 'string' },
	seed: { type: 'string' },
	stop: { type: 'string' },
	chat: { type: 'boolean' },
	'base-url': { type: 'string' },
	'cache-dir': { type: 'string' },
	dtype: { type: 'string' },
	threads: { type: 'string' },
	concurrency: { type: 'string' },
} as const satisfies OptionSpec;

type GenerateValues = Partial<Record<keyof typeof GENERATE_OPTIONS, string | boolean>>;

/** The sampling options as generation parameters (only those given). */
function readGenerationParams(values: GenerateValues): GenerationParams {
	const maxTokens = numberOption(
		values['max-tokens'],
		'max-tokens',
		(n) => Number.isInteger(n) && n >= 0,
		'a whole number ≥ 0',
	);
	const temperature = numberOption(
		values.temperature,
		'temperature',
		(n) => n >= 0 && n <= 2,
		'a number from 0 to 2',
	);
	const topP = numberOption(values['top-p'], 'top-p', (n) => n > 0 && n <= 1, 'a number in (0, 1]');
	const seed = numberOption(values.seed, 'seed', Number.isInteger, 'a whole number');
	return {
		...(temperature !== undefined ? { temperature } : {}),
		...(topP !== undefined ? { top_p: topP } : {}),
		...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}),
		...(typeof values.stop === 'string' ? { stop: [values.stop] } : {}),
		...(seed !== undefined ? { seed } : {}),
	};
}

/** Opens `--model` (the default model when absent); a bad spec is a CliInputError. */
async function openGenerateModel(values: GenerateValues): Promise<OpenedTextModel> {
	const threads = numberOption(
		values.threads,
		'threads',
		(n) => Number.isInteger(n) && n >= 1,
		'a whole number ≥ 1',
	);
	const concurrency = numberOption(
		values.concurrency,
		'concurrency',
		(n) => Number.isInteger(n) && n >= 1,
		'a whole number ≥ 1',
	);
	const modelText = typeof values.model === 'string' ? values.model : DEFAULT_MODEL_ID;
	try {
		return await openTextModel(modelText, {
			...(typeof values['base-url'] === 'string' ? { baseUrl: values['base-url'] } : {}),
			...(typeof values['cache-dir'] === 'string' ? { cacheDir: values['cache-dir'] } : {}),
			...(typeof values.dtype === 'string' ? { dtype: values.dtype as ModelDtype } : {}),
			...(threads !== undefined ? { threads } : {}),
			...(concurrency !== undefined ? { concurrency } : {}),
		});
	} catch (error) {
		if (error instanceof RangeError) throw new CliInputError(`--model: ${error.message}`);
		throw error;
	}
}

export const generateCommand: CliCommand = async (args, io) => {
	const { positionals, values } = parseCommandArgs(args, GENERATE_USAGE, GENERATE_OPTIONS);
	if (positionals.length !== 1) {
		throw new CliInputError(`expected one prompt (quote it).\n${GENERATE_USAGE}`);
	}
	const prompt = positionals[0] ?? '';
	const params = readGenerationParams(values);
	const opened = await openGenerateModel(values);
	try {
		const request = {
			prompt:
				values.chat === true
					? { kind: 'chat' as const, messages: [{ role: 'user', content: prompt }] }
					: { kind: 'text' as const, text: prompt },
			params,
		};
		for await (const event of opened.model.generate(request, {
			runId: 'cli',
			sampleId: 'generate',
			role: 'try',
		})) {
			if (event.type === 'token') io.stdout(event.text);
			else {
				io.stdout('\n');
				const usage = event.usage
					? `, ${event.usage.promptTokens} prompt + ${event.usage.completionTokens} completion tokens`
					: '';
				io.stderr(
					`${opened.model.label}: finish ${event.finishReason}${usage}${event.cached ? ' (cached)' : ''}\n`,
				);
			}
		}
	} finally {
		await opened.close();
	}
	return EXIT_OK;
};
