/**
 * Which sentence an alignment is about, so alignment errors can name it. Data + wording only.
 */
import { AlignmentError } from '../../errors';

export interface AlignmentContext {
	readonly itemNumber?: number;
	readonly conditionName?: string;
	/** 0-based position of the sentence in the suite (lm-zoo `sentence_id` − 1). */
	readonly sentenceIndex?: number;
}

/** `item 3, condition "what_gap" (sentence 9)`, or as much of it as is known. */
export function describeSentence(context: AlignmentContext): string {
	const parts: string[] = [];
	if (context.itemNumber !== undefined) parts.push(`item ${context.itemNumber}`);
	if (context.conditionName !== undefined) {
		parts.push(`condition ${JSON.stringify(context.conditionName)}`);
	}
	const where = parts.join(', ');
	if (context.sentenceIndex === undefined) return where === '' ? 'sentence' : where;
	const sentence = `sentence ${context.sentenceIndex + 1}`;
	return where === '' ? sentence : `${where} (${sentence})`;
}

/** An AlignmentError whose message starts with the sentence and whose location holds it. */
export function createAlignmentError(
	context: AlignmentContext,
	problem: string,
	tokenIndex?: number,
): AlignmentError {
	return new AlignmentError(`${describeSentence(context)}: ${problem}`, {
		...(context.sentenceIndex === undefined ? {} : { sentenceIndex: context.sentenceIndex }),
		...(tokenIndex === undefined ? {} : { tokenIndex }),
	});
}
