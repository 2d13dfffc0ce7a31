/**
 * The app's kinds of runs, one line per family: every list of kinds (storage's check, the
 * Library, bundles and links of any kind, resume) is derived from this registry. To add a family,
 * see the README's architecture section. Pure.
 */
import { EVALS_RUN_KIND } from '../evals/evals-run-kind';
import { LTM_RUN_KIND } from '../ltm/ltm-run-kind';
import { STIMULI_RUN_KIND } from '../stimuli/stimuli-run-kind';
import { SUITE_RUN_KIND } from '../syntaxgym/suite-run-kind';
import type { RunKindDefinition } from '../run/run-kind';
import { KindRegistry } from './kind-registry';

export const RUN_KIND_REGISTRY = new KindRegistry([
	SUITE_RUN_KIND,
	EVALS_RUN_KIND,
	LTM_RUN_KIND,
	STIMULI_RUN_KIND,
] as const);

/** The names of the app's registered kinds ('suite' | 'evals' | …), derived from the registry. */
export type RegisteredKindName = (typeof RUN_KIND_REGISTRY)['kinds'][number]['kind'];

/** A record of any of the app's registered kinds, told apart by `kind` (derived from the registry). */
export type RegisteredRunRecord = (typeof RUN_KIND_REGISTRY)['kinds'][number] extends infer Kind
	? Kind extends RunKindDefinition<infer Run, infer _Bundle, infer _Payload, infer _Terms>
		? Run
		: never
	: never;
