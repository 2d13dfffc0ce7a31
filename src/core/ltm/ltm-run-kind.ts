/** The Memory family as a kind of run (GoodAI-style long-term-memory tests), for the kind registry. Pure. */
import * as v from 'valibot';
import { describeModelSpec } from '../model/model-spec';
import type { RunKindDefinition } from '../run/run-kind';
import {
	LTM_BUNDLE,
	readLtmRunBundle,
	serializeLtmRunBundle,
	type LtmRunBundle,
} from './ltm-run-bundle';
import { LTM_GLOSSARY } from './ltm-glossary';
import { LTM_RESUME, type LtmRunRecord } from './ltm-run-record';
import { LTM_SHARE, decodeLtmShare, encodeLtmShare, type LtmSharePayload } from './share-payload';

const Count = v.pipe(v.number(), v.minValue(0));
const Model = v.looseObject({ source: v.string() });

export const LTM_RUN_KIND: RunKindDefinition<
	LtmRunRecord,
	LtmRunBundle,
	LtmSharePayload,
	(typeof LTM_GLOSSARY)[number]['id']
> = {
	kind: 'ltm',
	label: 'Memory',
	page: { name: 'Memory', route: '#/memory' },
	storedEntries: {
		runName: v.string(),
		models: v.looseObject({ agent: Model, judge: v.optional(Model) }),
		progress: v.looseObject({
			testsDone: Count,
			testsTotal: Count,
			tokens: Count,
			elapsedMs: v.number(),
		}),
	},
	resume: LTM_RESUME,
	models: (run) => [run.models.agent, ...(run.models.judge ? [run.models.judge] : [])],
	modelRoles: (run) => [
		{ role: 'agent', spec: run.models.agent },
		...(run.models.judge ? [{ role: 'judge', spec: run.models.judge }] : []),
	],
	progress: (run) => ({ done: run.progress.testsDone, total: run.progress.testsTotal }),
	openRoute: (runId) => `#/memory/run/${runId}`,
	bundle: {
		...LTM_BUNDLE,
		read: readLtmRunBundle,
		write: serializeLtmRunBundle,
		summarize: ({ run }) =>
			`${run.runName} · ${describeModelSpec(run.models.agent)} · ${run.progress.testsDone} of ${run.progress.testsTotal} tests · ${run.status}`,
	},
	share: { ...LTM_SHARE, encode: encodeLtmShare, decode: decodeLtmShare },
	glossary: LTM_GLOSSARY,
};
