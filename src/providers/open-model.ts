/**
 * `openTextModel(spec)` for the CLI and Node tests: a model spec string (`gpt2-en-small`, a hub
 * id, a folder, `openai/<model>`, `replay:<file.jsonl>`) opened as a TextModel, with the response
 * cache folder in front when one is given. Node only (reads files, runs the local engine).
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { TextModel } from '../core/model/generation';
import {
	baseUrlProblem,
	parseModelSpecString,
	type EndpointModelSpec,
	type ModelDtype,
	type ModelSpec,
	type TextModelSpec,
} from '../core/model/model-spec';
import { normalizeEndpointBaseUrl } from '../core/model/endpoint-choice';
import type { InferenceEngine } from '../worker/engine';
import { createNodeEngine } from '../worker/node-engine';
import { EndpointModel } from './endpoint-model';
import { EndpointBaseUrlError } from './openai-client';
import { createEngineTextModel } from './engine-model';
import { createNodeFileCache } from './node-file-cache';
import { endpointLimitsFromEnv, type OpenAIClient } from './openai-client';
import { createReplayModel } from './replay';
import { withResponseCache } from './response-cache';

export interface OpenTextModelOptions {
	/** For `openai/<m>`: default OPENAI_BASE_URL. */
	readonly baseUrl?: string;
	/** For `openai/<m>`: default OPENAI_API_KEY. Never stored with the spec. */
	readonly apiKey?: string;
	/** A response cache folder; absent: no cache. */
	readonly cacheDir?: string;
	/** Local models: dtype (default fp32), threads, an engine to load into (default a new one). */
	readonly dtype?: ModelDtype;
	readonly threads?: number;
	readonly engine?: InferenceEngine;
	/** Endpoint client concurrency (default 4). */
	readonly concurrency?: number;
	/** Endpoints: `completions` for a base model without a chat template (chats are rendered as
	 * Evals text and sent to /v1/completions); default `chat`. */
	readonly chatApi?: 'chat' | 'completions';
	/** Endpoints: a token counter for `countTokens` (default about 4 characters per token). */
	readonly countTokens?: (text: string) => number;
	/** Environment to read OPENAI_BASE_URL / OPENAI_API_KEY and BENCHTOP_ENDPOINT_* from (default process.env). */
	readonly env?: Readonly<Record<string, string | undefined>>;
}

export interface OpenedTextModel {
	readonly model: TextModel;
	readonly spec: TextModelSpec;
	/** The endpoint client (usage summed), for `openai/<m>`. */
	readonly client?: OpenAIClient;
	/** Frees the local model (no-op for the others). */
	close(): Promise<void>;
}

/** A local spec from a parsed string: bundled name, existing folder, else hub id. */
export async function resolveLocalSpec(
	text: string,
	dtype: ModelDtype = 'fp32',
): Promise<ModelSpec> {
	const parsed = parseModelSpecString(text);
	const base = { dtype, backend: 'node-cpu' as const };
	switch (parsed.kind) {
		case 'bundled':
			return { source: 'bundled', id: parsed.id, ...base };
		case 'folder':
			return { source: 'local', id: resolve(parsed.path), ...base };
		case 'hub-or-folder': {
			const isFolder = await stat(text.trim()).then(
				(s) => s.isDirectory(),
				() => false,
			);
			if (isFolder) return { source: 'local', id: resolve(text.trim()), ...base };
			return { source: 'hub', id: parsed.id, revision: parsed.revision ?? 'main', ...base };
		}
		default:
			throw new RangeError(`'${text}' is not a local model.`);
	}
}

/** The endpoint spec of `openai/<m>`, its base URL from the option or OPENAI_BASE_URL. */
export function endpointSpecOf(
	model: string,
	baseUrl: string | undefined,
	env: Readonly<Record<string, string | undefined>>,
): EndpointModelSpec {
	const url = baseUrl ?? env['OPENAI_BASE_URL'];
	if (!url) {
		throw new RangeError(
			`openai/${model} needs the endpoint's base URL: pass --base-url http://host:8000/v1 or set OPENAI_BASE_URL.`,
		);
	}
	const problem = baseUrlProblem(url);
	if (problem !== undefined) throw new EndpointBaseUrlError(`openai/${model}: ${problem}.`);
	return { source: 'openai', model, baseUrl: normalizeEndpointBaseUrl(url) };
}

export async function openTextModel(
	specString: string,
	options: OpenTextModelOptions = {},
): Promise<OpenedTextModel> {
	const env = options.env ?? process.env;
	const parsed = parseModelSpecString(specString);
	let opened: OpenedTextModel;
	if (parsed.kind === 'openai') {
		const spec = endpointSpecOf(parsed.model, options.baseUrl, env);
		const apiKey = options.apiKey ?? env['OPENAI_API_KEY'];
		const model = new EndpointModel({
			spec,
			...(apiKey ? { apiKey } : {}),
			...(options.chatApi ? { chatApi: options.chatApi } : {}),
			...(options.countTokens ? { countTokens: options.countTokens } : {}),
			clientOptions: {
				limits: endpointLimitsFromEnv(env),
				...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
			},
		});
		opened = { model, spec, client: model.client, close: async () => undefined };
	} else if (parsed.kind === 'replay') {
		const path = resolve(parsed.file);
		const model = createReplayModel(await readFile(path, 'utf8'), basename(parsed.file));
		opened = { model, spec: model.spec, close: async () => undefined };
	} else {
		const spec = await resolveLocalSpec(specString, options.dtype);
		const engine =
			options.engine ??
			createNodeEngine(options.threads !== undefined ? { threads: options.threads } : {});
		const info = await engine.loadModel({ spec });
		const model = createEngineTextModel(engine, info, specString.trim());
		opened = { model, spec, close: () => engine.disposeModel(info.modelKey) };
	}
	if (options.cacheDir === undefined) return opened;
	return {
		...opened,
		model: withResponseCache(opened.model, createNodeFileCache(options.cacheDir), {
			spec: opened.spec,
		}),
	};
}
