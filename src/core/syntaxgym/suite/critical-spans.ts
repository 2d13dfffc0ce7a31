/**
 * A sentence cut into plain and critical stretches (the regions a suite's predictions look at),
 * so the items table can highlight them. Pure; the sentence comes from build-sentences.ts.
 */
import type { SuiteSentence } from './build-sentences';

export interface SentenceSpan {
	readonly text: string;
	/** The region number when the span is a critical region, else null. */
	readonly criticalRegion: number | null;
}

/**
 * `sentence.text` as consecutive spans: each non-empty critical region is its own span, the rest
 * of the text (other regions and the joining spaces) falls into plain spans. Joining the spans'
 * text gives `sentence.text` back.
 */
export function splitCriticalSpans(
	sentence: SuiteSentence,
	criticalRegions: readonly number[],
): SentenceSpan[] {
	const spans: SentenceSpan[] = [];
	let cursor = 0;
	const pushPlain = (end: number): void => {
		if (end > cursor) spans.push({ text: sentence.text.slice(cursor, end), criticalRegion: null });
	};
	for (const region of sentence.regions) {
		if (!criticalRegions.includes(region.regionNumber) || region.end <= region.start) continue;
		pushPlain(region.start);
		spans.push({
			text: sentence.text.slice(region.start, region.end),
			criticalRegion: region.regionNumber,
		});
		cursor = region.end;
	}
	pushPlain(sentence.text.length);
	return spans;
}
