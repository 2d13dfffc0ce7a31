import { describe, expect, it } from 'vitest';
import { MAX_PASS_MS, ModelWarmUp, WARM_UP_TEXTS } from '../../src/worker/model-warm-up';

/** A clock the passes move forward by hand. */
function clock() {
	let ms = 0;
	return { now: () => ms, advance: (by: number) => (ms += by) };
}

/** Resolves once `check` holds (microtask turns). */
async function until(check: () => boolean): Promise<void> {
	for (let turn = 0; turn < 1000 && !check(); turn++) await Promise.resolve();
	expect(check()).toBe(true);
}

describe('ModelWarmUp', () => {
	it('runs one sentence first, then every sentence, until its budget is spent', async () => {
		const time = clock();
		const warmUp = new ModelWarmUp(1000, time.now);
		const sizes: number[] = [];
		warmUp.start(async (texts) => {
			sizes.push(texts.length);
			time.advance(300);
		});
		await until(() => !warmUp.running);
		expect(sizes).toEqual([1, WARM_UP_TEXTS.length, WARM_UP_TEXTS.length, WARM_UP_TEXTS.length]);
	});

	it('ends after a pass slower than the longest a request may wait behind it', async () => {
		const time = clock();
		const warmUp = new ModelWarmUp(60_000, time.now);
		let passes = 0;
		warmUp.start(async () => {
			passes++;
			time.advance(MAX_PASS_MS + 1);
		});
		await until(() => !warmUp.running);
		expect(passes).toBe(1);
	});

	it('stops when asked: the pass in flight finishes, no other starts', async () => {
		const warmUp = new ModelWarmUp(60_000, clock().now);
		let passes = 0;
		let finishPass: (() => void) | undefined;
		const signals: AbortSignal[] = [];
		warmUp.start(
			(_texts, signal) =>
				new Promise<void>((resolve) => {
					passes++;
					signals.push(signal);
					finishPass = resolve;
				}),
		);
		await until(() => finishPass !== undefined);
		let stopped = false;
		const stopping = warmUp.stop().then(() => (stopped = true));
		await Promise.resolve();
		expect(stopped).toBe(false);
		expect(signals[0]?.aborted).toBe(true);
		finishPass?.();
		await stopping;
		expect(passes).toBe(1);
		expect(warmUp.running).toBe(false);
	});

	it('a stop right after start stops it before its first pass', async () => {
		const warmUp = new ModelWarmUp(60_000, clock().now);
		let passes = 0;
		warmUp.start(async () => {
			passes++;
		});
		await warmUp.stop();
		expect(passes).toBe(0);
	});

	it('a pass that fails ends the warm-up quietly', async () => {
		const warmUp = new ModelWarmUp(60_000, clock().now);
		let passes = 0;
		warmUp.start(async () => {
			passes++;
			throw new Error('the model cannot run');
		});
		await until(() => !warmUp.running);
		await warmUp.stop();
		expect(passes).toBe(1);
	});

	it('a second start waits for the first one to stop, and a budget of 0 never runs', async () => {
		const time = clock();
		const warmUp = new ModelWarmUp(500, time.now);
		const order: string[] = [];
		let release: (() => void) | undefined;
		warmUp.start(
			() =>
				new Promise<void>((resolve) => {
					order.push('first');
					release = resolve;
				}),
		);
		await until(() => release !== undefined);
		warmUp.start(async () => {
			order.push('second');
			time.advance(600);
		});
		await Promise.resolve();
		expect(order).toEqual(['first']);
		release?.();
		await until(() => !warmUp.running);
		expect(order).toEqual(['first', 'second']);

		const never = new ModelWarmUp(0, time.now);
		let ran = false;
		never.start(async () => {
			ran = true;
		});
		await never.stop();
		expect(ran).toBe(false);
	});
});
