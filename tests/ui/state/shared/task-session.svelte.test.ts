// The shared run session (TaskSession): cancel and failure wording with the page's noun, the
// resumable runs, the ETA, and the storage paths (a run not stored, a run no longer stored).
import { describe, expect, it } from 'vitest';
import { LTM_RESUME } from '../../../../src/core/ltm/ltm-run-record';
import type { LtmRunRecord } from '../../../../src/core/kinds/run-record';
import type { RunStatus } from '../../../../src/core/run/run-types';
import {
	TaskSession,
	runStoppedMessage,
	type TaskEnd,
} from '../../../../src/ui/state/shared/task-session.svelte';

interface FakeRun {
	readonly id: number;
	readonly status: RunStatus;
	readonly progress: LtmRunRecord['progress'];
}

const fakeRun = (id: number, status: RunStatus): FakeRun => ({
	id,
	status,
	progress: { testsDone: 1, testsTotal: 3, tokens: 0, elapsedMs: 0 },
});

class FakeSession extends TaskSession<FakeRun> {
	stored: readonly FakeRun[] = [];
	constructor() {
		super(LTM_RESUME);
	}
	protected listRuns(): Promise<readonly FakeRun[]> {
		return Promise.resolve(this.stored);
	}
	run(
		work: (signal: AbortSignal) => Promise<'done' | 'cancelled'>,
		settle?: (end: TaskEnd) => Promise<void>,
	) {
		return this.guardedRun(work, undefined, settle);
	}
	get stopping(): boolean {
		return this.cancelling;
	}
	counts(done: number, total: number, elapsedMs: number): void {
		this.setProgress({ done, total, tokens: 0, elapsedMs });
	}
	store(create: () => Promise<FakeRun>) {
		return this.storeRun(create);
	}
	runOn(id: number, work: () => Promise<'done' | 'cancelled'>) {
		this.workOn(id);
		return this.guardedRun(work);
	}
	find(id: number) {
		return this.storedRun(() => Promise.resolve(this.stored.find((run) => run.id === id)));
	}
}

describe('TaskSession', () => {
	it('runs once at a time: running while the work goes, a cancel says where Resume goes on', async () => {
		const session = new FakeSession();
		let seen = false;
		const end = session.run(
			(signal) =>
				new Promise((_, reject) => {
					seen = session.running;
					signal.addEventListener('abort', () => reject(new Error('aborted')));
				}),
		);
		session.cancel();
		expect(await end).toEqual({ status: 'cancelled' });
		expect(seen).toBe(true);
		expect(session.running).toBe(false);
		expect(session.message).toBe('Cancelled; Resume goes on from the last reply.');
	});

	it('words a failure as every page does, with the page noun', async () => {
		const session = new FakeSession();
		const end = await session.run(() => Promise.reject(new Error('the server answered 500')));
		expect(end).toEqual({ status: 'failed', errorMessage: 'the server answered 500' });
		expect(session.message).toBe(runStoppedMessage('the server answered 500', 'tests'));
		expect(session.message).toMatch(
			/^The run stopped: .* Finished tests are kept; fix the cause and resume\.$/,
		);
	});

	it('lists the resumable runs by the kind’s rule, the interrupted ones, the ETA at the pace so far', async () => {
		const session = new FakeSession();
		session.stored = [
			fakeRun(1, 'done'),
			fakeRun(2, 'running'),
			fakeRun(3, 'cancelled'),
			fakeRun(4, 'failed'),
		];
		await session.refreshRuns();
		expect(session.resumable.map((run) => run.id)).toEqual([2, 3, 4]);
		expect(session.interrupted.map((run) => run.id)).toEqual([2]);
		expect(session.stoppedRuns.map(({ run, plan }) => [run.id, plan.interrupted])).toEqual([
			[2, true],
			[3, false],
			[4, false],
		]);
		expect([session.unit, session.noun]).toEqual(['test', 'tests']);
		expect(session.resumePlanOf(fakeRun(3, 'cancelled'))).toEqual({
			done: 1,
			total: 3,
			interrupted: false,
		});
		expect(session.etaSeconds).toBeNull();
		session.counts(2, 6, 4000);
		expect(session.etaSeconds).toBe(8);
		session.counts(6, 6, 9000);
		expect(session.etaSeconds).toBeNull();
	});

	it('says when a run cannot be stored or is no longer stored', async () => {
		const session = new FakeSession();
		expect(await session.store(() => Promise.reject(new Error('quota exceeded')))).toBeNull();
		expect(session.message).toBe('The run could not be stored: quota exceeded');
		expect(await session.find(9)).toBeNull();
		expect(session.message).toBe('That run is no longer stored.');
	});

	it('hears a cancel once, and settles the end (still running) before saying it', async () => {
		const session = new FakeSession();
		let aborts = 0;
		const seen: { running: boolean; message: string | null; stopping: boolean }[] = [];
		const end = session.run(
			(signal) =>
				new Promise((_, reject) => {
					signal.addEventListener('abort', () => {
						aborts += 1;
						reject(new Error('aborted'));
					});
				}),
			(settled) => {
				expect(settled).toEqual({ status: 'cancelled' });
				seen.push({
					running: session.running,
					message: session.message,
					stopping: session.stopping,
				});
				return Promise.resolve();
			},
		);
		session.cancel();
		session.cancel();
		expect(session.stopping).toBe(true);
		expect(await end).toEqual({ status: 'cancelled' });
		expect(aborts).toBe(1);
		expect(seen).toEqual([{ running: true, message: null, stopping: true }]);
		expect(session.stopping).toBe(false);
		expect(session.message).toBe('Cancelled; Resume goes on from the last reply.');
	});

	it('says a failure once its settling is through, even when settling fails', async () => {
		const session = new FakeSession();
		const end = session.run(
			() => Promise.reject(new Error('disk full')),
			() => Promise.reject(new Error('the record could not be written')),
		);
		await expect(end).rejects.toThrow('the record could not be written');
		expect(session.running).toBe(false);
		expect(session.message).toBe(runStoppedMessage('disk full', 'tests'));
	});

	it('does nothing on a cancel when no run goes on', () => {
		const session = new FakeSession();
		session.cancel();
		expect(session.stopping).toBe(false);
		expect(session.message).toBeNull();
	});
});

describe('TaskSession.isWorkingOn', () => {
	it('is true for the stored run the run going on works on, and only while it goes', async () => {
		const session = new FakeSession();
		let seen: boolean[] = [];
		await session.runOn(7, async () => {
			seen = [session.isWorkingOn(7), session.isWorkingOn(8)];
			return 'done';
		});
		expect(seen).toEqual([true, false]);
		expect(session.isWorkingOn(7)).toBe(false);
	});
});
