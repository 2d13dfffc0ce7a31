// A typed hub model's size from its config.json: parameter formulas against the counts
// transformers reports for real models, the download estimate against real ONNX file sizes (the
// bundled models' files here, the hub's for the suggestions), and hostile configs as unknown.
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
	estimateConfigParameters,
	estimatedModelFacts,
	formatParameterCount,
	type ConfigParameterEstimate,
} from '../../../src/core/model/config-parameters';
import { fitRefusal, fitsDevice, knownModelFacts } from '../../../src/core/model/model-suggestions';

const MODELS_DIR = fileURLToPath(new URL('../../../public/models/', import.meta.url));

// Fields as the repos' config.json files give them (hub pages of each model).
const GPT2 = {
	model_type: 'gpt2',
	n_layer: 12,
	n_embd: 768,
	n_head: 12,
	vocab_size: 50257,
	n_positions: 1024,
	n_inner: null,
};
const DISTILGPT2 = { ...GPT2, n_layer: 6 };
const QWEN25_05B = {
	model_type: 'qwen2',
	hidden_size: 896,
	num_hidden_layers: 24,
	intermediate_size: 4864,
	vocab_size: 151936,
	num_attention_heads: 14,
	num_key_value_heads: 2,
	tie_word_embeddings: true,
};
const SMOLLM2_135M = {
	model_type: 'llama',
	hidden_size: 576,
	num_hidden_layers: 30,
	intermediate_size: 1536,
	vocab_size: 49152,
	num_attention_heads: 9,
	num_key_value_heads: 3,
	tie_word_embeddings: true,
	attention_bias: false,
	mlp_bias: false,
};
const SMOLLM2_360M = {
	...SMOLLM2_135M,
	hidden_size: 960,
	num_hidden_layers: 32,
	intermediate_size: 2560,
	num_attention_heads: 15,
	num_key_value_heads: 5,
};
const LLAMA32_1B = JSON.parse(
	readFileSync('tests/fixtures/hub-configs/llama-3.2-1b.config.json', 'utf8'),
) as Record<string, unknown>;
const QWEN3_06B = {
	model_type: 'qwen3',
	hidden_size: 1024,
	num_hidden_layers: 28,
	intermediate_size: 3072,
	vocab_size: 151936,
	num_attention_heads: 16,
	num_key_value_heads: 8,
	head_dim: 128,
	tie_word_embeddings: true,
	attention_bias: false,
};
const MISTRAL_7B = {
	model_type: 'mistral',
	hidden_size: 4096,
	num_hidden_layers: 32,
	intermediate_size: 14336,
	vocab_size: 32000,
	num_attention_heads: 32,
	num_key_value_heads: 8,
	tie_word_embeddings: false,
};
const PHI3_MINI = {
	model_type: 'phi3',
	hidden_size: 3072,
	num_hidden_layers: 32,
	intermediate_size: 8192,
	vocab_size: 32064,
	num_attention_heads: 32,
	num_key_value_heads: 32,
	tie_word_embeddings: false,
};

function parametersOf(config: unknown): number {
	const estimate = estimateConfigParameters(config);
	if (estimate.kind !== 'estimate') throw new Error(`unknown: ${estimate.reason}`);
	return estimate.parameters;
}

function estimateOf(config: unknown): Extract<ConfigParameterEstimate, { kind: 'estimate' }> {
	const estimate = estimateConfigParameters(config);
	if (estimate.kind !== 'estimate') throw new Error(`unknown: ${estimate.reason}`);
	return estimate;
}

function readConfig(id: string): unknown {
	return JSON.parse(readFileSync(`${MODELS_DIR}${id}/config.json`, 'utf8')) as unknown;
}

describe('estimateConfigParameters', () => {
	// Counts transformers' num_parameters() reports (the model cards' 124M, 82M, 135M, 360M,
	// 0.49B, 0.6B, 1.24B, 7.24B, 3.8B); each within 1%.
	it.each([
		['GPT-2 small', GPT2, 124_439_808],
		['distilgpt2', DISTILGPT2, 81_912_576],
		['SmolLM2-135M', SMOLLM2_135M, 134_515_008],
		['SmolLM2-360M', SMOLLM2_360M, 361_821_120],
		['Qwen2.5-0.5B', QWEN25_05B, 494_032_768],
		['Qwen3-0.6B', QWEN3_06B, 596_049_920],
		['Llama-3.2-1B', LLAMA32_1B, 1_235_814_400],
		['Mistral-7B', MISTRAL_7B, 7_241_732_096],
		['Phi-3-mini', PHI3_MINI, 3_821_079_552],
	])('counts %s within 1%%', (_name, config, known) => {
		expect(Math.abs(parametersOf(config) / known - 1)).toBeLessThan(0.01);
	});

	it('counts the bundled models from their own config.json exactly as their cards say', () => {
		// shared/models/README.md: 8,546,816 and 291,712 parameters.
		expect(parametersOf(readConfig('gpt2-en-small'))).toBe(8_546_816);
		expect(parametersOf(readConfig('gpt2-random-tiny'))).toBe(291_712);
		expect(parametersOf(readConfig('gpt2-en-small'))).toBe(
			knownModelFacts('bundled', 'gpt2-en-small', 'fp32')?.parameters,
		);
	});

	it('counts an untied output projection, and GPT-2’s n_inner when given', () => {
		const embedding = 50257 * 768;
		expect(parametersOf({ ...GPT2, tie_word_embeddings: false })).toBe(124_439_808 + embedding);
		expect(estimateOf(GPT2).tiedEmbeddingParameters).toBe(embedding);
		expect(estimateOf(MISTRAL_7B).tiedEmbeddingParameters).toBe(0);
		// n_inner 4d is the default: the same count.
		expect(parametersOf({ ...GPT2, n_inner: 3072 })).toBe(124_439_808);
		expect(parametersOf({ ...GPT2, n_inner: 1024 })).toBeLessThan(124_439_808);
		// num_key_value_heads absent: as many as the attention heads (more parameters).
		const { num_key_value_heads: _kv, ...noKv } = QWEN25_05B;
		expect(parametersOf(noKv)).toBeGreaterThan(494_032_768);
	});

	it('takes the token embedding as the largest matrix of these models', () => {
		expect(estimateOf(GPT2).largestMatrixParameters).toBe(50257 * 768);
		expect(estimateOf(LLAMA32_1B).largestMatrixParameters).toBe(128256 * 2048);
	});

	it.each([
		['not an object', 'gpt2'],
		['null', null],
		['an array', [GPT2]],
		['no model_type', { ...GPT2, model_type: undefined }],
		['a model_type that is not a string', { ...GPT2, model_type: 2 }],
		['an encoder', { ...GPT2, model_type: 'bert' }],
		['a mixture of experts', { ...QWEN25_05B, model_type: 'qwen2_moe' }],
		['a number as a string', { ...GPT2, n_layer: '12' }],
		['a negative size', { ...GPT2, n_embd: -768 }],
		['zero layers', { ...QWEN25_05B, num_hidden_layers: 0 }],
		['a fraction', { ...QWEN25_05B, hidden_size: 896.5 }],
		['1e12 layers', { ...GPT2, n_layer: 1e12 }],
		['1e12 layers (decoder)', { ...LLAMA32_1B, num_hidden_layers: 1e12 }],
		['an infinite vocabulary', { ...LLAMA32_1B, vocab_size: Infinity }],
		['NaN heads', { ...LLAMA32_1B, num_attention_heads: NaN }],
		['a missing field', { ...LLAMA32_1B, intermediate_size: undefined }],
		['a missing GPT-2 field', { ...GPT2, n_positions: undefined }],
		['a tie flag that is a string', { ...LLAMA32_1B, tie_word_embeddings: 'false' }],
		['kv heads that do not divide the heads', { ...QWEN25_05B, num_key_value_heads: 3 }],
		['heads that do not divide the hidden size', { ...SMOLLM2_135M, num_attention_heads: 7 }],
	])('is unknown for %s', (_name, config) => {
		const estimate = estimateConfigParameters(config);
		expect(estimate.kind).toBe('unknown');
		if (estimate.kind === 'unknown') expect(estimate.reason).not.toBe('');
	});

	it('says which field it could not use', () => {
		expect(estimateConfigParameters({ ...GPT2, n_layer: 1e12 })).toEqual({
			kind: 'unknown',
			reason: 'its n_layer is missing or not a whole number in range',
		});
		expect(estimateConfigParameters({ model_type: 'bert' })).toEqual({
			kind: 'unknown',
			reason: 'its model_type bert is not one this app can size',
		});
	});

	it('does not change the config it reads', () => {
		const config = structuredClone(QWEN25_05B);
		estimateConfigParameters(config);
		expect(config).toEqual(QWEN25_05B);
	});
});

describe('estimatedModelFacts', () => {
	it('estimates the bundled models’ ONNX files (tied embedding stored twice) within 4%', () => {
		const cases = [
			['gpt2-en-small', 'fp32', 'model.onnx', 0.01],
			['gpt2-en-small', 'q8', 'model_quantized.onnx', 0.04],
			['gpt2-random-tiny', 'fp32', 'model.onnx', 0.01],
		] as const;
		for (const [id, dtype, file, tolerance] of cases) {
			const bytes = statSync(`${MODELS_DIR}${id}/onnx/${file}`).size;
			const estimate = estimatedModelFacts(estimateOf(readConfig(id)), dtype).downloadBytes;
			expect(Math.abs(estimate / bytes - 1), `${id} ${dtype}`).toBeLessThan(tolerance);
		}
	});

	it('estimates the suggested hub files it should within 2%, and says which two it overestimates', () => {
		const hub = (config: unknown, id: string, dtype: 'fp32' | 'fp16' | 'q8') => {
			const known = knownModelFacts('hub', id, dtype)?.downloadBytes ?? NaN;
			return estimatedModelFacts(estimateOf(config), dtype).downloadBytes / known;
		};
		expect(Math.abs(hub(GPT2, 'Xenova/gpt2', 'fp32') - 1)).toBeLessThan(0.02);
		expect(Math.abs(hub(GPT2, 'Xenova/gpt2', 'q8') - 1)).toBeLessThan(0.02);
		expect(
			Math.abs(hub(SMOLLM2_135M, 'HuggingFaceTB/SmolLM2-135M-Instruct', 'fp16') - 1),
		).toBeLessThan(0.02);
		expect(
			Math.abs(hub(SMOLLM2_360M, 'HuggingFaceTB/SmolLM2-360M-Instruct', 'fp16') - 1),
		).toBeLessThan(0.02);
		// These two exports store the tied embedding once: the estimate is on the safe side.
		expect(hub(DISTILGPT2, 'Xenova/distilgpt2', 'fp32')).toBeGreaterThan(1.4);
		expect(hub(QWEN25_05B, 'onnx-community/Qwen2.5-0.5B-Instruct', 'q8')).toBeGreaterThan(1.2);
	});

	it('scales with the dtype and is marked as estimated, which the fit and refusal say', () => {
		const estimate = estimateOf(LLAMA32_1B);
		const fp32 = estimatedModelFacts(estimate, 'fp32');
		expect(fp32.parameters).toBe(1_235_814_400);
		expect(fp32.downloadBytes).toBe((1_235_814_400 + 128256 * 2048) * 4);
		expect(estimatedModelFacts(estimate, 'fp16').downloadBytes).toBe(fp32.downloadBytes / 2);
		expect(estimatedModelFacts(estimate, 'q8').largestTensorBytes).toBe(128256 * 2048);
		expect(fp32.estimatedFrom).toBe('config.json');
		expect(estimatedModelFacts(estimate, 'q8').dtype).toBe('q8');
		const fit = fitsDevice(fp32, {
			deviceMemoryGiB: 4,
			hardwareConcurrency: 4,
			crossOriginIsolated: true,
			webgpu: null,
		});
		expect(fit.verdict).toBe('will-not-fit');
		expect(fitRefusal('owner/llama (fp32)', fit, false)).toBe(
			'owner/llama (fp32) will not fit this device: needs about 11.2 GiB of memory (estimated from its config.json); the device reports 4 GiB.',
		);
	});
});

describe('formatParameterCount', () => {
	it.each([
		[291_712, '292 k'],
		[124_439_808, '124 M'],
		[494_032_768, '494 M'],
		[1_235_814_400, '1.24 B'],
		[7_241_732_096, '7.24 B'],
	])('%d → %s', (parameters, words) => {
		expect(formatParameterCount(parameters)).toBe(words);
	});
});
