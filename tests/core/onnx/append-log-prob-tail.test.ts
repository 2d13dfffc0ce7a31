import { describe, expect, it } from 'vitest';
import {
	appendLogProbTail,
	BOUNDARY_LOG_PROBS_OUTPUT_NAME,
	EXPECTED_LOG_PROB_OUTPUT_NAME,
	BOUNDARY_POSITIONS_INPUT_NAME,
	LOG_PROBS_OUTPUT_NAME,
	TARGETS_INPUT_NAME,
	TOP_IDS_OUTPUT_NAME,
	TOP_LOG_PROBS_OUTPUT_NAME,
	TOP_POSITIONS_INPUT_NAME,
	WORD_START_MASK_INPUT_NAME,
} from '../../../src/core/onnx/append-log-prob-tail';
import {
	concatBytes,
	encodeMessageField,
	encodeStringField,
	encodeVarintField,
	readFields,
	readString,
	type WireField,
} from '../../../src/core/onnx/protobuf-wire';

// A hand-made ModelProto: Identity(x) → logits, plus a present.0.key output. Field numbers of onnx.proto.
function valueInfo(
	field: number,
	name: string,
	elemType: number,
	dims: readonly (string | number)[] = [],
): Uint8Array {
	const shape = dims.map((d) =>
		encodeMessageField(1, [
			typeof d === 'number' ? encodeVarintField(1, d) : encodeStringField(2, d),
		]),
	);
	const tensorType = encodeMessageField(1, [
		encodeVarintField(1, elemType),
		...(dims.length > 0 ? [encodeMessageField(2, shape)] : []),
	]);
	return encodeMessageField(field, [
		encodeStringField(1, name),
		encodeMessageField(2, [tensorType]),
	]);
}

function makeModel(
	opset: number,
	logitsElemType = 1,
	outputs = ['logits', 'present.0.key'],
	logitsDims: readonly (string | number)[] = [],
): Uint8Array {
	const graph = encodeMessageField(7, [
		encodeMessageField(1, [
			encodeStringField(1, 'x'),
			encodeStringField(2, 'logits'),
			encodeStringField(4, 'Identity'),
		]),
		encodeStringField(2, 'g'),
		valueInfo(11, 'x', logitsElemType),
		...outputs.map((name) =>
			valueInfo(12, name, logitsElemType, name === 'logits' ? logitsDims : []),
		),
	]);
	return concatBytes([
		encodeVarintField(1, 8),
		encodeStringField(2, 'test'),
		graph,
		encodeMessageField(8, [encodeStringField(1, ''), encodeVarintField(2, opset)]),
	]);
}

/** A model whose graph already declares an input named `name`. */
function makeModelWithInput(name: string): Uint8Array {
	const graph = encodeMessageField(7, [
		encodeMessageField(1, [
			encodeStringField(1, 'x'),
			encodeStringField(2, 'logits'),
			encodeStringField(4, 'Identity'),
		]),
		valueInfo(11, 'x', 1),
		valueInfo(11, name, 7),
		valueInfo(12, 'logits', 1),
	]);
	return concatBytes([
		graph,
		encodeMessageField(8, [encodeStringField(1, ''), encodeVarintField(2, 17)]),
	]);
}

interface GraphView {
	readonly opTypes: string[];
	readonly inputs: string[];
	readonly outputs: string[];
	readonly initializers: string[];
	/** Per node: op type → number of inputs and attribute names. */
	readonly nodes: { op: string; inputs: string[]; attributes: string[] }[];
}

function strings(bytes: Uint8Array, fields: WireField[], field: number): string[] {
	return fields.filter((f) => f.field === field).map((f) => readString(bytes, f));
}

function viewGraph(model: Uint8Array): GraphView {
	const graph = readFields(model).find((f) => f.field === 7)!;
	const fields = readFields(model, graph.valueStart, graph.valueEnd);
	const nameOf = (f: WireField): string =>
		strings(model, readFields(model, f.valueStart, f.valueEnd), 1)[0] ?? '';
	const nodes = fields
		.filter((f) => f.field === 1)
		.map((f) => {
			const nodeFields = readFields(model, f.valueStart, f.valueEnd);
			return {
				op: strings(model, nodeFields, 4)[0] ?? '',
				inputs: strings(model, nodeFields, 1),
				attributes: nodeFields.filter((a) => a.field === 5).map(nameOf),
			};
		});
	return {
		opTypes: nodes.map((n) => n.op),
		nodes,
		inputs: fields.filter((f) => f.field === 11).map(nameOf),
		outputs: fields.filter((f) => f.field === 12).map(nameOf),
		initializers: fields
			.filter((f) => f.field === 5)
			.map((f) => strings(model, readFields(model, f.valueStart, f.valueEnd), 8)[0] ?? ''),
	};
}

describe('appendLogProbTail', () => {
	it('log-softmax: LogSoftmax + GatherElements, one output, a targets input, other outputs dropped', () => {
		const model = makeModel(17);
		const result = appendLogProbTail(model, 'log-softmax');
		expect(result.ok).toBe(true);
		if (!result.ok) return;
		expect([result.opsetVersion, result.logitsElemType, result.removedOutputs]).toEqual([
			17,
			1,
			['logits', 'present.0.key'],
		]);
		const view = viewGraph(result.bytes);
		expect(view.opTypes).toEqual(['Identity', 'LogSoftmax', 'GatherElements']);
		expect(view.inputs).toEqual(['x', TARGETS_INPUT_NAME]);
		expect(view.outputs).toEqual([LOG_PROBS_OUTPUT_NAME]);
		expect(view.nodes[2]?.inputs).toEqual(['benchtop_log_softmax', TARGETS_INPUT_NAME]);
	});

	it('keepCacheOutputs: the present.* outputs stay, before the log-probs; logits go', () => {
		const model = makeModel(17, 1, ['logits', 'present.0.key', 'present.0.value', 'other']);
		const result = appendLogProbTail(model, 'log-softmax', { keepCacheOutputs: true });
		expect(result.ok).toBe(true);
		if (!result.ok) return;
		expect([result.removedOutputs, result.keptOutputs]).toEqual([
			['logits', 'other'],
			['present.0.key', 'present.0.value'],
		]);
		expect(viewGraph(result.bytes).outputs).toEqual([
			'present.0.key',
			'present.0.value',
			LOG_PROBS_OUTPUT_NAME,
		]);
	});

	it.each<[number, string[], string[]]>([
		// opset 13–17: ReduceMax takes axes as an attribute, ReduceSum as an input.
		[17, ['axes', 'keepdims'], ['keepdims']],
		// opset ≥ 18: both take axes as an input (one shared initializer).
		[18, ['keepdims'], ['keepdims']],
	])(
		'decomposed at opset %d puts Reduce* axes where the opset wants them',
		(opset, maxAttrs, sumAttrs) => {
			const result = appendLogProbTail(makeModel(opset), 'decomposed');
			if (!result.ok) throw new Error(result.reason);
			const view = viewGraph(result.bytes);
			expect(view.opTypes).toEqual([
				'Identity',
				'ReduceMax',
				'Sub',
				'Exp',
				'ReduceSum',
				'Log',
				'GatherElements',
				'Sub',
			]);
			const max = view.nodes[1]!;
			const sum = view.nodes[4]!;
			expect(max.attributes).toEqual(maxAttrs);
			expect(sum.attributes).toEqual(sumAttrs);
			expect(max.inputs.length).toBe(opset >= 18 ? 2 : 1);
			expect(sum.inputs.length).toBe(2);
			expect(view.initializers).toEqual(['benchtop_vocab_axis']);
			expect(view.nodes.at(-1)?.inputs).toEqual(['benchtop_target_shifted', 'benchtop_log_sum']);
		},
	);

	it('wordBoundaries, log-softmax: the asked rows exponentiated, times the word-start mask, logged into a second output; Σ p·log p into a third', () => {
		const result = appendLogProbTail(makeModel(17), 'log-softmax', { wordBoundaries: true });
		if (!result.ok) throw new Error(result.reason);
		const view = viewGraph(result.bytes);
		expect(view.opTypes).toEqual([
			'Identity',
			'LogSoftmax',
			'GatherElements',
			'Gather',
			'Exp',
			'MatMul',
			'Log',
			'Mul',
			'ReduceSum',
		]);
		expect(view.inputs).toEqual([
			'x',
			TARGETS_INPUT_NAME,
			WORD_START_MASK_INPUT_NAME,
			BOUNDARY_POSITIONS_INPUT_NAME,
		]);
		expect(view.outputs).toEqual([
			LOG_PROBS_OUTPUT_NAME,
			BOUNDARY_LOG_PROBS_OUTPUT_NAME,
			EXPECTED_LOG_PROB_OUTPUT_NAME,
		]);
		expect(view.nodes[3]?.inputs).toEqual(['benchtop_log_softmax', BOUNDARY_POSITIONS_INPUT_NAME]);
		expect(view.nodes[5]?.inputs).toEqual(['benchtop_boundary_probs', WORD_START_MASK_INPUT_NAME]);
		expect(view.nodes[7]?.inputs).toEqual(['benchtop_boundary_probs', 'benchtop_boundary_rows']);
		expect(view.nodes[8]?.inputs).toEqual(['benchtop_boundary_p_log_p', 'benchtop_vocab_axis']);
		expect(view.initializers).toEqual(['benchtop_vocab_axis']);
	});

	it.each([17, 18])(
		'wordBoundaries, decomposed at opset %d: the asked rows of the exponentials, times the mask, over their total',
		(opset) => {
			const result = appendLogProbTail(makeModel(opset), 'decomposed', { wordBoundaries: true });
			if (!result.ok) throw new Error(result.reason);
			const view = viewGraph(result.bytes);
			expect(view.opTypes.slice(8)).toEqual([
				'Gather',
				'MatMul',
				'Log',
				'Gather',
				'Sub',
				'Gather',
				'Mul',
				'ReduceSum',
				'Gather',
				'Div',
				'Sub',
			]);
			expect(view.nodes[8]?.inputs).toEqual(['benchtop_exp', BOUNDARY_POSITIONS_INPUT_NAME]);
			expect(view.nodes[11]?.inputs).toEqual(['benchtop_log_sum', BOUNDARY_POSITIONS_INPUT_NAME]);
			expect(view.nodes[12]?.inputs).toEqual([
				'benchtop_log_word_start_sum',
				'benchtop_boundary_log_sum',
			]);
			expect(view.nodes[13]?.inputs).toEqual(['benchtop_shifted', BOUNDARY_POSITIONS_INPUT_NAME]);
			expect(view.nodes.at(-1)?.inputs).toEqual([
				'benchtop_boundary_mean_shifted',
				'benchtop_boundary_log_sum',
			]);
			expect(view.outputs).toEqual([
				LOG_PROBS_OUTPUT_NAME,
				BOUNDARY_LOG_PROBS_OUTPUT_NAME,
				EXPECTED_LOG_PROB_OUTPUT_NAME,
			]);
			expect(view.initializers).toEqual(['benchtop_vocab_axis']);
		},
	);

	it('topLogProbs, log-softmax: the asked rows of the log-softmax through TopK into two outputs', () => {
		const result = appendLogProbTail(makeModel(17), 'log-softmax', { topLogProbs: true });
		if (!result.ok) throw new Error(result.reason);
		const view = viewGraph(result.bytes);
		expect(view.opTypes).toEqual(['Identity', 'LogSoftmax', 'GatherElements', 'Gather', 'TopK']);
		expect(view.nodes[3]?.inputs).toEqual(['benchtop_log_softmax', TOP_POSITIONS_INPUT_NAME]);
		expect(view.nodes[4]?.inputs).toEqual(['benchtop_top_rows', 'benchtop_top_k']);
		expect(view.nodes[4]?.attributes).toEqual(['axis', 'largest', 'sorted']);
		expect(view.inputs).toEqual(['x', TARGETS_INPUT_NAME, TOP_POSITIONS_INPUT_NAME]);
		expect(view.outputs).toEqual([
			LOG_PROBS_OUTPUT_NAME,
			TOP_LOG_PROBS_OUTPUT_NAME,
			TOP_IDS_OUTPUT_NAME,
		]);
		expect(view.initializers).toEqual(['benchtop_top_k']);
	});

	it('topLogProbs, decomposed: TopK of the asked rows of the shifted logits, minus their log-sum', () => {
		const result = appendLogProbTail(makeModel(18), 'decomposed', {
			wordBoundaries: true,
			topLogProbs: true,
		});
		if (!result.ok) throw new Error(result.reason);
		const view = viewGraph(result.bytes);
		expect(view.opTypes.slice(19)).toEqual(['Gather', 'TopK', 'Gather', 'Sub']);
		expect(view.nodes[19]?.inputs).toEqual(['benchtop_shifted', TOP_POSITIONS_INPUT_NAME]);
		expect(view.nodes[21]?.inputs).toEqual(['benchtop_log_sum', TOP_POSITIONS_INPUT_NAME]);
		expect(view.nodes[22]?.inputs).toEqual(['benchtop_top_shifted', 'benchtop_top_log_sum']);
		expect(view.outputs).toEqual([
			LOG_PROBS_OUTPUT_NAME,
			BOUNDARY_LOG_PROBS_OUTPUT_NAME,
			EXPECTED_LOG_PROB_OUTPUT_NAME,
			TOP_LOG_PROBS_OUTPUT_NAME,
			TOP_IDS_OUTPUT_NAME,
		]);
		expect(view.initializers).toEqual(['benchtop_vocab_axis', 'benchtop_top_k']);
	});

	it.each<[string, (string | number)[], number | undefined]>([
		['a numeric vocab dim', ['batch_size', 'sequence_length', 50257], 50257],
		['a named vocab dim', ['batch_size', 'sequence_length', 'vocab'], undefined],
		['no shape', [], undefined],
	])('logitsWidth: the logits output with %s', (_label, dims, width) => {
		const result = appendLogProbTail(makeModel(17, 1, ['logits'], dims), 'log-softmax');
		if (!result.ok) throw new Error(result.reason);
		expect(result.logitsWidth).toBe(width);
	});

	it.each([
		WORD_START_MASK_INPUT_NAME,
		BOUNDARY_POSITIONS_INPUT_NAME,
		TARGETS_INPUT_NAME,
		TOP_POSITIONS_INPUT_NAME,
	])('refuses a graph that already has an input named %s', (name) => {
		const result = appendLogProbTail(makeModelWithInput(name), 'log-softmax', {
			wordBoundaries: true,
		});
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.reason).toMatch(name);
	});

	it('casts float16 logits to float32 first', () => {
		const result = appendLogProbTail(makeModel(17, 10), 'log-softmax');
		if (!result.ok) throw new Error(result.reason);
		expect(result.logitsElemType).toBe(10);
		expect(viewGraph(result.bytes).opTypes).toEqual([
			'Identity',
			'Cast',
			'LogSoftmax',
			'GatherElements',
		]);
	});

	it('keeps every other model field byte for byte and leaves the input untouched', () => {
		const model = makeModel(17);
		const copy = model.slice();
		const result = appendLogProbTail(model, 'log-softmax');
		if (!result.ok) throw new Error(result.reason);
		expect(model).toEqual(copy);
		const before = readFields(model)
			.filter((f) => f.field !== 7)
			.map((f) => [...model.subarray(f.start, f.end)]);
		const after = readFields(result.bytes)
			.filter((f) => f.field !== 7)
			.map((f) => [...result.bytes.subarray(f.start, f.end)]);
		expect(after).toEqual(before);
	});

	it.each<[string, Uint8Array, RegExp]>([
		['no logits output', makeModel(17, 1, ['hidden_states']), /no output named 'logits'/],
		['an old opset', makeModel(11), /older than 13/],
		['not protobuf', Uint8Array.from([0xff, 0xff]), /not an ONNX model/],
		['no graph', concatBytes([encodeVarintField(1, 8)]), /no single graph/],
	])('refuses a model with %s', (_label, model, reason) => {
		const result = appendLogProbTail(model, 'log-softmax');
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.reason).toMatch(reason);
	});
});
