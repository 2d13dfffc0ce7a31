/**
 * Where Benchtop's Evals port knowingly differs from upstream openai/evals, with stable ids so a
 * run can record the ones that apply (reference §4.4 "allowed, documented divergences"). Data only.
 */

export interface EvalsDivergence {
	readonly id: string;
	readonly text: string;
}

export const EVALS_DIVERGENCES: readonly EvalsDivergence[] = [
	{
		id: 'bootstrap-seeded',
		text: 'boostrap_std draws from Random(seed) (the run seed); upstream uses the unseeded global random, so its value differs from run to run.',
	},
	{
		id: 'json-numbers',
		text: 'JSON is read with JSON.parse: integers beyond 2^53 lose precision (Python compares them exactly), NaN / Infinity literals are rejected, and 1.0 and 1 cannot be told apart (both print as 1 in grader prompts and logs, except under float keys such as accuracy or score).',
	},
	{
		id: 'chat-spec-append',
		text: 'An answer prompt appended to a chat-list spec prompt is appended once per sample; upstream mutates the shared spec and appends it again on every sample.',
	},
	{
		id: 'jsonl-folder-order',
		text: 'A samples folder is read in file-name order; upstream uses the file system listing order.',
	},
	{
		id: 'builtin-specs',
		text: "fact, closedqa and battle resolve to Benchtop's own-worded specs unless the registry has modelgraded/<name>.yaml; upstream's registry ships its own wording (load it for byte-identical grader prompts).",
	},
	{
		id: 'answer-prompts',
		text: "Answer prompts are Benchtop's own wording by default; load upstream's answer-prompts file for byte-identical grader prompts.",
	},
	{
		id: 'alias-loop',
		text: 'An alias loop is reported as an error; upstream loops forever.',
	},
	{
		id: 'format-fields',
		text: 'Placeholders with a conversion, format spec or index ({x!r}, {x:>4}, {x[0]}) are rejected; no upstream spec uses them.',
	},
	{
		id: 'event-order',
		text: 'Samples run one at a time by default (upstream: 10 threads, EVALS_THREADS), so event ids follow the shuffled sample order.',
	},
];
