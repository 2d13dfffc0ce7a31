/**
 * Part `op-profile` of `npm run bench`: where a forward pass's time goes, per ONNX op type, in
 * Node (onnxruntime-node, CPU) and in Chromium (onnxruntime-web, WASM), on the same graph with
 * the same inputs and threads. The graph is the one the app scores with (the model's fp32 or q8
 * file with the log-prob tail and FastGelu, as src/worker/fused-model.ts builds it);
 * the inputs are one plain batch (no cache) of seeded token ids. Each runtime's own profiler
 * (`enableProfiling`) times every kernel; warm-up runs are left out. The plain runs (profiling
 * off) are timed apart, and also on onnxruntime-web's WASM in Node (bench/ort-web-node-run.ts),
 * which tells the WASM kernels' cost from the browser's. Chromium loads
 * onnxruntime-web's own files from node_modules through a small server of this module's own
 * (cross-origin isolated, so WASM runs threaded), not through the app.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from '@playwright/test';
import {
	BOUNDARY_POSITIONS_INPUT_NAME,
	TARGETS_INPUT_NAME,
	TOP_POSITIONS_INPUT_NAME,
	WORD_START_MASK_INPUT_NAME,
	appendLogProbTail,
} from '../src/core/onnx/append-log-prob-tail';
import { fuseTanhGelu } from '../src/core/onnx/fuse-gelu';
import { gatherOutputRows, OUTPUT_ROWS_INPUT_NAME } from '../src/core/onnx/gather-output-rows';
import { medianNumpy } from '../src/core/syntaxgym/aggregation/region-metrics';
import { NODE_NAME, indexNodes, messageName, readGraphFields } from '../src/core/onnx/onnx-proto';
import { createNodeOrtRuntime } from '../src/worker/ort-node';
import { feedTensors, type FeedSpec } from './feed-spec';
import type { OrtSession } from '../src/worker/ort-runtime';

type Log = (message: string) => void;

/** One profiler event of kind `Node` (a kernel) or `Session` (a whole run). */
interface ProfileEvent {
	readonly cat: string;
	readonly name: string;
	readonly ts: number;
	readonly dur: number;
	readonly args?: { readonly op_name?: string };
}

export interface OpProfileShape {
	readonly batchSize: number;
	readonly sequenceLength: number;
	readonly threads: number;
	/** Profiled runs after the warm-up. */
	readonly runs: number;
}

/** One runtime's side of the profile. */
export interface RuntimeFigures {
	/** Median plain run (profiling off), ms. */
	readonly runMs: number;
	/** Mean profiled run, ms (the profiler's own cost shows as the difference). */
	readonly profiledRunMs: number;
	/** Kernel time summed over every op, per profiled run, ms. */
	readonly kernelMs: number;
	/** The output layer's share of the kernel time (the matrix product `logits` comes from,
	 * {@link outputLayerNodeName}); null when no profiled node bears its name. */
	readonly outputLayerShare: number | null;
}

/** Per op type: the share of the kernel time in each runtime, and that share of the plain run. */
export interface OpFigures {
	readonly opType: string;
	readonly nodeShare: number;
	readonly wasmShare: number;
	/** `share × plain run`: the op's estimated ms in a run without the profiler. */
	readonly nodeMs: number;
	readonly wasmMs: number;
}

export interface OpProfile {
	readonly model: string;
	readonly dtype: ProfileDtype;
	readonly shape: OpProfileShape;
	readonly node: RuntimeFigures;
	readonly wasm: RuntimeFigures;
	/** The same graph's median plain run on onnxruntime-web's WASM in Node, ms: the WASM
	 * kernels' cost without the browser. */
	readonly nodeWasmRunMs: number;
	/** Largest WASM time first. */
	readonly ops: readonly OpFigures[];
}

interface ModelConfig {
	readonly n_head: number;
	readonly n_embd: number;
	readonly n_layer: number;
	readonly vocab_size: number;
}

/** The profiled dtypes and their files, as transformers.js names them. */
export const PROFILE_FILES = { fp32: 'model.onnx', q8: 'model_quantized.onnx' } as const;
export type ProfileDtype = keyof typeof PROFILE_FILES;

/** The app's scoring graph of `modelDir`'s model at `dtype` (output rows, tail, FastGelu), as
 * fused-model.ts builds it for WASM/CPU. */
async function scoringGraph(modelDir: string, dtype: ProfileDtype): Promise<Uint8Array> {
	const file = new Uint8Array(await readFile(join(modelDir, 'onnx', PROFILE_FILES[dtype])));
	const rows = gatherOutputRows(file);
	const bytes = rows.ok ? rows.bytes : file;
	const fused = appendLogProbTail(bytes, 'log-softmax', {
		keepCacheOutputs: true,
		wordBoundaries: true,
		topLogProbs: true,
	});
	if (!fused.ok) throw new Error(`op-profile: ${modelDir}: ${fused.reason}`);
	return fuseTanhGelu(fused.bytes).bytes;
}

/** A fixed pseudo-random sequence (xorshift32), so both runtimes and every run see the same ids. */
function seededIds(count: number, vocab: number, seed: number): number[] {
	let state = seed >>> 0 || 1;
	return Array.from({ length: count }, () => {
		state ^= state << 13;
		state >>>= 0;
		state ^= state >>> 17;
		state ^= state << 5;
		state >>>= 0;
		return state % vocab;
	});
}

/** The feeds of one plain batch (every input the scoring graph declares). */
function batchFeeds(
	inputNames: readonly string[],
	config: ModelConfig,
	batchSize: number,
	sequenceLength: number,
): FeedSpec[] {
	const positions = batchSize * sequenceLength;
	const ids = seededIds(positions + batchSize, config.vocab_size, 29);
	const inputIds: number[] = [];
	const targets: number[] = [];
	for (let row = 0; row < batchSize; row++) {
		const start = row * (sequenceLength + 1);
		inputIds.push(...ids.slice(start, start + sequenceLength));
		targets.push(...ids.slice(start + 1, start + sequenceLength + 1));
	}
	const headDim = config.n_embd / config.n_head;
	const withRows = inputNames.includes(OUTPUT_ROWS_INPUT_NAME);
	const feeds: FeedSpec[] = [];
	for (const name of inputNames) {
		if (name === 'input_ids')
			feeds.push({ name, type: 'int64', dims: [batchSize, sequenceLength], data: inputIds });
		else if (name === 'attention_mask')
			feeds.push({
				name,
				type: 'int64',
				dims: [batchSize, sequenceLength],
				data: new Array<number>(positions).fill(1),
			});
		else if (name === 'position_ids')
			feeds.push({
				name,
				type: 'int64',
				dims: [batchSize, sequenceLength],
				data: Array.from({ length: positions }, (_, i) => i % sequenceLength),
			});
		// Every position has a target here: with output rows, all B·S rows are fed, in order.
		else if (name === TARGETS_INPUT_NAME)
			feeds.push({
				name,
				type: 'int64',
				dims: withRows ? [1, positions, 1] : [batchSize, sequenceLength, 1],
				data: targets,
			});
		else if (name === OUTPUT_ROWS_INPUT_NAME)
			feeds.push({
				name,
				type: 'int64',
				dims: [1, positions],
				data: Array.from({ length: positions }, (_, i) => i),
			});
		else if (name === WORD_START_MASK_INPUT_NAME)
			feeds.push({
				name,
				type: 'float32',
				dims: [config.vocab_size, 1],
				data: Array.from({ length: config.vocab_size }, (_, i) => i % 2),
			});
		// One boundary and one top-k position, as a scoring pass that does not fetch them feeds.
		else if (name === BOUNDARY_POSITIONS_INPUT_NAME || name === TOP_POSITIONS_INPUT_NAME)
			feeds.push({ name, type: 'int64', dims: [1], data: [0] });
		else if (name.startsWith('past_key_values'))
			feeds.push({ name, type: 'float32', dims: [batchSize, config.n_head, 0, headDim], data: [] });
		else throw new Error(`op-profile: no feed for the graph's input '${name}'`);
	}
	return feeds;
}

const KERNEL_SUFFIX = '_kernel_time';

/**
 * The name of the output layer: the matrix product (MatMul, MatMulInteger, Gemm…) that `logits`
 * comes from, found by walking back from `logits` through the nodes after it (an Identity, a
 * quantized product's scale Mul); undefined when there is none within a few nodes.
 */
export function outputLayerNodeName(graph: Uint8Array): string | undefined {
	const read = readGraphFields(graph);
	if (!read) return undefined;
	const { producer } = indexNodes(graph, read.graphFields);
	let frontier = ['logits'];
	for (let depth = 0; depth < 6 && frontier.length > 0; depth++) {
		const nodes = frontier.flatMap((value) => producer.get(value) ?? []);
		const product = nodes.find((node) => isMatMul(node.opType));
		if (product) return messageName(graph, product.field, NODE_NAME);
		frontier = nodes.flatMap((node) => node.inputs);
	}
	return undefined;
}

/** A profiled node's time counts for `graphNode` under its own name or one the runtime's fusion
 * derived from it (onnxruntime names a fused quantized product `<name>_quant`). */
function isFromNode(profiledName: string, graphNode: string): boolean {
	return profiledName === graphNode || profiledName.startsWith(`${graphNode}_`);
}

interface KernelTimes {
	/** Runs counted. */
	readonly runs: number;
	/** Mean run, ms. */
	readonly runMs: number;
	/** Kernel ms per run, per op type. */
	readonly opMs: ReadonlyMap<string, number>;
	/** Kernel ms per run, per node name. */
	readonly nodeMs: ReadonlyMap<string, number>;
}

/**
 * Kernel milliseconds per op type and per run, from a profiler's events: the first `warmUps`
 * runs and every kernel inside them are left out.
 */
export function kernelTimePerOp(events: readonly ProfileEvent[], warmUps: number): KernelTimes {
	const runs = events
		.filter((event) => event.cat === 'Session' && event.name === 'model_run')
		.sort((a, b) => a.ts - b.ts);
	const lastWarmUp = runs[warmUps - 1];
	if (!lastWarmUp || runs.length <= warmUps)
		throw new Error(`op-profile: ${runs.length} profiled runs, ${warmUps} of them warm-ups`);
	const warmUpEnd = lastWarmUp.ts + lastWarmUp.dur;
	const counted = runs.slice(warmUps);
	const totals = new Map<string, number>();
	const nodeTotals = new Map<string, number>();
	for (const event of events) {
		if (event.cat !== 'Node' || !event.name.endsWith(KERNEL_SUFFIX)) continue;
		if (event.ts < warmUpEnd) continue;
		const op = event.args?.op_name ?? '?';
		totals.set(op, (totals.get(op) ?? 0) + event.dur);
		const node = event.name.slice(0, -KERNEL_SUFFIX.length);
		nodeTotals.set(node, (nodeTotals.get(node) ?? 0) + event.dur);
	}
	const perRun = (us: number) => us / 1000 / counted.length;
	return {
		runs: counted.length,
		runMs: perRun(counted.reduce((sum, run) => sum + run.dur, 0)),
		opMs: new Map([...totals].map(([op, us]) => [op, perRun(us)])),
		nodeMs: new Map([...nodeTotals].map(([node, us]) => [node, perRun(us)])),
	};
}

/** Runs before the timed or profiled ones: onnxruntime-web's first runs with 2 threads are slow
 * (measured in a worker, one gpt2-en-small batch of 16×24: 269, 260, 232, 277, 261, 238, 177 ms,
 * then 114-126 ms; in Node 27-35 ms from the first). */
export const WARM_UP_RUNS = 8;

/** What one runtime gave: the median plain run (profiling off) and the profiler's events. */
interface RuntimeProfile {
	readonly plainRunMs: number;
	readonly events: ProfileEvent[];
}

/** Node's side also names the graph's inputs (the same graph: the worker gets these feeds). */
interface NodeProfile extends RuntimeProfile {
	readonly inputNames: readonly string[];
}

/** Node: plain runs timed in one session, then onnxruntime-node's profile file of another. */
async function profileNode(
	graph: Uint8Array,
	feedsOf: (inputNames: readonly string[]) => FeedSpec[],
	threads: number,
	runs: number,
): Promise<NodeProfile> {
	const dir = await mkdtemp(join(tmpdir(), 'benchtop-op-profile-'));
	// The Node engine's own runtime and session options (src/worker/ort-node.ts).
	const runtime = createNodeOrtRuntime(threads);
	// Warnings (the GELU constants FastGelu left unused) off, as transformers.js sets them.
	const options = { ...runtime.sessionOptions('node-cpu'), logSeverityLevel: 3 };
	try {
		const plain = await runtime.InferenceSession.create(graph, options);
		const feeds = feedTensors(runtime.Tensor, feedsOf(plain.inputNames));
		const times: number[] = [];
		for (let run = 0; run < WARM_UP_RUNS + runs; run++) {
			const started = performance.now();
			await plain.run(feeds);
			if (run >= WARM_UP_RUNS) times.push(performance.now() - started);
		}
		await plain.release();
		const profiled = (await runtime.InferenceSession.create(graph, {
			...options,
			enableProfiling: true,
			profileFilePrefix: join(dir, 'node'),
		})) as OrtSession & { endProfiling(): void };
		for (let run = 0; run < WARM_UP_RUNS + runs; run++) await profiled.run(feeds);
		profiled.endProfiling();
		await profiled.release();
		const file = (await readdir(dir)).find((name) => name.endsWith('.json'));
		if (!file) throw new Error('op-profile: onnxruntime-node wrote no profile');
		return {
			inputNames: plain.inputNames,
			plainRunMs: medianNumpy(times),
			events: JSON.parse(await readFile(join(dir, file), 'utf8')) as ProfileEvent[],
		};
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
}

const ORT_WEB_DIST = new URL('../node_modules/onnxruntime-web/dist/', import.meta.url);
/** The build the app's worker runs (src/worker/ort-web.ts): the WebGPU bundle's asyncify wasm. */
const ORT_WEB_FILES: Readonly<Record<string, string>> = {
	'/ort.mjs': 'ort.webgpu.bundle.min.mjs',
	'/ort-wasm.mjs': 'ort-wasm-simd-threaded.asyncify.mjs',
	'/ort-wasm.wasm': 'ort-wasm-simd-threaded.asyncify.wasm',
};
const PAGE = `<!doctype html><meta charset="utf-8"><title>op profile</title><p>op profile</p>`;

/** A cross-origin-isolated server of the page, the worker, onnxruntime-web's files and the graph. */
async function startServer(
	graph: Uint8Array,
	worker: string,
): Promise<{ server: Server; origin: string }> {
	const server = createServer((request, response) => {
		const headers = {
			'Cross-Origin-Opener-Policy': 'same-origin',
			'Cross-Origin-Embedder-Policy': 'require-corp',
			'Cross-Origin-Resource-Policy': 'same-origin',
		};
		const path = new URL(request.url ?? '/', 'http://localhost').pathname;
		const send = (type: string, body: Uint8Array | string) => {
			response.writeHead(200, { ...headers, 'Content-Type': type });
			response.end(body);
		};
		if (path === '/') return send('text/html', PAGE);
		if (path === '/model.onnx') return send('application/octet-stream', graph);
		if (path === '/worker.mjs') return send('text/javascript', worker);
		const file = ORT_WEB_FILES[path];
		if (!file) {
			response.writeHead(404, headers);
			return response.end();
		}
		readFile(new URL(file, ORT_WEB_DIST)).then(
			(bytes) => send(path.endsWith('.wasm') ? 'application/wasm' : 'text/javascript', bytes),
			() => {
				response.writeHead(500, headers);
				response.end();
			},
		);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return { server, origin: `http://127.0.0.1:${port}` };
}

/**
 * The dedicated worker the profile runs in, as the app's inference worker runs onnxruntime-web.
 * Its console lines are kept (onnxruntime-web prints the profile there at `endProfiling`) and
 * posted back with the plain runs' times.
 */
const WORKER = `
const lines = [];
for (const level of ['log', 'info', 'warn', 'error']) {
	const original = console[level].bind(console);
	console[level] = (...values) => { lines.push(values.map(String).join(' ')); original(...values); };
}
self.onmessage = async ({ data }) => {
	try {
		const ort = await import('/ort.mjs');
		ort.env.wasm.wasmPaths = { mjs: location.origin + '/ort-wasm.mjs', wasm: location.origin + '/ort-wasm.wasm' };
		ort.env.wasm.numThreads = data.threads;
		ort.env.wasm.proxy = false;
		const options = { executionProviders: ['wasm'], graphOptimizationLevel: 'all' };
		const plain = await ort.InferenceSession.create(location.origin + '/model.onnx', options);
		const feeds = Object.fromEntries(data.entries);
		const tensors = Object.fromEntries(Object.entries(feeds).map(([name, feed]) => [name,
			new ort.Tensor(feed.type, feed.type === 'int64' ? BigInt64Array.from(feed.data, BigInt) : Float32Array.from(feed.data), feed.dims)]));
		const times = [];
		for (let run = 0; run < data.warmUps + data.runs; run++) {
			const started = performance.now();
			await plain.run(tensors);
			if (run >= data.warmUps) times.push(performance.now() - started);
		}
		await plain.release();
		const profiled = await ort.InferenceSession.create(location.origin + '/model.onnx', { ...options, enableProfiling: true });
		for (let run = 0; run < data.warmUps + data.runs; run++) await profiled.run(tensors);
		profiled.endProfiling();
		await profiled.release();
		self.postMessage({ times, lines, isolated: self.crossOriginIsolated });
	} catch (error) {
		self.postMessage({ error: String(error) });
	}
};
`;

/** Chromium: in a dedicated worker, plain runs timed in one session, then onnxruntime-web's
 * profile of another. The feeds are built in Node (the graph's input names are known there). */
async function profileWasm(
	browser: Browser,
	graph: Uint8Array,
	feeds: readonly FeedSpec[],
	threads: number,
	runs: number,
): Promise<RuntimeProfile> {
	const { server, origin } = await startServer(graph, WORKER);
	const page = await browser.newPage();
	try {
		await page.goto(`${origin}/`);
		const result = await page.evaluate(
			({ feeds, threads, runs, warmUps }) =>
				new Promise<{ times?: number[]; lines?: string[]; isolated?: boolean; error?: string }>(
					(resolve) => {
						const worker = new Worker('/worker.mjs', { type: 'module' });
						worker.onmessage = ({ data }) => {
							worker.terminate();
							resolve(data);
						};
						worker.onerror = (event) => resolve({ error: event.message });
						const entries = feeds.map((feed) => [feed.name, feed]);
						worker.postMessage({ threads, runs, warmUps, entries });
					},
				),
			{ feeds: [...feeds], threads, runs, warmUps: WARM_UP_RUNS },
		);
		if (result.error !== undefined)
			throw new Error(`op-profile: the worker failed: ${result.error}`);
		if (result.isolated !== true)
			throw new Error('op-profile: the worker is not cross-origin isolated');
		return {
			plainRunMs: medianNumpy(result.times ?? []),
			events: parseConsoleProfile(result.lines ?? []),
		};
	} finally {
		await page.close();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	}
}

/** The profiler's events among console lines (one JSON object per line, or a JSON array). */
export function parseConsoleProfile(lines: readonly string[]): ProfileEvent[] {
	const events: ProfileEvent[] = [];
	for (const line of lines) {
		for (const candidate of line.split('\n')) {
			const text = candidate
				.trim()
				.replace(/^\[/, '')
				.replace(/[,\]]$/, '');
			if (!text.startsWith('{') || !text.includes('"cat"')) continue;
			try {
				events.push(JSON.parse(text) as ProfileEvent);
			} catch {
				// Not an event line.
			}
		}
	}
	return events;
}

function runtimeFigures(
	profile: RuntimeProfile,
	kernels: KernelTimes,
	outputLayer: string | undefined,
): RuntimeFigures {
	const kernelMs = [...kernels.opMs.values()].reduce((sum, ms) => sum + ms, 0);
	const outputLayerMs =
		outputLayer === undefined
			? undefined
			: [...kernels.nodeMs]
					.filter(([name]) => isFromNode(name, outputLayer))
					.reduce<number | undefined>((sum, [, ms]) => (sum ?? 0) + ms, undefined);
	return {
		runMs: profile.plainRunMs,
		profiledRunMs: kernels.runMs,
		kernelMs,
		outputLayerShare: outputLayerMs === undefined ? null : outputLayerMs / kernelMs,
	};
}

const NODE_WASM_SCRIPT = new URL('./ort-web-node-run.ts', import.meta.url).pathname;

/** The graph's median plain run on onnxruntime-web's WASM in Node (a child process). */
async function timeNodeWasm(
	graph: Uint8Array,
	feeds: readonly FeedSpec[],
	threads: number,
	runs: number,
): Promise<number> {
	const dir = await mkdtemp(join(tmpdir(), 'benchtop-op-profile-'));
	try {
		const graphPath = join(dir, 'model.onnx');
		const feedsPath = join(dir, 'feeds.json');
		await writeFile(graphPath, graph);
		await writeFile(feedsPath, JSON.stringify(feeds));
		const stdout = await new Promise<string>((resolve, reject) =>
			execFile(
				process.execPath,
				[
					'--import',
					'tsx',
					NODE_WASM_SCRIPT,
					graphPath,
					feedsPath,
					String(threads),
					String(WARM_UP_RUNS),
					String(runs),
				],
				{ maxBuffer: 1 << 20, timeout: 600_000 },
				(error, out) => (error ? reject(error) : resolve(out)),
			),
		);
		const last = stdout.trim().split('\n').at(-1) ?? '';
		return (JSON.parse(last) as { plainRunMs: number }).plainRunMs;
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
}

/** `modelDir`'s scoring graph at `dtype`, profiled in Node (the graph's inputs named too). */
export async function profileNodeModel(
	modelDir: string,
	dtype: ProfileDtype,
	shape: Pick<OpProfileShape, 'batchSize' | 'sequenceLength'>,
	threads: number,
	runs: number,
): Promise<NodeProfile & { readonly graph: Uint8Array; readonly feeds: readonly FeedSpec[] }> {
	const config = JSON.parse(await readFile(join(modelDir, 'config.json'), 'utf8')) as ModelConfig;
	const graph = await scoringGraph(modelDir, dtype);
	const feedsOf = (inputNames: readonly string[]) =>
		batchFeeds(inputNames, config, shape.batchSize, shape.sequenceLength);
	const profile = await profileNode(graph, feedsOf, threads, runs);
	return { ...profile, graph, feeds: feedsOf(profile.inputNames) };
}

/** Profiles `modelDir`'s scoring graph in both runtimes. */
export async function benchOpProfile(
	browser: Browser,
	model: string,
	modelDir: string,
	dtype: ProfileDtype,
	shape: Omit<OpProfileShape, 'runs'> & { readonly runs?: number },
	log: Log,
): Promise<OpProfile> {
	const runs = shape.runs ?? 6;
	const nodeProfile = await profileNodeModel(modelDir, dtype, shape, shape.threads, runs);
	const nodeWasmRunMs = await timeNodeWasm(
		nodeProfile.graph,
		nodeProfile.feeds,
		shape.threads,
		runs,
	);
	const wasmProfile = await profileWasm(
		browser,
		nodeProfile.graph,
		nodeProfile.feeds,
		shape.threads,
		runs,
	);
	const nodeKernels = kernelTimePerOp(nodeProfile.events, WARM_UP_RUNS);
	const wasmKernels = kernelTimePerOp(wasmProfile.events, WARM_UP_RUNS);
	const outputLayer = outputLayerNodeName(nodeProfile.graph);
	const node = runtimeFigures(nodeProfile, nodeKernels, outputLayer);
	const wasm = runtimeFigures(wasmProfile, wasmKernels, outputLayer);
	const opTypes = [...new Set([...nodeKernels.opMs.keys(), ...wasmKernels.opMs.keys()])];
	const ops = opTypes
		.map((opType): OpFigures => {
			const nodeShare = (nodeKernels.opMs.get(opType) ?? 0) / node.kernelMs;
			const wasmShare = (wasmKernels.opMs.get(opType) ?? 0) / wasm.kernelMs;
			return {
				opType,
				nodeShare,
				wasmShare,
				nodeMs: nodeShare * node.runMs,
				wasmMs: wasmShare * wasm.runMs,
			};
		})
		.sort((a, b) => b.wasmMs - a.wasmMs);
	const profile: OpProfile = {
		model,
		dtype,
		shape: { ...shape, runs },
		node,
		wasm,
		nodeWasmRunMs,
		ops,
	};
	log(
		`op-profile ${model} ${dtype} ${JSON.stringify(profile.shape)}: plain run node ${node.runMs.toFixed(1)} ms, ` +
			`wasm ${wasm.runMs.toFixed(1)} ms (node÷wasm ${(node.runMs / wasm.runMs).toFixed(3)}), ` +
			`the same wasm in Node ${nodeWasmRunMs.toFixed(1)} ms; ` +
			`profiled run node ${node.profiledRunMs.toFixed(1)} ms, wasm ${wasm.profiledRunMs.toFixed(1)} ms; ` +
			`the output layer (${outputLayer ?? 'not found'}) ${pct(node.outputLayerShare ?? NaN)} of node's kernel time, ${pct(wasm.outputLayerShare ?? NaN)} of wasm's`,
	);
	for (const op of ops)
		log(
			`  ${op.opType.padEnd(22)} node ${pct(op.nodeShare)} ${op.nodeMs.toFixed(2).padStart(7)} ms` +
				`  wasm ${pct(op.wasmShare)} ${op.wasmMs.toFixed(2).padStart(7)} ms` +
				`  wasm÷node ${op.nodeMs > 0 ? (op.wasmMs / op.nodeMs).toFixed(2) : '-'}`,
		);
	return profile;
}

function pct(share: number): string {
	return `${(share * 100).toFixed(1).padStart(5)}%`;
}

/** Matrix products (MatMul, FusedMatMul, MatMulInteger, MatMulNBits, ...): the dense work. */
function isMatMul(opType: string): boolean {
	return /MatMul|Gemm/.test(opType);
}

/**
 * The bench JSON's figures of one profile, keys `op_profile_<model>_<dtype>_*`: plain run ms in
 * each runtime and their ratio (`wasm_vs_node`: Node's time ÷ WASM's, as `wasm_vs_node` is a
 * speed ratio), the matrix products' share of each runtime's kernel time, and the ratio of the
 * matrix products alone and of everything else.
 */
export function opProfileFigures(profile: OpProfile): Record<string, number> {
	const key = `op_profile_${profile.model.replace(/[^a-z0-9]+/gi, '_')}_${profile.dtype}`;
	const sum = (pick: (op: OpFigures) => number, matMul: boolean) =>
		profile.ops.filter((op) => isMatMul(op.opType) === matMul).reduce((t, op) => t + pick(op), 0);
	const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
	const matMulNodeMs = sum((op) => op.nodeMs, true);
	const matMulWasmMs = sum((op) => op.wasmMs, true);
	const restNodeMs = sum((op) => op.nodeMs, false);
	const restWasmMs = sum((op) => op.wasmMs, false);
	return {
		[`${key}_node_run_ms`]: round(profile.node.runMs, 2),
		[`${key}_wasm_run_ms`]: round(profile.wasm.runMs, 2),
		[`${key}_wasm_vs_node`]: round(profile.node.runMs / profile.wasm.runMs, 3),
		[`${key}_node_wasm_run_ms`]: round(profile.nodeWasmRunMs, 2),
		// The tab against the same WASM in Node: near 1 when the browser adds nothing.
		[`${key}_wasm_vs_node_wasm`]: round(profile.nodeWasmRunMs / profile.wasm.runMs, 3),
		[`${key}_matmul_share_node`]: round(
			sum((op) => op.nodeShare, true),
			3,
		),
		[`${key}_matmul_share_wasm`]: round(
			sum((op) => op.wasmShare, true),
			3,
		),
		[`${key}_matmul_wasm_vs_node`]: round(matMulNodeMs / matMulWasmMs, 3),
		[`${key}_rest_wasm_vs_node`]: round(restNodeMs / restWasmMs, 3),
		...(profile.node.outputLayerShare === null
			? {}
			: { [`${key}_output_layer_share_node`]: round(profile.node.outputLayerShare, 3) }),
		...(profile.wasm.outputLayerShare === null
			? {}
			: { [`${key}_output_layer_share_wasm`]: round(profile.wasm.outputLayerShare, 3) }),
	};
}
