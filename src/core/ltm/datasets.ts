/**
 * The LTM datasets we know by name: upstream dataset name ↔ config name, the evaluator that
 * reproduces its scoring, and its reset message (our own wording: upstream's text is not copied).
 */
import type { BuiltInEvaluatorId } from './shared/types';

export interface LtmDatasetInfo {
	/** Upstream dataset name, as the definitions folder names it (`Spy Meeting`). */
	readonly name: string;
	/** Upstream config name (`spy_meeting`), used by `incompatibilities`. */
	readonly configName: string;
	readonly evaluator: BuiltInEvaluatorId;
	/** Sent when a test of this dataset finishes (upstream sends one for these four datasets). */
	readonly resetMessage: string;
	readonly description: string;
}

/** Every dataset name the loader recognises. */
export const LTM_DATASETS: readonly LtmDatasetInfo[] = [
	d('Colours', 'colours', 'colours', '', 'Favourite colour changes; recall the last one.'),
	d('Names', 'names', 'names', '', 'Name changes; recall the current name.'),
	d('NameList', 'name_list', 'name_list', '', 'Name changes; list every name given.'),
	d(
		'Shopping',
		'shopping',
		'shopping',
		'Everything on the shopping list has been bought, so the list is empty again.',
		'Add and remove shopping items; report the list as JSON.',
	),
	d('SallyAnne', 'sallyanne', 'sallyanne', '', 'A false-belief story; answer as JSON.'),
	d('Spy Meeting', 'spy_meeting', 'spy_meeting', '', 'Decode when, where and what to bring.'),
	d('ChapterBreak', 'chapterbreak', 'chapterbreak', '', 'Pick the chapter that follows a book.'),
	d('Key-Value Pairs', 'kv', 'kv', '', 'Recall a value from a large key-value store.'),
	d('Jokes', 'jokes', 'jokes', '', 'Jokes told over time; which one was told when?'),
	d(
		'Trigger Response',
		'trigger_response',
		'trigger_response',
		'From now on, drop any rule about answering a particular phrase with a fixed sentence.',
		'A trigger and its response; fire the trigger three times.',
	),
	d(
		'Prospective Memory',
		'prospective_memory',
		'prospective_memory',
		'',
		'Append a quote to a later reply, exactly once.',
	),
	d('Locations', 'locations', 'gpt_checklist', '', 'Relative places; a direction question.'),
	d(
		'Locations Directions',
		'locations_directions',
		'locations_directions',
		'',
		'Relative places; describe a route.',
	),
	d(
		'Restaurant',
		'restaurant',
		'dynamic',
		'The restaurant game is over; you can drop that role and what was ordered.',
		'Role-play a restaurant visit (a dynamic test).',
	),
	d(
		'Delayed Recall',
		'delayed_recall',
		'gpt_checklist',
		'Please set aside the facts about the made-up world from before; they no longer apply.',
		'Facts about a fictional world; questions later.',
	),
	d('Instruction Recall', 'instruction_recall', 'gpt_checklist', '', 'Recall a manual.'),
	d('How to Think', 'how_to_think', 'gpt_checklist', '', 'Apply a reasoning principle.'),
	d(
		'Conflicting Personal Info',
		'conflicting_personal_info',
		'gpt_checklist',
		'',
		'Two conflicting preferences.',
	),
];

function d(
	name: string,
	configName: string,
	evaluator: BuiltInEvaluatorId,
	resetMessage: string,
	description: string,
): LtmDatasetInfo {
	return { name, configName, evaluator, resetMessage, description };
}

/**
 * The dataset of a folder name: exact, then with `_` read as a space (the peer copies), then
 * case-insensitively. Undefined for an unknown dataset.
 */
export function findLtmDataset(folderName: string): LtmDatasetInfo | undefined {
	const spaced = folderName.replace(/_/g, ' ');
	return (
		LTM_DATASETS.find((info) => info.name === folderName) ??
		LTM_DATASETS.find((info) => info.name === spaced) ??
		LTM_DATASETS.find((info) => info.name.toLowerCase() === spaced.toLowerCase()) ??
		LTM_DATASETS.find((info) => info.configName === folderName)
	);
}
