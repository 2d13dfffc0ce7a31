import { describe, expect, it } from 'vitest';
import {
	packOutcomeCodes,
	type OutcomeCode,
	type ResultFingerprint,
} from '../../../../src/core/syntaxgym/share/result-fingerprint';
import { readSharedAccuracy } from '../../../../src/core/syntaxgym/share/shared-accuracy';

function fingerprint(
	codes: OutcomeCode[],
	items: number,
	predictionCount: number,
	metrics: ResultFingerprint['metrics'],
): ResultFingerprint {
	return {
		metrics,
		itemNumbers: Array.from({ length: items }, (_, index) => index + 1),
		predictionCount,
		quantumBits: 1e-6,
		outcomes: packOutcomeCodes(codes),
		digests: [],
		keyRegions: [],
		keyValues: [],
	};
}

describe('readSharedAccuracy', () => {
	it('counts per prediction (item, then prediction order in the packed codes)', () => {
		// 3 items × 2 predictions, one metric: item 1 [T, F], item 2 [T, T], item 3 [F, missing].
		const codes: OutcomeCode[] = ['true', 'false', 'true', 'true', 'false', 'missing'];
		expect(readSharedAccuracy(fingerprint(codes, 3, 2, ['sum']))).toEqual([
			{ predictionId: 0, metric: 'sum', correct: 2, total: 3 },
			{ predictionId: 1, metric: 'sum', correct: 1, total: 2 },
		]);
	});

	it('separates metrics (metric is the fastest-changing index)', () => {
		// 2 items × 1 prediction × [sum, mean]: item 1 [T, F], item 2 [T, T].
		const codes: OutcomeCode[] = ['true', 'false', 'true', 'true'];
		expect(readSharedAccuracy(fingerprint(codes, 2, 1, ['sum', 'mean']))).toEqual([
			{ predictionId: 0, metric: 'sum', correct: 2, total: 2 },
			{ predictionId: 0, metric: 'mean', correct: 1, total: 2 },
		]);
	});

	it('gives null when the codes do not match the counts', () => {
		expect(readSharedAccuracy(fingerprint(['true'], 9, 2, ['sum']))).toBeNull();
	});
});
