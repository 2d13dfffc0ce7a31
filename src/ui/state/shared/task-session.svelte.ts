/**
 * What the run sessions of the pages share (issue 17 item 3): running, the message in one wording,
 * progress with its ETA, cancel, the guarded run skeleton, and the stored runs with those to resume.
 */
import { asSentence, describeError } from '../../../core/messages/describe-error';
import type { ResumePlan, ResumeRule } from '../../../core/run/resume-plan';
import { estimateRemainingMs } from '../../../core/run/run-progress';
import type { UnreadableRun } from '../../../core/kinds/kind-registry';
import { deleteUnreadableRun } from '../../../storage/shared/runs-repository';

/** How a run ended. */
export type TaskStatus = 'done' | 'cancelled' | 'failed';

/** A run's counts: finished units out of all, tokens, and the time spent on it. */
export interface TaskProgress {
	readonly done: number;
	readonly total: number;
	readonly tokens: number;
	readonly elapsedMs: number;
}

/** A run's end: its status, and the error's text when it failed. */
export interface TaskEnd {
	readonly status: TaskStatus;
	readonly errorMessage?: string;
}

/**
 * The message of a run an error stopped, on every page: what happened, then that a Resume goes on
 * (issue 18). `noun`: what the run counts, plural ("items", "samples", "tests").
 */
export function runStoppedMessage(errorMessage: string, noun: string): string {
	return `The run stopped: ${asSentence(errorMessage)} Finished ${noun} are kept; fix the cause and resume.`;
}

/** The progress of a run not started yet. */
export const NO_PROGRESS: TaskProgress = { done: 0, total: 0, tokens: 0, elapsedMs: 0 };

/** What the Library asks of a kind's page session: is it busy, on which run; resume, delete. */
export interface KindSession {
	isWorkingOn(runId: number): boolean;
	readonly running: boolean;
	resume(runId: number): Promise<void>;
	/** Deletes stored run `runId` (and what is stored under it); rejects when it could not. */
	deleteRun(runId: number): Promise<void>;
	/**
	 * Whether `resume` opens the run's page itself (the suite session opens its results page when
	 * a run starts); otherwise the Library opens the kind's page first, where its progress shows.
	 */
	readonly resumeOpensPage?: boolean;
}

/** The session of a kind's own page (Evals, Memory, Stimuli): what its route asks of it too. */
export interface KindPageSession extends KindSession {
	/** Reads the page's stored runs again. */
	refreshRuns(): Promise<void>;
	/** Shows a stored run (`#/<page>/run/<id>`). */
	show(runId: number): Promise<void>;
	/** Opens a share link's data (`#/<page>/share/<data>`). */
	openShare(data: string): void;
}

/**
 * A kind page view's props: its session, and a shared run's payload (`#/<page>/share/…`) for a
 * page that acts on it at mount (KindPageHost opens it, and shows a stored run, itself).
 */
export interface KindPageProps<Session> {
	session: Session;
	share?: string | undefined;
}

/** The shared state of a page's run session; `Run` is the page's stored run record. */
export abstract class TaskSession<Run> {
	readonly #rule: ResumeRule<Run, string>;
	#running = $state(false);
	#cancelling = $state(false);
	#message = $state<string | null>(null);
	#progress = $state.raw<TaskProgress>(NO_PROGRESS);
	#runs = $state.raw<readonly Run[]>([]);
	#unreadable = $state.raw<readonly UnreadableRun[]>([]);
	#abort: AbortController | null = null;
	/** The stored run the run going on works on (set before guardedRun, cleared at its end). */
	#workingOn = $state<number | null>(null);

	/** `rule`: the run kind's resume rule, which also gives the words of the shared messages. */
	protected constructor(rule: ResumeRule<Run, string>) {
		this.#rule = rule;
	}

	get running(): boolean {
		return this.#running;
	}
	/** A cancel was asked for and the run has not ended yet. */
	protected get cancelling(): boolean {
		return this.#cancelling;
	}
	/** What went wrong, or what happened (cancelled, reproduced), for the user. */
	get message(): string | null {
		return this.#message;
	}
	get progress(): TaskProgress {
		return this.#progress;
	}
	/** Seconds left at the pace so far, or null before the first unit and once all are done. */
	get etaSeconds(): number | null {
		const { done, total, elapsedMs } = this.#progress;
		if (done === 0 || done >= total) return null;
		const remaining = estimateRemainingMs(done, total, elapsedMs);
		return remaining === null ? null : remaining / 1000;
	}
	/** The stored runs, newest first. */
	get runs(): readonly Run[] {
		return this.#runs;
	}
	/** Stored records of the page's kind that cannot be shown (listed apart, with Delete). */
	get unreadable(): readonly UnreadableRun[] {
		return this.#unreadable;
	}
	/** Stored runs a reload, a cancel or an error stopped with work left, offered for resume. */
	get resumable(): readonly Run[] {
		return this.stoppedRuns.map(({ run }) => run);
	}
	/** Stored runs a reload or a closed tab stopped (left `running`). */
	get interrupted(): readonly Run[] {
		return this.#runs.filter((run) => this.resumePlanOf(run)?.interrupted === true);
	}
	/** The resumable runs with their plans, for the page's notice. */
	get stoppedRuns(): readonly { readonly run: Run; readonly plan: ResumePlan }[] {
		return this.#runs.flatMap((run) => {
			const plan = this.resumePlanOf(run);
			return plan ? [{ run, plan }] : [];
		});
	}
	/** What a run counts, singular and plural ("sample", "samples"): the run kind's words. */
	get unit(): string {
		return this.#rule.unit;
	}
	get noun(): string {
		return this.#rule.noun;
	}
	/**
	 * Whether this session is scoring stored run `id` now. A record left `running` that no session
	 * of this tab works on was interrupted (storedRunStatusWord). Another tab's run is not known
	 * here: it reads as interrupted in this tab while that tab scores it.
	 */
	isWorkingOn(id: number): boolean {
		return this.#running && this.workingOnIds().includes(id);
	}
	/** The stored runs the run going on works on (a page with several per run overrides it). */
	protected workingOnIds(): readonly number[] {
		return this.#workingOn === null ? [] : [this.#workingOn];
	}
	/** Names the stored run the next guardedRun works on. */
	protected workOn(id: number): void {
		this.#workingOn = id;
	}

	/** How far a stored run got, and whether it can be resumed (null: it cannot). */
	resumePlanOf(run: Run): ResumePlan | null {
		return this.#rule.resumePlan(run);
	}

	/** Sets the message (null: none). */
	protected say(text: string | null): void {
		this.#message = text;
	}
	protected setProgress(progress: TaskProgress): void {
		this.#progress = progress;
	}
	/** Takes stored runs out of the list (e.g. one the user dismissed) until the next refresh. */
	protected dropRuns(drop: (run: Run) => boolean): void {
		this.#runs = this.#runs.filter((run) => !drop(run));
	}

	/** Stops the run going on (the page's work sees its signal abort); once per run. */
	cancel(): void {
		if (!this.#abort || this.#cancelling) return;
		this.#cancelling = true;
		this.#abort.abort();
	}

	async refreshRuns(): Promise<void> {
		try {
			this.#runs = await this.listRuns();
			this.#unreadable = await this.listUnreadable();
		} catch (error) {
			this.#message = `Past runs could not be read: ${describeError(error)}`;
		}
	}

	/** Deletes a stored record that cannot be shown, then re-reads the runs. */
	async deleteUnreadable(runId: number): Promise<void> {
		try {
			await deleteUnreadableRun(runId);
			this.#message = `Unreadable record ${runId} deleted.`;
		} catch (error) {
			this.#message = `Record ${runId} could not be deleted: ${describeError(error)}`;
		}
		await this.refreshRuns();
	}

	/** The page's stored runs (records it cannot show left out). */
	protected abstract listRuns(): Promise<readonly Run[]>;

	/** The page's stored records that cannot be shown; none unless the page lists them. */
	protected listUnreadable(): Promise<readonly UnreadableRun[]> {
		return Promise.resolve([]);
	}

	/** Stores a new run; null (and the message said) when storage refuses it. */
	protected async storeRun<T>(create: () => Promise<T>): Promise<T | null> {
		try {
			return await create();
		} catch (error) {
			this.#message = `The run could not be stored: ${describeError(error)}`;
			return null;
		}
	}

	/** A stored run read by `get`; null (and the message said) when it is gone. */
	protected async storedRun<T>(get: () => Promise<T | undefined>): Promise<T | null> {
		const found = await get();
		if (found) return found;
		this.#message = 'That run is no longer stored.';
		return null;
	}

	/** The message of a cancelled run: how far it got when that is known. A page with words of
	 * its own for a cancel (the suite run's) overrides it. */
	protected cancelledMessage(done?: number, total?: number): string {
		const { noun, resumePoint } = this.#rule;
		return done === undefined || total === undefined
			? `Cancelled; Resume goes on from ${resumePoint}.`
			: `Cancelled after ${done} of ${total} ${noun}; Resume goes on from there.`;
	}

	/**
	 * Runs `work` as the one run of the session: running while it goes, cancel aborts its signal.
	 * `work` says 'done' or 'cancelled' (its message set); a throw after cancel (or one `isCancel`
	 * knows) is a cancel, any other a failure with its described error as the message. `settle`,
	 * when given, runs once the end is known and before it is said (e.g. to store how it ended);
	 * the session stays running until it is through.
	 */
	protected async guardedRun(
		work: (signal: AbortSignal) => Promise<'done' | 'cancelled'>,
		isCancel: (error: unknown) => boolean = () => false,
		settle?: (end: TaskEnd) => Promise<void>,
	): Promise<TaskEnd> {
		const abort = new AbortController();
		this.#abort = abort;
		this.#running = true;
		this.#cancelling = false;
		this.#message = null;
		let end: TaskEnd;
		let thrown = false;
		try {
			end = { status: await work(abort.signal) };
		} catch (error) {
			thrown = true;
			end =
				abort.signal.aborted || isCancel(error)
					? { status: 'cancelled' }
					: { status: 'failed', errorMessage: describeError(error) };
		}
		try {
			if (settle) await settle(end);
		} finally {
			// A cancel or failure `work` threw is said here; a cancel it returned, it said itself.
			if (end.status === 'failed') {
				this.#message = runStoppedMessage(end.errorMessage ?? 'unknown error', this.#rule.noun);
			} else if (end.status === 'cancelled' && thrown) {
				this.#message = this.cancelledMessage();
			}
			this.#running = false;
			this.#cancelling = false;
			this.#abort = null;
			this.#workingOn = null;
		}
		return end;
	}
}
