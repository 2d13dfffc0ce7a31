/** The Evals family as a kind of run (OpenAI Evals on generative models), for the kind registry. Pure. */
import * as v from 'valibot';
import { describeModelSpec } from '../model/model-spec';
import type { RunKindDefinition } from '../run/run-kind';
import {
	EVALS_BUNDLE,
	readEvalsRunBundle,
	serializeEvalsRunBundle,
	type EvalsRunBundle,
} from './evals-run-bundle';
import { EVALS_GLOSSARY } from './evals-glossary';
import { EVALS_RESUME, type EvalsRunRecord } from './evals-run-record';
import {
	EVALS_SHARE,
	decodeEvalsShare,
	encodeEvalsShare,
	type EvalsSharePayload,
} from './evals-share-payload';

const Count = v.pipe(v.number(), v.minValue(0));
const Model = v.looseObject({ source: v.string() });

export const EVALS_RUN_KIND: RunKindDefinition<
	EvalsRunRecord,
	EvalsRunBundle,
	EvalsSharePayload,
	(typeof EVALS_GLOSSARY)[number]['id']
> = {
	kind: 'evals',
	label: 'Evals',
	page: { name: 'Evals', route: '#/evals' },
	storedEntries: {
		evalName: v.string(),
		models: v.looseObject({ policy: v.array(Model), grader: v.optional(Model) }),
		progress: v.looseObject({ done: Count, total: Count, tokens: Count, elapsedMs: v.number() }),
	},
	resume: EVALS_RESUME,
	models: (run) => [...run.models.policy, ...(run.models.grader ? [run.models.grader] : [])],
	modelRoles: (run) => [
		...run.models.policy.map((spec) => ({ role: 'policy', spec })),
		...(run.models.grader ? [{ role: 'grader', spec: run.models.grader }] : []),
	],
	progress: (run) => ({ done: run.progress.done, total: run.progress.total }),
	openRoute: (runId) => `#/evals/run/${runId}`,
	bundle: {
		...EVALS_BUNDLE,
		read: readEvalsRunBundle,
		write: serializeEvalsRunBundle,
		summarize: ({ run, samples }) =>
			`${run.evalName} · ${run.models.policy.map(describeModelSpec).join(', ')} · ${samples.length} of ${run.progress.total} samples · ${run.status}`,
	},
	share: { ...EVALS_SHARE, encode: encodeEvalsShare, decode: decodeEvalsShare },
	glossary: EVALS_GLOSSARY,
};
