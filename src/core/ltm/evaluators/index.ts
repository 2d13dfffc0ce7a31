/** The evaluator of each built-in id and generic rule. Callback and dynamic tests are scored by the scheduler. */
import type { EvaluatorSpec } from '../shared/types';
import { chapterBreakEvaluator } from './chapterbreak';
import { coloursEvaluator } from './colours';
import type { Evaluator } from './evaluator';
import { genericRuleEvaluator } from './generic-rules';
import { gptChecklistEvaluator } from './gpt-checklist';
import { jokesEvaluator } from './jokes';
import { kvEvaluator } from './kv';
import { nameListEvaluator } from './name-list';
import { namesEvaluator } from './names';
import { sallyAnneEvaluator } from './sallyanne';
import { shoppingEvaluator } from './shopping';
import { spyMeetingEvaluator } from './spy-meeting';
import { triggerResponseEvaluator } from './trigger-response';
import { locationsDirectionsEvaluator } from './locations-directions';

/** The static evaluator for a spec; undefined for `prospective_memory`, `watch` and `dynamic`. */
export function evaluatorFor(spec: EvaluatorSpec): Evaluator | undefined {
	if (typeof spec !== 'string') return genericRuleEvaluator(spec);
	switch (spec) {
		case 'colours':
			return coloursEvaluator;
		case 'names':
			return namesEvaluator;
		case 'name_list':
			return nameListEvaluator;
		case 'shopping':
			return shoppingEvaluator;
		case 'sallyanne':
			return sallyAnneEvaluator;
		case 'spy_meeting':
			return spyMeetingEvaluator;
		case 'chapterbreak':
			return chapterBreakEvaluator;
		case 'kv':
			return kvEvaluator;
		case 'jokes':
			return jokesEvaluator;
		case 'trigger_response':
			return triggerResponseEvaluator;
		case 'gpt_checklist':
			return gptChecklistEvaluator;
		case 'locations_directions':
			return locationsDirectionsEvaluator;
		case 'prospective_memory':
		case 'watch':
		case 'dynamic':
			return undefined;
	}
}
