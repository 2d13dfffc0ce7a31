/**
 * Opening a share link: its decoded payload, the suite it carries (checked against its SHA-256),
 * running it again on request, and the comparison of the new results with the link's fingerprint.
 * Decoding and comparing are the core's; nothing from the link is executed or used as markup.
 */
import { describeError } from '../../../core/messages/describe-error';
import { sha256Hex } from '../../../core/hash/sha256';
import type { RunModelSpec } from '../../../core/run/run-types';
import {
	compareFingerprint,
	type FingerprintComparison,
} from '../../../core/syntaxgym/share/compare-fingerprint';
import {
	decodeShareLink,
	type DecodeShareLinkResult,
} from '../../../core/syntaxgym/share/share-link';
import { parseSuite } from '../../../core/syntaxgym/suite/parse-suite';
import type { Suite } from '../../../core/syntaxgym/suite/types';
import type { InferenceClientApi } from '../../../worker/protocol';
import { fetchSuiteText } from '../../io/suite-sources';
import { loadReproducedRun } from '../../io/stored-run';
import type { ModelLoader } from './suite-run-session.svelte';
import { SuiteRunSession } from './suite-run-session.svelte';

export type ReproductionStatus = 'idle' | 'fetching-suite' | 'running' | 'compared' | 'failed';

/** A model spec this browser can run: a run made by the CLI (`node-cpu`) is re-run on WASM; an
 * endpoint stays the endpoint (it must be reachable from this page). */
export function browserSpecOf(spec: RunModelSpec): RunModelSpec {
	return spec.source !== 'openai' && spec.backend === 'node-cpu'
		? { ...spec, backend: 'wasm' }
		: spec;
}

export class ShareReproduction {
	readonly decoded: DecodeShareLinkResult;
	readonly #appVersion: string;
	#suiteText = $state<string | null>(null);
	#suite = $state.raw<Suite | null>(null);
	#suiteProblem = $state<string | null>(null);
	#status = $state<ReproductionStatus>('idle');
	#message = $state<string | null>(null);
	#comparison = $state.raw<FingerprintComparison | null>(null);
	#session: SuiteRunSession | null = null;
	#runId = $state<number | null>(null);

	constructor(fragment: string, appVersion: string) {
		this.#appVersion = appVersion;
		this.decoded = decodeShareLink(fragment, { appVersion });
		if (this.decoded.ok && this.decoded.payload.suite.kind === 'inline') {
			this.#acceptSuiteText(this.decoded.payload.suite.text);
		}
	}

	get suiteText(): string | null {
		return this.#suiteText;
	}

	/** The parsed suite once its text is known and matches the link's SHA-256. */
	get suite(): Suite | null {
		return this.#suite;
	}

	/** Why the suite cannot be used (changed since the link was made, does not parse). */
	get suiteProblem(): string | null {
		return this.#suiteProblem;
	}

	get status(): ReproductionStatus {
		return this.#status;
	}

	get message(): string | null {
		return this.#message;
	}

	get comparison(): FingerprintComparison | null {
		return this.#comparison;
	}

	/** The SuiteRunSession of the reproduction run (progress), while and after it runs. */
	get session(): SuiteRunSession | null {
		return this.#session;
	}

	/** The new run's id in this browser's history. */
	get runId(): number | null {
		return this.#runId;
	}

	/** Fetches a suite the link names by URL (only on request: the user sees the URL first). */
	async fetchSuite(): Promise<void> {
		if (!this.decoded.ok || this.decoded.payload.suite.kind !== 'url') return;
		this.#status = 'fetching-suite';
		const fetched = await fetchSuiteText(this.decoded.payload.suite.url);
		this.#status = 'idle';
		if (!fetched.ok) {
			this.#suiteProblem = fetched.message;
			return;
		}
		this.#acceptSuiteText(fetched.text);
	}

	/**
	 * Runs the link's suite with its model, convention and word-boundary option (the boundary
	 * values are computed again), then compares with the fingerprint.
	 */
	async reproduce(client: InferenceClientApi, models: ModelLoader): Promise<void> {
		if (!this.decoded.ok || this.#suite === null || this.#suiteText === null) return;
		if (this.#status === 'running') return;
		const { payload } = this.decoded;
		this.#status = 'running';
		this.#message = null;
		this.#comparison = null;
		const session = new SuiteRunSession({ client, models, appVersion: this.#appVersion });
		this.#session = session;
		try {
			const run = await session.start(
				{
					suiteText: this.#suiteText,
					suite: this.#suite,
					origin: 'import',
					sourceName: 'share link',
				},
				browserSpecOf(payload.model),
				payload.convention,
				payload.wordBoundaries ? { wordBoundaries: true } : {},
			);
			if (!run || run.status !== 'done') {
				this.#status = 'failed';
				this.#message = session.message ?? 'The run did not finish.';
				return;
			}
			this.#runId = run.id;
			this.#comparison = compareFingerprint(payload, await loadReproducedRun(run.id));
			this.#status = 'compared';
		} catch (error) {
			this.#status = 'failed';
			this.#message = `The run could not be compared: ${describeError(error)}`;
		}
	}

	#acceptSuiteText(text: string): void {
		if (!this.decoded.ok) return;
		if (sha256Hex(text) !== this.decoded.payload.suiteSha256) {
			this.#suiteProblem =
				'The suite is not the one the link was made with (its SHA-256 differs): it has changed since.';
			return;
		}
		const parsed = parseSuite(text);
		if (!parsed.ok) {
			this.#suiteProblem = `The suite in the link does not parse (${parsed.diagnostics.length} problem${parsed.diagnostics.length === 1 ? '' : 's'}).`;
			return;
		}
		this.#suiteText = text;
		this.#suite = parsed.suite;
		this.#suiteProblem = null;
	}
}

/** Why the comparison can differ, in words, for each setting that differs. */
export function explainSettingDifference(setting: string): string {
	switch (setting) {
		case 'model.backend':
			return 'WebGPU and WASM compute in a different order (and WebGPU may use other kernels), so surprisals can differ in the last digits and a near-tie outcome can flip.';
		case 'model.dtype':
			return 'A different dtype (fp32, fp16, q8) changes the weights and the arithmetic: surprisals differ.';
		case 'model.revision':
			return 'A different revision of the model has different weights.';
		case 'model.id':
		case 'model.model':
		case 'model.source':
			return 'It is a different model.';
		case 'model.baseUrl':
			return 'Another server answered: it may serve other weights, dtype or kernels under the same model id.';
		case 'convention':
			return 'A different surprisal convention (BOS/EOS) changes which tokens are scored.';
		case 'appVersion':
			return 'A different version of Benchtop may tokenize, align or round differently.';
		default:
			return '';
	}
}
