/**
 * What an Evals share link says about the sharer's run before anything is re-run: the models,
 * the verdicts counted (accuracy where they are correct / wrong) and each sample with its verdict.
 * Read from the decoded link only; pure.
 */
import { describeModelSpec } from '../model/model-spec';
import type { EvalsSharePayload } from './evals-share-payload';
import type { JsonValue } from './shared/types';

/** One shared sample: its id, the sharer's verdict, and its input and ideal as text. */
export interface SharedSampleRow {
	readonly sampleId: string;
	readonly verdict: string;
	readonly input: string;
	readonly ideal: string;
}

export interface SharedEvalsRun {
	/** The model under test (first policy), as run records name it. */
	readonly model: string;
	readonly grader: string | null;
	/** Correct of correct + wrong verdicts; null when the verdicts are a grader's choices. */
	readonly accuracy: { readonly correct: number; readonly total: number } | null;
	/** How many samples got each verdict, most first (ties by name). */
	readonly verdictCounts: readonly { readonly verdict: string; readonly count: number }[];
	/** The shared samples in sample order. */
	readonly samples: readonly SharedSampleRow[];
}

function valueText(value: JsonValue | undefined): string {
	if (value === undefined) return '';
	if (typeof value === 'string') return value;
	if (Array.isArray(value) && value.every((entry) => isMessage(entry))) {
		return value.map((message) => `${message.name ?? message.role}: ${message.content}`).join('\n');
	}
	return JSON.stringify(value);
}

function isMessage(value: JsonValue): value is { role: string; content: string; name?: string } {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
	const record = value as { readonly [key: string]: JsonValue };
	return typeof record.role === 'string' && typeof record.content === 'string';
}

/** The index at the end of a sample id (`capitals.test.7` → 7), or null. */
function sampleIndex(sampleId: string): number | null {
	const match = /\.(\d+)$/u.exec(sampleId);
	return match ? Number(match[1]) : null;
}

/** The sharer's run as a link carries it. */
export function summarizeSharedEvalsRun(payload: EvalsSharePayload): SharedEvalsRun {
	const policy = payload.models.policy[0];
	const counts = new Map<string, number>();
	const samples: (SharedSampleRow & { index: number })[] = [];
	for (const [sampleId, verdict] of Object.entries(payload.verdicts)) {
		counts.set(verdict, (counts.get(verdict) ?? 0) + 1);
		const index = sampleIndex(sampleId);
		const sample = index === null ? undefined : payload.eval.samples[index];
		samples.push({
			sampleId,
			verdict,
			input: valueText(sample?.input),
			ideal: valueText(sample?.ideal),
			index: index ?? Number.MAX_SAFE_INTEGER,
		});
	}
	samples.sort((a, b) => a.index - b.index || a.sampleId.localeCompare(b.sampleId));
	const correct = counts.get('correct') ?? 0;
	const wrong = counts.get('wrong') ?? 0;
	const graded = payload.eval.kind === 'modelgraded';
	return {
		model: policy ? describeModelSpec(policy) : 'unknown',
		grader: payload.models.grader ? describeModelSpec(payload.models.grader) : null,
		accuracy: graded || correct + wrong === 0 ? null : { correct, total: correct + wrong },
		verdictCounts: [...counts]
			.map(([verdict, count]) => ({ verdict, count }))
			.sort((a, b) => b.count - a.count || a.verdict.localeCompare(b.verdict)),
		samples: samples.map(({ index: _index, ...row }) => row),
	};
}
