import { describe, expect, it } from 'vitest';
import {
	kernelTimePerOp,
	opProfileFigures,
	outputLayerNodeName,
	parseConsoleProfile,
	profileNodeModel,
	WARM_UP_RUNS,
	type OpProfile,
} from '../../bench/op-profile';

const run = (ts: number, dur: number) => ({ cat: 'Session', name: 'model_run', ts, dur });
const kernel = (op: string, ts: number, dur: number) => ({
	cat: 'Node',
	name: `node_${op}_kernel_time`,
	ts,
	dur,
	args: { op_name: op },
});

describe('kernelTimePerOp', () => {
	it('leaves out the warm-up runs and their kernels, and averages the rest per run', () => {
		const events = [
			run(0, 1000),
			kernel('MatMul', 10, 900),
			run(2000, 100),
			kernel('MatMul', 2010, 60),
			kernel('Add', 2070, 20),
			{
				cat: 'Node',
				name: 'node_MatMul_fence_before',
				ts: 2005,
				dur: 5,
				args: { op_name: 'MatMul' },
			},
			run(3000, 140),
			kernel('MatMul', 3010, 100),
			kernel('Add', 3110, 20),
		];
		const times = kernelTimePerOp(events, 1);
		expect(times.runs).toBe(2);
		expect(times.runMs).toBeCloseTo(0.12, 6);
		expect(times.opMs.get('MatMul')).toBeCloseTo(0.08, 6);
		expect(times.opMs.get('Add')).toBeCloseTo(0.02, 6);
		expect(times.nodeMs.get('node_MatMul')).toBeCloseTo(0.08, 6);
	});

	it('refuses a profile with no run after the warm-ups', () => {
		expect(() => kernelTimePerOp([run(0, 10), kernel('Add', 1, 2)], 1)).toThrow(/1 profiled runs/);
	});
});

describe('parseConsoleProfile', () => {
	it('reads event lines with or without the array punctuation and skips everything else', () => {
		const event = JSON.stringify(kernel('MatMul', 5, 7));
		const lines = [
			'[',
			`${event},`,
			'some other log line',
			`${JSON.stringify(run(1, 2))}]`,
			'{"cat": broken',
			`a, b\n${event}`,
		];
		const events = parseConsoleProfile(lines);
		expect(events.map((e) => e.name)).toEqual([
			'node_MatMul_kernel_time',
			'model_run',
			'node_MatMul_kernel_time',
		]);
	});
});

describe('opProfileFigures', () => {
	it('gives the run ratio and the matrix products apart from the rest', () => {
		const profile: OpProfile = {
			model: 'gpt2-en-small',
			dtype: 'q8',
			shape: { batchSize: 2, sequenceLength: 3, threads: 2, runs: 4 },
			node: { runMs: 10, profiledRunMs: 11, kernelMs: 9, outputLayerShare: 0.2 },
			wasm: { runMs: 40, profiledRunMs: 50, kernelMs: 45, outputLayerShare: null },
			nodeWasmRunMs: 38,
			ops: [
				{ opType: 'DynamicQuantizeMatMul', nodeShare: 0.5, wasmShare: 0.75, nodeMs: 5, wasmMs: 30 },
				{ opType: 'Add', nodeShare: 0.5, wasmShare: 0.25, nodeMs: 5, wasmMs: 10 },
			],
		};
		expect(opProfileFigures(profile)).toEqual({
			op_profile_gpt2_en_small_q8_node_run_ms: 10,
			op_profile_gpt2_en_small_q8_wasm_run_ms: 40,
			op_profile_gpt2_en_small_q8_wasm_vs_node: 0.25,
			op_profile_gpt2_en_small_q8_node_wasm_run_ms: 38,
			op_profile_gpt2_en_small_q8_wasm_vs_node_wasm: 0.95,
			op_profile_gpt2_en_small_q8_matmul_share_node: 0.5,
			op_profile_gpt2_en_small_q8_matmul_share_wasm: 0.75,
			op_profile_gpt2_en_small_q8_matmul_wasm_vs_node: 0.167,
			op_profile_gpt2_en_small_q8_rest_wasm_vs_node: 0.5,
			op_profile_gpt2_en_small_q8_output_layer_share_node: 0.2,
		});
	});
});

describe('profileNode', () => {
	it("times the tiny model's scoring graph and returns onnxruntime-node's kernel events", async () => {
		const dir = new URL('../../public/models/gpt2-random-tiny/', import.meta.url).pathname;
		const profile = await profileNodeModel(dir, 'fp32', { batchSize: 2, sequenceLength: 5 }, 1, 2);
		expect(profile.plainRunMs).toBeGreaterThan(0);
		expect(profile.inputNames).toContain('benchtop_targets');
		const times = kernelTimePerOp(profile.events, WARM_UP_RUNS);
		expect(times.runs).toBe(2);
		// The output layer is found in the graph and timed by name.
		const outputLayer = outputLayerNodeName(profile.graph);
		expect(outputLayer).toBeDefined();
		expect(times.nodeMs.get(outputLayer ?? '')).toBeGreaterThan(0);
		expect([...times.opMs.keys()]).toEqual(
			expect.arrayContaining(['MatMul', 'LogSoftmax', 'FastGelu']),
		);
	});
});
