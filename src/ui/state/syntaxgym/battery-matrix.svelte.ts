/**
 * The model × suite matrix page: reads the stored runs a matrix link names (a battery and its
 * peers, picked runs, or the newest battery) with their suites and outcomes, and holds the two
 * columns being compared. Reads storage through repositories; the matrix is the core's.
 */
import {
	buildBatteryMatrix,
	compareMatrixColumns,
	planMatrix,
	writeMatrixCsv,
	type BatteryMatrix,
	type MatrixComparison,
	type MatrixRunLoad,
} from '../../../core/syntaxgym/battery/battery-matrix';
import { describeError } from '../../../core/messages/describe-error';
import { listSuiteRuns } from '../../../storage/syntaxgym/suite-runs-repository';
import { loadStoredRun } from '../../io/stored-run';

export type BatteryMatrixStatus = 'idle' | 'loading' | 'ready' | 'empty' | 'failed';

/** What a matrix link names (the `matrix` route without its view). */
export interface MatrixRequest {
	readonly batteryId?: string;
	readonly runIds?: readonly number[];
}

export class BatteryMatrixState {
	#status = $state<BatteryMatrixStatus>('idle');
	#message = $state<string | null>(null);
	#matrix = $state.raw<BatteryMatrix | null>(null);
	#columnA = $state(0);
	#columnB = $state(1);
	#generation = 0;

	#comparison = $derived.by((): MatrixComparison | null => {
		const matrix = this.#matrix;
		const count = matrix?.columns.length ?? 0;
		if (matrix === null || this.#columnA >= count || this.#columnB >= count) return null;
		return compareMatrixColumns(matrix, this.#columnA, this.#columnB);
	});

	/** `empty`: the link names no battery and none is stored (or no picked run is). */
	get status(): BatteryMatrixStatus {
		return this.#status;
	}

	get message(): string | null {
		return this.#message;
	}

	get matrix(): BatteryMatrix | null {
		return this.#matrix;
	}

	/** Index of the first compared column. */
	get columnA(): number {
		return this.#columnA;
	}

	set columnA(index: number) {
		this.#columnA = index;
	}

	/** Index of the second compared column. */
	get columnB(): number {
		return this.#columnB;
	}

	set columnB(index: number) {
		this.#columnB = index;
	}

	/** Columns A and B compared item by item; null with fewer than two columns. */
	get comparison(): MatrixComparison | null {
		return this.#comparison;
	}

	/** The matrix as the long-form battery CSV. */
	csv(): string {
		return this.#matrix === null ? '' : writeMatrixCsv(this.#matrix);
	}

	/** Reads the runs `request` names and builds the matrix. Never throws; see `message`. */
	async open(request: MatrixRequest): Promise<void> {
		const generation = ++this.#generation;
		this.#status = 'loading';
		this.#message = null;
		try {
			const plan = planMatrix(request, await listSuiteRuns());
			if (generation !== this.#generation) return;
			if (plan === undefined || plan.columns.length === 0) {
				this.#matrix = null;
				this.#status = 'empty';
				return;
			}
			// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a lookup, not UI state
			const loads = new Map<number, MatrixRunLoad>();
			for (const run of plan.columns.flatMap((column) => column.runs)) {
				loads.set(run.id, await this.#load(run.id));
				if (generation !== this.#generation) return;
			}
			this.#matrix = buildBatteryMatrix(plan, loads);
			this.#columnA = 0;
			this.#columnB = Math.min(1, plan.columns.length - 1);
			this.#status = 'ready';
		} catch (error) {
			if (generation !== this.#generation) return;
			this.#status = 'failed';
			this.#message = describeError(error);
		}
	}

	async #load(runId: number): Promise<MatrixRunLoad> {
		try {
			const { results } = await loadStoredRun(runId);
			return { ok: true, suite: results.suite, outcomes: results.outcomes };
		} catch (error) {
			return { ok: false, message: describeError(error) };
		}
	}
}
