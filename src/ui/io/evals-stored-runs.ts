/**
 * Stored Evals runs read back for the page: shown (finished or not), as a run bundle, as an
 * Inspect JSON log, and as a share link. Reads storage only.
 */
import {
	buildEvalsRunBundle,
	inspectLogOfStored,
	shownRunOfStored,
	type EvalsShownRun,
} from '../../core/evals';
import { EVALS_RUN_KIND } from '../../core/evals/evals-run-kind';
import { shareHashOf } from '../../core/run/run-kind';
import { evalsSharePayloadOf } from '../../core/evals/evals-runs';
import { getEvalsRun, listEvalsSamples } from '../../storage/evals/evals-runs-repository';

/** A stored run as the results panel shows it; undefined when there is no such run. */
export async function loadShownRun(id: number): Promise<EvalsShownRun | undefined> {
	const record = await getEvalsRun(id);
	if (!record) return undefined;
	return shownRunOfStored(record, await listEvalsSamples(id));
}

/** The run bundle (`benchtop-run/2`, kind `evals`) of a stored run; null when there is no such run. */
export async function storedRunBundleText(id: number): Promise<string | null> {
	const record = await getEvalsRun(id);
	if (!record) return null;
	return EVALS_RUN_KIND.bundle.write(buildEvalsRunBundle(record, await listEvalsSamples(id)));
}

/** A stored run as an Inspect JSON log (`inspect view` opens it); null when there is no such run. */
export async function storedRunInspectLogText(id: number): Promise<string | null> {
	const record = await getEvalsRun(id);
	if (!record) return null;
	const log = inspectLogOfStored(record, await listEvalsSamples(id), new Date(record.updatedAt));
	return `${JSON.stringify(log, null, 2)}\n`;
}

/** The share link (fragment) of a stored run; null when there is no such run. */
export async function storedRunShareFragment(id: number): Promise<string | null> {
	const record = await getEvalsRun(id);
	if (!record) return null;
	const samples = await listEvalsSamples(id);
	return shareHashOf(EVALS_RUN_KIND.share, evalsSharePayloadOf(record, samples));
}
