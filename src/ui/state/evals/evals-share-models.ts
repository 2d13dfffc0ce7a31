/**
 * A share link's models put in the Evals page's model choices: an endpoint as a proposal (a link
 * never writes the user's endpoint settings), a replay file with its text, a local model at the
 * dtype the link's run used.
 */
import type { TextModelSpec } from '../../../core/model/model-spec';
import type { EndpointSettings } from '../shared/endpoint-settings.svelte';
import type { TextModelChoice } from '../shared/text-models.svelte';

/** Sets `choice` to a shared run's model (`spec`; none: the choice stays as it is). */
export function chooseSharedModel(
	choice: TextModelChoice,
	spec: TextModelSpec | undefined,
	replayTexts: Readonly<Record<string, string>>,
	endpoint: EndpointSettings,
): void {
	if (!spec) return;
	if (spec.source === 'openai') {
		choice.proposeEndpoint(spec, endpoint);
	} else if (spec.source === 'replay') {
		choice.kind = 'replay';
		const replayText = replayTexts[spec.sha256];
		choice.replay = replayText === undefined ? null : { name: spec.file, text: replayText };
	} else {
		choice.kind = 'local';
		choice.localId = spec.id;
		// A hub model re-runs at the dtype the link's run used.
		choice.hubDtype = spec.dtype;
	}
}
