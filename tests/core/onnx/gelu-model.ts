// A hand-made ModelProto holding GPT-2's tanh GELU in the groupings exporters write (shared by
// the fuseTanhGelu tests). Field numbers of onnx.proto.
import { node, valueInfo } from '../../../src/core/onnx/onnx-proto';
import {
	concatBytes,
	encodeBytesField,
	encodeMessageField,
	encodeStringField,
	encodeVarintField,
	readFields,
	readString,
} from '../../../src/core/onnx/protobuf-wire';

const ELEM_FLOAT = 1;
export const ELEM_FLOAT16 = 10;
export const WIDTH = 4;

/** A TensorProto of float32 values (float16 bits when `elemType` is 10). */
function tensor(name: string, dims: readonly number[], values: readonly number[], elemType = 1) {
	const raw =
		elemType === ELEM_FLOAT16
			? new Uint8Array(Uint16Array.from(values, () => 0x3800).buffer)
			: new Uint8Array(Float32Array.from(values).buffer);
	return [
		...dims.map((d) => encodeVarintField(1, d)),
		encodeVarintField(2, elemType),
		...(name ? [encodeStringField(8, name)] : []),
		encodeBytesField(9, raw),
	];
}

function constant(output: string, value: number, elemType = ELEM_FLOAT): Uint8Array {
	const attribute = encodeMessageField(5, [
		encodeStringField(1, 'value'),
		encodeMessageField(5, tensor('', [], [value], elemType)),
		encodeVarintField(20, 4),
	]);
	return node('Constant', [], output, [attribute]);
}

export type Grouping = 'exported' | 'half-x-first' | 'half-tanh-first' | 'pow';

export interface GeluOptions {
	readonly grouping?: Grouping;
	readonly cubic?: number;
	readonly constantType?: number;
	/** Also expose tanh's output as a graph output (then it must stay). */
	readonly tanhAsOutput?: boolean;
	/** Also an If node (its branches, not written here, could read any value). */
	readonly ifNode?: boolean;
	/** x = MatMul(h, W) + bias (else x is the graph input). */
	readonly bias?: boolean;
}

/** y = 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))), x [2, 3, WIDTH]. */
export function geluModel(options: GeluOptions = {}): Uint8Array {
	const { grouping = 'exported', cubic = 0.044715, constantType = ELEM_FLOAT } = options;
	const bias = options.bias ?? true;
	const c = (name: string, value: number) => constant(name, value, constantType);
	const cube =
		grouping === 'pow'
			? [c('three', 3), node('Pow', ['x', 'three'], 'cube')]
			: [node('Mul', ['x', 'x'], 'square'), node('Mul', ['x', 'square'], 'cube')];
	const outer: Record<Grouping, Uint8Array[]> = {
		exported: [
			node('Mul', ['x', 'one_plus'], 'x_one_plus'),
			node('Mul', ['half', 'x_one_plus'], 'y'),
		],
		pow: [node('Mul', ['one_plus', 'x'], 'x_one_plus'), node('Mul', ['x_one_plus', 'half'], 'y')],
		'half-x-first': [
			node('Mul', ['x', 'half'], 'half_x'),
			node('Mul', ['half_x', 'one_plus'], 'y'),
		],
		'half-tanh-first': [
			node('Mul', ['half', 'one_plus'], 'half_one_plus'),
			node('Mul', ['x', 'half_one_plus'], 'y'),
		],
	};
	const weights = Array.from({ length: WIDTH * WIDTH }, (_, i) => ((i % 7) - 3) / 5);
	const graph = encodeMessageField(7, [
		...(bias ? [node('MatMul', ['h', 'w'], 'product'), node('Add', ['product', 'b'], 'x')] : []),
		...cube,
		c('cubic', cubic),
		node('Mul', ['cubic', 'cube'], 'cubic_term'),
		node('Add', ['x', 'cubic_term'], 'inner'),
		c('scale', Math.sqrt(2 / Math.PI)),
		node('Mul', ['scale', 'inner'], 'scaled'),
		node('Tanh', ['scaled'], 'tanh'),
		c('one', 1),
		node('Add', ['one', 'tanh'], 'one_plus'),
		c('half', 0.5),
		...outer[grouping],
		...(options.ifNode ? [node('If', ['x'], 'branch')] : []),
		encodeStringField(2, 'gelu'),
		...(bias
			? [
					encodeMessageField(5, tensor('w', [WIDTH, WIDTH], weights)),
					encodeMessageField(5, tensor('b', [WIDTH], [0.1, -0.2, 0.3, -0.4])),
				]
			: []),
		valueInfo(11, bias ? 'h' : 'x', ELEM_FLOAT, [2, 3, WIDTH]),
		valueInfo(12, 'y', ELEM_FLOAT, [2, 3, WIDTH]),
		...(options.tanhAsOutput ? [valueInfo(12, 'tanh', ELEM_FLOAT, [2, 3, WIDTH])] : []),
	]);
	return concatBytes([
		encodeVarintField(1, 8),
		graph,
		encodeMessageField(8, [encodeStringField(1, ''), encodeVarintField(2, 17)]),
	]);
}

export interface NodeView {
	readonly op: string;
	readonly domain: string;
	readonly inputs: string[];
	readonly outputs: string[];
}

export function nodesOf(model: Uint8Array): NodeView[] {
	const graph = readFields(model).find((f) => f.field === 7)!;
	return readFields(model, graph.valueStart, graph.valueEnd)
		.filter((f) => f.field === 1)
		.map((f) => {
			const fields = readFields(model, f.valueStart, f.valueEnd);
			const all = (n: number) =>
				fields.filter((x) => x.field === n).map((x) => readString(model, x));
			return { op: all(4)[0] ?? '', domain: all(7)[0] ?? '', inputs: all(1), outputs: all(2) };
		});
}

export function opsetDomains(model: Uint8Array): string[] {
	return readFields(model)
		.filter((f) => f.field === 8)
		.map((f) => {
			const domain = readFields(model, f.valueStart, f.valueEnd).find((x) => x.field === 1);
			return domain ? readString(model, domain) : '';
		});
}
