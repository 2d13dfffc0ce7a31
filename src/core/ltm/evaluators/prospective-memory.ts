/**
 * Prospective Memory (a callback test) and the declarative `watch`: the agent's replies from the
 * one to the question on are counted (that reply is the 1st). Until the nth reply exists: score 1,
 * "Not yet seen", not finished. Then 1 when the standardised quote is in the nth reply and in no
 * other, else 0; the test finishes either way.
 */
import { standardise } from '../shared/text-measures';
import type { JsonValue, WatchSpec } from '../shared/types';

export interface CallbackVerdict {
	readonly score: number;
	readonly reasons: readonly string[];
	readonly finished: boolean;
}

export const NOT_YET_SEEN = 'Not yet seen';

/** Generic watch over the replies counted from the watched line's reply. */
export function evaluateWatch(spec: WatchSpec, replies: readonly string[]): CallbackVerdict {
	if (replies.length < spec.nthResponse) {
		return { score: 1, reasons: [NOT_YET_SEEN], finished: false };
	}
	const normalise = spec.normalise === 'standardise' ? standardise : (text: string) => text;
	const needle = normalise(spec.mustContain);
	const target = replies[spec.nthResponse - 1] ?? '';
	if (!normalise(target).includes(needle)) {
		return {
			score: 0,
			reasons: ['The text is not in the reply where it was asked for.'],
			finished: true,
		};
	}
	if (
		spec.exclusive &&
		replies.some(
			(reply, index) => index !== spec.nthResponse - 1 && normalise(reply).includes(needle),
		)
	) {
		return { score: 0, reasons: ['The text also appears in another reply.'], finished: true };
	}
	return { score: 1, reasons: ['The text is in the right reply, and only there.'], finished: true };
}

/** The watch of a Prospective Memory definition: expected `[[quote, author, n]]`, asked on the question line. */
export function prospectiveMemoryWatch(
	expected: readonly JsonValue[],
	questionLine: number,
): WatchSpec {
	const entry = expected[0];
	const [quote, , nth] = Array.isArray(entry) ? entry : [];
	return {
		afterLine: questionLine,
		nthResponse: typeof nth === 'number' ? nth : Number(nth),
		mustContain: typeof quote === 'string' ? quote : String(quote ?? ''),
		normalise: 'standardise',
		exclusive: true,
	};
}
