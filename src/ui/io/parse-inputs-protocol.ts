/**
 * The parse worker's protocol: types only, imported by parse-inputs.worker.ts / its handler and by
 * parse-inputs-client.ts. One map ties each request kind to its params and result, as
 * src/worker/protocol.ts does for inference; the call, cancel, result and error shapes are
 * src/worker/rpc/rpc-protocol.ts's. Messages are plain data (structured clone).
 */
import type { EvalChoice, EvalsProblem, ResolvedEval } from '../../core/evals';
import type { LoadResult } from '../../core/ltm';
import type { ReplayFile } from '../../core/model/replay-file';
import type { RpcReply, RpcRequest } from '../../worker/rpc/rpc-protocol';

/** A picked or dropped file with the path it has in its folder (`file.name` when none). */
export interface InputFile {
	readonly path: string;
	readonly file: Blob;
}

/** A replay file read and parsed: its text, SHA-256 (as `sha256Hex(text)`) and answers. */
export interface ParsedReplay {
	readonly name: string;
	readonly text: string;
	readonly sha256: string;
	readonly answers: ReplayFile;
	/** Answer lines (sample lines and `when` lines). */
	readonly answerLines: number;
}

export interface ReadRegistryParams {
	/** Dropped files: YAML, samples JSONL, or zips of a registry. */
	readonly inputs: readonly InputFile[];
	/** Registry files already dropped (path → text), which the new ones add to. */
	readonly previous: readonly (readonly [string, string])[];
}

/** A registry read: its files, the SHA-256 of each, the evals and their problems. */
export interface ReadRegistryResult {
	/** Every file of the registry (the previous ones and the new ones), path → text. */
	readonly files: readonly (readonly [string, string])[];
	readonly hashes: Readonly<Record<string, string>>;
	readonly evalNames: readonly string[];
	/** Each eval once (an alias with its id), as the eval list shows them. */
	readonly evalChoices: readonly EvalChoice[];
	/** Problems of the registry (each eval resolved when there are 50 or fewer). */
	readonly problems: readonly EvalsProblem[];
	/** Whether one of the inputs held registry files at all. */
	readonly foundFiles: boolean;
}

export interface ResolveEvalParams {
	readonly files: readonly (readonly [string, string])[];
	readonly name: string;
}

/** The eval resolved, or its problem (located). */
export type ResolveEvalResult =
	| { readonly ok: true; readonly resolved: ResolvedEval }
	| { readonly ok: false; readonly problem: EvalsProblem };

/** LTM definitions as they cross: texts as `[path, text]` pairs, or a zip's bytes. */
export type DefinitionsInput =
	| { readonly kind: 'texts'; readonly files: readonly (readonly [string, string])[] }
	| { readonly kind: 'zip'; readonly name: string; readonly bytes: Uint8Array };

/** Definitions loaded as the Memory page does, tokens counted with cl100k_base. */
export interface LoadDefinitionsParams {
	readonly definitions: DefinitionsInput;
	readonly memorySpan?: number;
	readonly isolated?: boolean;
}

/**
 * A run bundle of any registered kind read and checked by its kind's reader (a suite bundle's
 * suite SHA-256, every kind's results seal), or where it is wrong. A suite bundle's items come as
 * the chunk rows an import stores (typed arrays: quick to clone across): `bundle` is then
 * `{ run, suiteText, chunks }`.
 */
export type RunBundleFileRead =
	| {
			readonly ok: true;
			readonly kind: string;
			readonly bundle: unknown;
			/** The bundle's `resultsSha256`, checked against its results; absent in older bundles. */
			readonly resultsSha256?: string;
	  }
	| { readonly ok: false; readonly pointer: string; readonly message: string };

/** The request map: kind → params and result. */
export interface ParseCalls {
	replayFile: { params: InputFile; result: ParsedReplay };
	readRegistry: { params: ReadRegistryParams; result: ReadRegistryResult };
	resolveEval: { params: ResolveEvalParams; result: ResolveEvalResult };
	ltmDefinitions: { params: LoadDefinitionsParams; result: LoadResult };
	runBundle: { params: InputFile; result: RunBundleFileRead };
}
export type ParseCallKind = keyof ParseCalls;

/** Main → worker. `cancel` stops the request `id` at its next step (a chunk read, a file). */
export type ParseRequest = RpcRequest<ParseCalls>;

/** How far a request is: bytes read of all its files, then parsing and hashing. */
export interface ParseProgress {
	readonly phase: 'reading' | 'parsing' | 'hashing';
	/** Bytes read so far (reading); 0 or 1 for the other phases. */
	readonly done: number;
	readonly total: number;
}

/** Where an error is, when the parser knows (replay line; registry file, line and field). */
export interface ErrorLocation {
	readonly file?: string;
	readonly line?: number;
	readonly field?: string;
}

/** An error as it crosses the boundary. */
export interface SerializedParseError {
	readonly name: string;
	readonly message: string;
	readonly location?: ErrorLocation;
}

/** Worker → main: a call's progress, or a piece of its result, under its id before its reply. */
export type ParseCallEvent =
	| { readonly type: 'progress'; readonly id: number; readonly progress: ParseProgress }
	/**
	 * Items of a long array of the coming result (at `path`, e.g. `['resolved', 'samples']`), sent
	 * before it in pieces so that no one message takes long to receive; the result holds `[]` there.
	 */
	| {
			readonly type: 'chunk';
			readonly id: number;
			readonly path: readonly string[];
			readonly items: readonly unknown[];
	  };

/** Worker → main. */
export type ParseEvent = RpcReply<ParseCalls, SerializedParseError> | ParseCallEvent;
