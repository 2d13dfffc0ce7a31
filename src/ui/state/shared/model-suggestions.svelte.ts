/**
 * The "Suggested" list of a model picker: known hub models for one job with their fit verdict on
 * this device and, given the tokens to score, their estimated time; one that will not fit is
 * refused with the reason. Also the remembered last answer-job model (Evals and Memory default to
 * it when it is cached). Downloads nothing.
 */
import {
	fitsDevice,
	knownModelFacts,
	recommendedSuggestion,
	suggestionsFor,
	type DeviceFacts,
	type DeviceFit,
	type ModelFacts,
	type ModelJob,
	type ModelSuggestion,
} from '../../../core/model/model-suggestions';
import type { ModelDtype, ModelSource } from '../../../core/model/model-spec';
import {
	estimateScoringTime,
	wasmThreadCount,
	type ScoringTimeEstimate,
} from '../../../core/model/scoring-time-estimate';
import { readDeviceFacts } from '../../io/device-facts';

export interface SuggestionRow {
	readonly suggestion: ModelSuggestion;
	readonly fit: DeviceFit;
}

const UNKNOWN_DEVICE: DeviceFacts = {
	deviceMemoryGiB: null,
	hardwareConcurrency: null,
	crossOriginIsolated: false,
	webgpu: null,
};

/** Device facts read once per page (tests inject theirs through `SuggestionPicker`). */
let sharedDeviceFacts: Promise<DeviceFacts> | null = null;
function deviceFactsOnce(): Promise<DeviceFacts> {
	sharedDeviceFacts ??= readDeviceFacts();
	return sharedDeviceFacts;
}

export class SuggestionPicker {
	readonly job: ModelJob;
	readonly #choose: (suggestion: ModelSuggestion) => void;
	readonly #readDevice: () => Promise<DeviceFacts>;
	#device = $state.raw<DeviceFacts>(UNKNOWN_DEVICE);
	/** The last suggestion picked that will not fit: refused, shown with its reason until dismissed. */
	refused = $state.raw<SuggestionRow | null>(null);

	constructor(
		job: ModelJob,
		choose: (suggestion: ModelSuggestion) => void,
		readDevice: () => Promise<DeviceFacts> = deviceFactsOnce,
	) {
		this.job = job;
		this.#choose = choose;
		this.#readDevice = readDevice;
	}

	get device(): DeviceFacts {
		return this.#device;
	}

	/** Reads the device facts (once per page by default); rows show "unknown" until then. */
	async refreshDevice(): Promise<void> {
		this.#device = await this.#readDevice();
	}

	rows(backend: 'wasm' | 'webgpu' = 'wasm'): readonly SuggestionRow[] {
		return suggestionsFor(this.job).map((suggestion) => ({
			suggestion,
			fit: fitsDevice(suggestion, this.#device, backend),
		}));
	}

	/** The most capable suggestion that fits this device (see `recommendedSuggestion`), or null. */
	recommended(backend: 'wasm' | 'webgpu' = 'wasm'): SuggestionRow | null {
		return recommendedSuggestion(this.job, this.#device, backend);
	}

	/**
	 * Chooses a row, unless it will not fit: loading it could crash the tab, so it is refused and
	 * kept in `refused` for its reason. True when chosen.
	 */
	pick(row: SuggestionRow): boolean {
		if (row.fit.verdict === 'will-not-fit') {
			this.refused = row;
			return false;
		}
		this.refused = null;
		this.#choose(row.suggestion);
		return true;
	}

	dismiss(): void {
		this.refused = null;
	}

	/** The fit on this device of a model whose size is known (bundled or suggested), or null. */
	fitOf(
		source: ModelSource,
		id: string,
		dtype: ModelDtype,
		backend: 'wasm' | 'webgpu' = 'wasm',
	): DeviceFit | null {
		const facts = knownModelFacts(source, id, dtype);
		return facts ? fitsDevice(facts, this.#device, backend) : null;
	}

	/** The estimated time to score `tokens` with a model of known size on this device. */
	scoringTime(
		facts: ModelFacts,
		dtype: ModelDtype,
		tokens: number,
		backend: 'wasm' | 'webgpu' = 'wasm',
	): ScoringTimeEstimate {
		const device = this.#device;
		return estimateScoringTime({
			parameters: facts.parameters,
			dtype,
			backend,
			threads: wasmThreadCount(device.hardwareConcurrency, device.crossOriginIsolated),
			tokens,
		});
	}
}

/** The last answer-job hub model chosen in Evals or Memory (id and dtype). */
export const LAST_ANSWER_MODEL_KEY = 'benchtop:last-answer-model';

export interface RememberedModel {
	readonly id: string;
	readonly dtype: ModelSuggestion['dtype'];
}

type StorageLike = Pick<Storage, 'getItem' | 'setItem'>;

function defaultStorage(): StorageLike | null {
	try {
		return globalThis.localStorage ?? null;
	} catch {
		return null;
	}
}

export function rememberAnswerModel(
	model: RememberedModel,
	storage: StorageLike | null = defaultStorage(),
): void {
	try {
		storage?.setItem(LAST_ANSWER_MODEL_KEY, JSON.stringify({ id: model.id, dtype: model.dtype }));
	} catch {
		// Storage full or blocked: the default stays the bundled model.
	}
}

export function rememberedAnswerModel(
	storage: StorageLike | null = defaultStorage(),
): RememberedModel | null {
	try {
		const raw = storage?.getItem(LAST_ANSWER_MODEL_KEY);
		const value: unknown = raw ? JSON.parse(raw) : null;
		if (typeof value !== 'object' || value === null) return null;
		const { id, dtype } = value as Record<string, unknown>;
		if (typeof id !== 'string' || !id) return null;
		return { id, dtype: dtype === 'fp16' || dtype === 'q8' ? dtype : 'fp32' };
	} catch {
		return null;
	}
}
