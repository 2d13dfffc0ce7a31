/**
 * Child process of bench/op-profile.ts: times a graph on onnxruntime-web's WASM in Node (the
 * browser's own wasm build, run by Node's V8), so the op profile can tell the WASM kernels' cost
 * from the browser's. Its own process: onnxruntime-web's thread pool keeps Node alive, and its
 * memory stays out of the bench's. Arguments: graph file, feeds file (JSON `FeedSpec[]`),
 * threads, warm-up runs, timed runs. Prints `{"plainRunMs": …}`.
 */
import { readFile } from 'node:fs/promises';
import * as ort from 'onnxruntime-web';
import { feedTensors, type FeedSpec } from './feed-spec';

const [graphPath, feedsPath, threadsArg, warmUpsArg, runsArg] = process.argv.slice(2);
if (!graphPath || !feedsPath)
	throw new Error('usage: ort-web-node-run GRAPH FEEDS THREADS WARM_UPS RUNS');
ort.env.wasm.numThreads = Number(threadsArg);
const session = await ort.InferenceSession.create(new Uint8Array(await readFile(graphPath)), {
	executionProviders: ['wasm'],
	graphOptimizationLevel: 'all',
});
const feeds = JSON.parse(await readFile(feedsPath, 'utf8')) as FeedSpec[];
const tensors = feedTensors(ort.Tensor, feeds);
const warmUps = Number(warmUpsArg);
const times: number[] = [];
for (let run = 0; run < warmUps + Number(runsArg); run++) {
	const started = performance.now();
	await session.run(tensors);
	if (run >= warmUps) times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
console.log(JSON.stringify({ plainRunMs: times[Math.floor(times.length / 2)] }));
process.exit(0);
