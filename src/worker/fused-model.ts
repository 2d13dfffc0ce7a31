/**
 * A causal LM whose ONNX session scores: while transformers.js creates the model, the session
 * factory it shares with us appends the log-prob tail to the graph's bytes (log-softmax on
 * WASM/CPU, a decomposed one on WebGPU), so only one log-prob per token leaves the runtime; on
 * WASM/CPU the tanh GELUs also become FastGelu nodes (core/onnx/fuse-gelu.ts), and the output
 * layer runs only at the positions fed (core/onnx/gather-output-rows.ts).
 */
import type { InferenceBackend, ModelSpec } from '../core/model/model-spec';
import { appendLogProbTail, type LogProbTailVariant } from '../core/onnx/append-log-prob-tail';
import { externalizeWeights } from '../core/onnx/externalize-weights';
import { fuseTanhGelu } from '../core/onnx/fuse-gelu';
import { gatherOutputRows } from '../core/onnx/gather-output-rows';
import { UnsupportedModelError } from './engine-errors';
import type { OrtModelSource, OrtRuntime, OrtSession } from './ort-runtime';
import { loadCausalLM, type PreTrainedModel } from './transformers-library';

/** The external file the model's own weights are given as: a name no exporter writes. */
const WEIGHTS_FILE = 'benchtop-inline-weights';

/** The model, its scoring session, and the logits' width its graph declares (if a number). */
export interface FusedModel {
	readonly model: PreTrainedModel;
	readonly session: OrtSession;
	readonly logitsWidth: number | undefined;
}

/** AutoModelForCausalLM from `modelId` with the log-prob tail fused into its session. */
export async function createFusedModel(
	runtime: OrtRuntime,
	modelId: string,
	spec: ModelSpec,
	backend: InferenceBackend,
	common: Record<string, unknown>,
): Promise<FusedModel> {
	const sessionClass = runtime.InferenceSession;
	const originalCreate = sessionClass.create;
	const variant: LogProbTailVariant = backend === 'webgpu' ? 'decomposed' : 'log-softmax';
	let created: { session: OrtSession; logitsWidth: number | undefined } | undefined;
	// NOTE: transformers.js creates sessions through the InferenceSession class it shares with
	// us; during this load its `create` adds the log-prob tail and our session options.
	sessionClass.create = async (source: OrtModelSource, options?: Record<string, unknown>) => {
		// onnxruntime-web starts its wasm once: a second start while the warm-up's is under way
		// fails ("multiple calls to 'initWasm()'"), so the model's session waits for it.
		await runtime.warmUp?.();
		const bytes = typeof source === 'string' ? await runtime.readModelFile(source) : source;
		// The weights stay where they are: the graph alone is rewritten, and the runtime reads
		// the weights from `bytes` as an external file (no copy of a model that can be gigabytes).
		const weights = runtime.weightsAsExternalData
			? externalizeWeights(bytes, WEIGHTS_FILE)
			: undefined;
		const graphBytes = weights?.graphBytes ?? bytes;
		// NOTE: WASM/CPU only: the number of rows changes from batch to batch, and WebGPU pads
		// every shape to a bucket (a new shape compiles new shaders); a graph whose output layer
		// is not found keeps it whole (every position, as before).
		const rows = variant === 'log-softmax' ? gatherOutputRows(graphBytes) : undefined;
		const fused = appendLogProbTail(rows?.ok ? rows.bytes : graphBytes, variant, {
			keepCacheOutputs: true,
			wordBoundaries: true,
			topLogProbs: true,
		});
		if (!fused.ok) {
			throw new UnsupportedModelError(`The model '${spec.id}' cannot be scored: ${fused.reason}.`);
		}
		const { preferredOutputLocation: _dropped, externalData, ...rest } = options ?? {};
		const externalFiles = [
			...(Array.isArray(externalData) ? (externalData as unknown[]) : []),
			...(weights ? [{ path: WEIGHTS_FILE, data: bytes }] : []),
		];
		// FastGelu is a contrib op of onnxruntime's CPU/WASM builds (WebGPU keeps the exported GELU).
		const scoringBytes = variant === 'log-softmax' ? fuseTanhGelu(fused.bytes).bytes : fused.bytes;
		const session = await originalCreate.call(sessionClass, scoringBytes, {
			...rest,
			...(externalFiles.length > 0 ? { externalData: externalFiles } : {}),
			...runtime.sessionOptions(backend),
		});
		created = { session, logitsWidth: fused.logitsWidth };
		return session;
	};
	try {
		const model = await loadCausalLM(modelId, common, {
			dtype: spec.dtype,
			device: runtime.deviceName(backend),
			sessionOptions: runtime.sessionOptions(backend),
		});
		if (!created)
			throw new UnsupportedModelError(`The model '${spec.id}' created no ONNX session.`);
		return { model, session: created.session, logitsWidth: created.logitsWidth };
	} finally {
		sessionClass.create = originalCreate;
	}
}
