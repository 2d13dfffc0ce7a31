/**
 * The real engine in Node (CLI, tests, bench): TransformersEngine on onnxruntime-node, bundled
 * models read from the project's public/models/ folder.
 */
import { fileURLToPath } from 'node:url';
import { createNodeOrtRuntime } from './ort-node';
import { TransformersEngine, type TransformersEngineOptions } from './transformers-engine';

/** The bundled models folder (public/models/ of this checkout), with a trailing slash. */
export const NODE_BUNDLED_MODELS_PATH = fileURLToPath(
	new URL('../../public/models/', import.meta.url),
);

export interface NodeEngineOptions extends Partial<Omit<TransformersEngineOptions, 'runtime'>> {
	/** CPU threads for onnxruntime-node (default: all cores). */
	readonly threads?: number;
}

export function createNodeEngine(options: NodeEngineOptions = {}): TransformersEngine {
	const { threads, ...rest } = options;
	return new TransformersEngine({
		bundledModelsPath: NODE_BUNDLED_MODELS_PATH,
		...rest,
		runtime: createNodeOrtRuntime(threads),
	});
}
