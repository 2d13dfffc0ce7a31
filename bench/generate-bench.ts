/**
 * Local generation speed: gpt2-en-small, 64 new tokens, greedy, in Node (the engine directly) and
 * through `serve` (HTTP /v1/completions on 127.0.0.1, same engine). Median of `repeats` runs after
 * a warm-up (which loads the generation model). Part of `npm run bench` (part `generate`); run
 * alone with `npx tsx bench/generate-bench.ts` (prints one JSON line).
 */
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { startServer } from '../src/cli/serve/server';
import { createNodeEngine } from '../src/worker/node-engine';

export const GENERATE_MODEL = 'gpt2-en-small';
const MODEL = GENERATE_MODEL;
export const NEW_TOKENS = 64;
export const PROMPT = 'The museum opened a new exhibition about the history of the river, and';

export interface GenerationBench {
	readonly generate_tokens_per_s_node: number;
	readonly generate_tokens_per_s_serve: number;
	readonly generate_new_tokens: number;
	readonly generate_runs_node_ms: number[];
	readonly generate_runs_serve_ms: number[];
}

function median(values: readonly number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Tokens per second of greedy 64-token generations in Node and through serve. */
export async function benchGeneration(threads: number, repeats = 5): Promise<GenerationBench> {
	const engine = createNodeEngine({ threads });
	const server = await startServer({ model: MODEL, port: 0, engine });
	try {
		const params = { temperature: 0, max_tokens: NEW_TOKENS };
		const runNode = async (): Promise<{ ms: number; tokens: number }> => {
			const started = performance.now();
			const result = await engine.generate({
				modelKey: server.info.modelKey,
				prompt: { kind: 'text', text: PROMPT },
				params,
			});
			return { ms: performance.now() - started, tokens: result.usage.completionTokens };
		};
		const runServe = async (): Promise<{ ms: number; tokens: number }> => {
			const started = performance.now();
			const response = await fetch(`${server.baseUrl}/completions`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ model: MODEL, prompt: PROMPT, ...params }),
			});
			const json = (await response.json()) as { usage: { completion_tokens: number } };
			return { ms: performance.now() - started, tokens: json.usage.completion_tokens };
		};
		await runNode();
		await runServe();
		// Interleaved, so a change in the machine's load hits both alike.
		const node = [];
		const serve = [];
		for (let i = 0; i < repeats; i++) {
			node.push(await runNode());
			serve.push(await runServe());
		}
		const rate = (runs: { ms: number; tokens: number }[]): number =>
			Math.round(median(runs.map((r) => (r.tokens / r.ms) * 1000)) * 10) / 10;
		return {
			generate_tokens_per_s_node: rate(node),
			generate_tokens_per_s_serve: rate(serve),
			generate_new_tokens: median(node.map((r) => r.tokens)),
			generate_runs_node_ms: node.map((r) => Math.round(r.ms)),
			generate_runs_serve_ms: serve.map((r) => Math.round(r.ms)),
		};
	} finally {
		await server.close();
		await engine.disposeModel(server.info.modelKey);
	}
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
	const threads = Number(process.env['BENCHTOP_BENCH_THREADS'] ?? availableParallelism());
	console.log(JSON.stringify({ model: MODEL, threads, ...(await benchGeneration(threads)) }));
}
