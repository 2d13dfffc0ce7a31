/**
 * Evals share links: `#/evals/share/2/…` (the one share codec, share-codec.ts) carrying the
 * resolved eval (samples included), the model specs (never a key), the parameters set over
 * upstream's, the seed, replay files' text, and each sample's verdict, so opening the link re-runs
 * the eval and says how many verdicts it reproduced. Encoding within the link budget and checked
 * decoding (valibot); links of the 0.1.0 release (`#/evals/share/<data>`) still open.
 */
import * as v from 'valibot';
import { encodeShareFragment, readSharePayload, type ShareRoute } from '../share/share-codec';
import { GENERATION_PARAMS_ENTRIES, TextModelSpecSchema } from '../run/task-run-json';
import type { ResolvedEval } from './shared/types';
import type { GenerationParams } from '../model/generation';
import type { TextModelSpec } from '../model/model-spec';

export const EVALS_SHARE_VERSION = 1;

/** Where Evals links live (0.1.0 wrote the bare data after the route). */
export const EVALS_SHARE: ShareRoute = {
	kind: 'evals',
	route: '/evals/share/',
	what: 'an Evals run',
	oldestVersion: 2,
	bareRelease: true,
};

/** What an Evals share link carries. */
export interface EvalsSharePayload {
	readonly v: 1;
	readonly evalName: string;
	readonly eval: ResolvedEval;
	readonly models: { readonly policy: readonly TextModelSpec[]; readonly grader?: TextModelSpec };
	readonly overrides: { readonly policy: GenerationParams; readonly grader: GenerationParams };
	readonly replayTexts: Readonly<Record<string, string>>;
	readonly seed: number;
	readonly maxSamples?: number;
	/** Sample id → verdict (`correct`, `wrong`, or the grader's choice) of the shared run. */
	readonly verdicts: Readonly<Record<string, string>>;
}

const Params = v.object(GENERATION_PARAMS_ENTRIES);

const Message = v.object({ role: v.string(), content: v.string(), name: v.optional(v.string()) });

const ResolvedEvalSchema = v.object({
	name: v.string(),
	requestedName: v.string(),
	className: v.string(),
	kind: v.picklist(['match', 'includes', 'fuzzy_match', 'json_match', 'modelgraded']),
	args: v.record(v.string(), v.unknown()),
	file: v.string(),
	samples: v.array(v.record(v.string(), v.unknown())),
	fewShot: v.array(v.array(Message)),
	ignoreCase: v.boolean(),
	maxTokens: v.optional(v.number()),
	modelGraded: v.optional(
		v.object({
			args: v.record(v.string(), v.unknown()),
			spec: v.record(v.string(), v.unknown()),
			specFile: v.string(),
		}),
	),
});

const Payload = v.object({
	v: v.literal(EVALS_SHARE_VERSION),
	evalName: v.string(),
	eval: ResolvedEvalSchema,
	models: v.object({
		policy: v.array(TextModelSpecSchema),
		grader: v.optional(TextModelSpecSchema),
	}),
	overrides: v.object({ policy: Params, grader: Params }),
	replayTexts: v.record(v.string(), v.string()),
	seed: v.number(),
	maxSamples: v.optional(v.number()),
	verdicts: v.record(v.string(), v.string()),
});

/**
 * The link's part after `#/evals/share/` (`2/<data>`). Throws a ShareLinkError (kind `too-large`)
 * when the link would pass the link budget: the run bundle is the way to share that run.
 */
export function encodeEvalsShare(payload: EvalsSharePayload): string {
	const encoded = encodeShareFragment(EVALS_SHARE, payload);
	if (!encoded.ok) throw encoded.error;
	return encoded.fragment.slice(EVALS_SHARE.route.length);
}

/** Reads a link's part after `#/evals/share/`; throws an Error that says what is wrong with it. */
export function decodeEvalsShare(text: string): EvalsSharePayload {
	// The schema checks the shapes the runner reads; the rest passes through as written.
	return readSharePayload(EVALS_SHARE, text, Payload) as EvalsSharePayload;
}
