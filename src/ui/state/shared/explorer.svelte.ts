/**
 * The explorer: any text scored by a bundled model (and a second one to compare), shown per
 * token or per word (words optionally with the beginning-of-word correction). Holds the choices
 * (also carried by the `#/explore?…` link) and the scored tokens; loading goes through the
 * caller's `load`, scoring through the inference client.
 */
import type { AppRoute } from '../../../core/routing/app-route';
import { MAX_EXPLORE_TEXT_CHARS } from '../../../core/routing/app-route';
import { describeError } from '../../../core/messages/describe-error';
import { displayToken, type DisplayToken } from '../../../core/syntaxgym/results/results-tables';
import { heatScaleBits } from '../../../core/syntaxgym/charts/surprisal-heat';
import {
	BUNDLED_MODEL_IDS,
	DEFAULT_MODEL_ID,
	type ModelSpec,
	type SurprisalConvention,
} from '../../../core/model/model-spec';
import type { ScoredToken } from '../../../core/scoring/scored-token';
import { mergeRegionTokensIntoWords } from '../../../core/scoring/word-surprisal';
import {
	correctRegionWords,
	sumCorrectedSurprisalsToWords,
} from '../../../core/scoring/word-boundary-correction';
import type { InferenceClientApi, ModelInfo } from '../../../worker/protocol';

export type ExplorerUnit = 'tokens' | 'words';
export type ExplorerStatus = 'idle' | 'scoring' | 'done' | 'failed';

/** One model's scoring of the text, as shown (tokens or words). */
export interface ExplorerSeries {
	readonly modelId: string;
	/** Tokens or words; special tokens (BOS) are kept and flagged. */
	readonly units: readonly DisplayToken[];
	/** Sum over the units that are not special, in bits. */
	readonly totalBits: number;
	/** The units are words with the beginning-of-word correction. */
	readonly bowCorrected: boolean;
}

interface ScoredText {
	readonly modelId: string;
	readonly text: string;
	readonly tokens: readonly ScoredToken[];
}

/** The endpoint model set on the Run page, offered beside the bundled ones. */
export interface ExplorerEndpoint {
	/** Its name in the model lists and the link (the model id; never the URL or a key). */
	readonly id: string;
	/** A client for it: `open` checks the endpoint, `call('scoreTexts')` scores. */
	readonly connect: () => Pick<InferenceClientApi, 'call'> & {
		open: () => Promise<Pick<ModelInfo, 'modelKey'>>;
	};
}

export interface ExplorerOptions {
	readonly client: Pick<InferenceClientApi, 'call'>;
	/** Loads a model (the app passes the model catalog's load, which reuses a loaded model). */
	readonly load: (spec: ModelSpec) => Promise<ModelInfo>;
	/** The endpoint model, when one is set (read at each use). */
	readonly endpoint?: () => ExplorerEndpoint | null;
}

function isBundled(id: string | undefined): id is string {
	return id !== undefined && (BUNDLED_MODEL_IDS as readonly string[]).includes(id);
}

function displayTokens(scored: ScoredText): DisplayToken[] {
	return scored.tokens.map((token) => displayToken(token, scored.text));
}

/** The words with the beginning-of-word correction, or null when the scoring has no boundary
 * values (or, never for engine tokens, they cannot be placed). */
function correctedUnits(
	scored: ScoredText,
	merged: readonly { readonly tokens: readonly DisplayToken[] }[],
): readonly DisplayToken[] | null {
	const words = sumCorrectedSurprisalsToWords(scored.text, scored.tokens);
	if (words === null) return null;
	try {
		return correctRegionWords(merged, words)[0]?.tokens ?? [];
	} catch {
		return null;
	}
}

export class Explorer {
	/** The bundled models, and the endpoint model when one is set. */
	get modelIds(): readonly string[] {
		const endpoint = this.#options.endpoint?.();
		return endpoint ? [...BUNDLED_MODEL_IDS, endpoint.id] : BUNDLED_MODEL_IDS;
	}
	text = $state('');
	model = $state<string>(DEFAULT_MODEL_ID);
	/** The model to compare with, or '' for none. */
	compare = $state('');
	unit = $state<ExplorerUnit>('tokens');
	/** Bundled models were trained with BOS before every text. */
	convention = $state<SurprisalConvention>('bos');
	/**
	 * Words with the beginning-of-word correction: the text is then scored with word boundaries
	 * (one more position); shown corrected once it is (see `needsRescoring`).
	 */
	bowCorrection = $state(false);

	#status = $state<ExplorerStatus>('idle');
	#message = $state<string | null>(null);
	#scored = $state.raw<readonly ScoredText[]>([]);
	#generation = 0;
	readonly #options: ExplorerOptions;

	#series = $derived.by((): ExplorerSeries[] =>
		this.#scored.map((scored) => {
			const tokens = displayTokens(scored);
			const merged =
				this.unit === 'words' ? mergeRegionTokensIntoWords([{ tokens }]) : [{ tokens }];
			const corrected =
				this.unit === 'words' && this.bowCorrection ? correctedUnits(scored, merged) : null;
			const units = corrected ?? merged[0]?.tokens ?? [];
			const totalBits = units
				.filter((unit) => !unit.special)
				.reduce((sum, unit) => sum + unit.surprisalBits, 0);
			return { modelId: scored.modelId, units, totalBits, bowCorrected: corrected !== null };
		}),
	);

	constructor(options: ExplorerOptions) {
		this.#options = options;
	}

	get status(): ExplorerStatus {
		return this.#status;
	}

	/** What went wrong, or null. */
	get message(): string | null {
		return this.#message;
	}

	get series(): readonly ExplorerSeries[] {
		return this.#series;
	}

	/** Bits at which the heat strips saturate: shared by the models shown. */
	get scaleBits(): number {
		return heatScaleBits(
			this.#series.flatMap((s) => s.units.filter((u) => !u.special).map((u) => u.surprisalBits)),
		);
	}

	/**
	 * The correction is asked for but the shown scoring has no word-boundary values (it was scored
	 * without them): score again to show corrected words.
	 */
	get needsRescoring(): boolean {
		return (
			this.bowCorrection &&
			this.#scored.some(
				(scored) => sumCorrectedSurprisalsToWords(scored.text, scored.tokens) === null,
			)
		);
	}

	/** Why scoring is not possible now, or null. */
	get problem(): string | null {
		if (this.text.trim() === '') return 'Type or paste a text first.';
		if (this.text.length > MAX_EXPLORE_TEXT_CHARS) {
			return `The text has ${this.text.length} characters; the explorer takes up to ${MAX_EXPLORE_TEXT_CHARS}.`;
		}
		return null;
	}

	/** The choices as a route (for the shareable link). */
	get route(): AppRoute {
		return {
			view: 'explore',
			...(this.text === '' ? {} : { text: this.text }),
			model: this.model,
			...(this.compare === '' ? {} : { compare: this.compare }),
			unit: this.unit,
			...(this.bowCorrection ? { bow: true } : {}),
		};
	}

	/** Takes the choices a link carries (unknown models are ignored). */
	applyRoute(route: AppRoute): void {
		if (route.view !== 'explore') return;
		if (route.text !== undefined) this.text = route.text;
		if (isBundled(route.model)) this.model = route.model;
		this.compare = isBundled(route.compare) ? route.compare : '';
		if (route.unit) this.unit = route.unit;
		this.bowCorrection = route.bow === true;
	}

	/** Scores the text with the model (then the compared one). Never throws. */
	async explore(): Promise<void> {
		const problem = this.problem;
		if (problem !== null) {
			this.#status = 'failed';
			this.#message = problem;
			return;
		}
		const generation = ++this.#generation;
		const text = this.text;
		const convention = this.convention;
		const wordBoundaries = this.bowCorrection;
		const modelIds = [
			this.model,
			...(this.compare && this.compare !== this.model ? [this.compare] : []),
		];
		this.#status = 'scoring';
		this.#message = null;
		try {
			const scored: ScoredText[] = [];
			const endpoint = this.#options.endpoint?.();
			for (const modelId of modelIds) {
				const remote = endpoint?.id === modelId ? endpoint.connect() : null;
				const client = remote ?? this.#options.client;
				const info = remote
					? await remote.open()
					: await this.#options.load({
							source: 'bundled',
							id: modelId,
							dtype: 'fp32',
							backend: 'wasm',
						});
				const result = await client.call('scoreTexts', {
					modelKey: info.modelKey,
					texts: [text],
					convention,
					...(wordBoundaries ? { wordBoundaries: true } : {}),
				});
				scored.push({ modelId, text, tokens: result.texts[0]?.tokens ?? [] });
				if (generation !== this.#generation) return;
			}
			this.#scored = scored;
			this.#status = 'done';
		} catch (error) {
			if (generation !== this.#generation) return;
			this.#status = 'failed';
			this.#message = `The text could not be scored: ${describeError(error)}`;
		}
	}
}
