/**
 * The sharer's accuracy per prediction and metric, read from a share link's result fingerprint,
 * so a link can show its numbers before anyone re-runs it. Pure.
 */
import type { MetricName } from '../suite/types';
import { unpackOutcomeCodes, type ResultFingerprint } from './result-fingerprint';

export interface SharedAccuracy {
	readonly predictionId: number;
	readonly metric: MetricName;
	/** Items where the prediction held. */
	readonly correct: number;
	/** Items with an outcome (missing ones left out). */
	readonly total: number;
}

/** One row per prediction × metric (prediction order, then metric order); null when the packed
 * outcomes do not match the fingerprint's counts. */
export function readSharedAccuracy(fingerprint: ResultFingerprint): SharedAccuracy[] | null {
	const { itemNumbers, predictionCount, metrics } = fingerprint;
	const codes = unpackOutcomeCodes(
		fingerprint.outcomes,
		itemNumbers.length * predictionCount * metrics.length,
	);
	if (!codes) return null;
	const rows: SharedAccuracy[] = [];
	for (let predictionId = 0; predictionId < predictionCount; predictionId++) {
		metrics.forEach((metric, metricIndex) => {
			let correct = 0;
			let total = 0;
			for (let itemIndex = 0; itemIndex < itemNumbers.length; itemIndex++) {
				const code =
					codes[(itemIndex * predictionCount + predictionId) * metrics.length + metricIndex];
				if (code === 'missing' || code === undefined) continue;
				total++;
				if (code === 'true') correct++;
			}
			rows.push({ predictionId, metric, correct, total });
		});
	}
	return rows;
}
