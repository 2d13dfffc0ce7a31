// A kind of run that exists only in tests ("tally": a counter that adds one number per step),
// written the way a new family is: its record, bundle, link, resume rule and glossary words, built
// from the shared pieces (envelope, codec, resume rule), and nothing else. Registering it on the
// app's registry must give it storage, the Library, bundles, links, resume and its words in the
// glossary with no shared file changed.
import * as v from 'valibot';
import type { TextModelSpec } from '../../src/core/model/model-spec';
import { unfinishedPlan, type ResumeRule } from '../../src/core/run/resume-plan';
import type { GlossaryTerm, RunKindDefinition } from '../../src/core/run/run-kind';
import type { RunRecordBase } from '../../src/core/run/run-types';
import {
	RunStatusSchema,
	TextModelSpecSchema,
	TimeMsSchema,
	readRunBundleOfKind,
	writeRunBundleText,
	type RunBundleFormat,
} from '../../src/core/run/task-run-json';
import {
	encodeShareFragment,
	readSharePayload,
	type ShareRoute,
} from '../../src/core/share/share-codec';

export interface TallyRunRecord extends RunRecordBase<'tally'> {
	readonly counterName: string;
	readonly model: TextModelSpec;
	/** Steps the run will add. */
	readonly steps: number;
	/** Steps added so far. */
	readonly stepsDone: number;
}

export interface TallyBundle {
	readonly run: Omit<TallyRunRecord, 'id' | 'kind'>;
	readonly values: readonly number[];
}

export interface TallyPayload {
	readonly counterName: string;
	readonly total: number;
}

const TALLY_BUNDLE: RunBundleFormat = {
	kind: 'tally',
	what: 'a tally run bundle',
	resultsPaths: [['values']],
};

const TALLY_SHARE: ShareRoute = {
	kind: 'tally',
	route: '/tally/share/',
	what: 'a tally run',
	oldestVersion: 2,
};

const TALLY_RESUME: ResumeRule<TallyRunRecord, 'tally'> = {
	kind: 'tally',
	unit: 'step',
	noun: 'steps',
	resumePoint: 'the last step',
	resumePlan: ({ status, stepsDone, steps }) =>
		unfinishedPlan(status, stepsDone, steps, stepsDone < steps),
};

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

const BundleSchema = v.object({
	format: v.string(),
	kind: v.literal('tally'),
	run: v.object({
		title: v.string(),
		status: RunStatusSchema,
		createdAt: TimeMsSchema,
		updatedAt: TimeMsSchema,
		counterName: v.string(),
		model: TextModelSpecSchema,
		steps: Count,
		stepsDone: Count,
	}),
	values: v.array(v.number()),
});

const PayloadSchema = v.object({
	kind: v.literal('tally'),
	counterName: v.string(),
	total: v.number(),
});

/** The family's words, shown on the Glossary page after the app's own (in its glossary module). */
export const TALLY_GLOSSARY = [
	{
		id: 'tally-step',
		term: 'Step (of a tally)',
		short: 'One number a tally run adds to its counter.',
		more: 'A tally run adds one number per step; a resumed run goes on from the last step.',
	},
] as const satisfies readonly GlossaryTerm[];

export const TALLY_KIND: RunKindDefinition<
	TallyRunRecord,
	TallyBundle,
	TallyPayload,
	(typeof TALLY_GLOSSARY)[number]['id']
> = {
	kind: 'tally',
	label: 'Tally',
	page: { name: 'Tally', route: '#/tally' },
	storedEntries: { counterName: v.string(), steps: Count, stepsDone: Count },
	resume: TALLY_RESUME,
	models: (run) => [run.model],
	progress: (run) => ({ done: run.stepsDone, total: run.steps }),
	openRoute: (runId) => `#/tally/run/${runId}`,
	bundle: {
		...TALLY_BUNDLE,
		read: (text) => readRunBundleOfKind<TallyBundle>(text, TALLY_BUNDLE, BundleSchema),
		write: (bundle) => writeRunBundleText(TALLY_BUNDLE, bundle),
		summarize: ({ run, values }) =>
			`${run.counterName} · ${values.length} of ${run.steps} steps · ${run.status}`,
	},
	share: {
		...TALLY_SHARE,
		encode: (payload) => {
			const encoded = encodeShareFragment(TALLY_SHARE, payload);
			if (!encoded.ok) throw encoded.error;
			return encoded.fragment.slice(TALLY_SHARE.route.length);
		},
		decode: (data) => {
			const { counterName, total } = readSharePayload(TALLY_SHARE, data, PayloadSchema) as {
				counterName: string;
				total: number;
			};
			return { counterName, total };
		},
	},
	toStored: ({ run, values }) => ({
		run: { ...run, kind: 'tally' },
		items: values.map((value, key) => ({ kind: 'tally-step', key, value })),
	}),
	fromStored: ({ id: _id, kind: _kind, ...run }, items) => ({
		run,
		values: items.map((item) => Number(item['value'])),
	}),
	glossary: TALLY_GLOSSARY,
};

/** A finished tally of three coin flips, as a bundle (the tests' one example). */
export const COIN_FLIPS: TallyBundle = {
	run: {
		title: 'Coin flips',
		status: 'done',
		createdAt: Date.UTC(2026, 10, 28, 12),
		updatedAt: Date.UTC(2026, 10, 28, 13),
		counterName: 'Coin flips',
		model: { source: 'bundled', id: 'gpt2-random-tiny', dtype: 'fp32', backend: 'wasm' },
		steps: 3,
		stepsDone: 3,
	},
	values: [1, 0, 1],
};
