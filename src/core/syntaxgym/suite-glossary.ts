/**
 * The suite family's words (SyntaxGym suites, their items and predictions, batteries and the
 * matrix), shown on the Glossary page after the words every family shares and in the `?` tips of
 * the suite pages. The suite kind carries them (suite-run-kind.ts). Text only.
 */
import type { GlossaryTerm } from '../run/run-kind';

export const SUITE_GLOSSARY = [
	{
		id: 'region',
		term: 'Region',
		short: 'A numbered piece of a sentence, such as the subject or the verb.',
		more: 'Every sentence of a suite is cut into the same regions, so the same piece can be compared across versions of the sentence. Region 3 of one version lines up with region 3 of the other.',
	},
	{
		id: 'condition',
		term: 'Condition',
		short: 'One version of a sentence, e.g. with a matching or a mismatching verb.',
		more: 'An item has several conditions: the same sentence changed in one controlled way. Comparing conditions shows whether the model notices the change.',
	},
	{
		id: 'prediction',
		term: 'Prediction',
		short: 'What a model that knows the grammar should do, written as a formula.',
		more: 'For example, “(3;%mismatch%) > (3;%match%)” says: region 3 should be more surprising in the mismatch version than in the match version. Accuracy is the share of items where the prediction holds.',
	},
	{
		id: 'critical-region',
		term: 'Critical region',
		short: 'The region the predictions compare, where the grammar makes the difference.',
		more: 'In the items table it is highlighted in each sentence. It is usually the word where a reader would notice that something is wrong.',
	},
	{
		id: 'wilson-interval',
		term: 'Wilson interval',
		short: 'The range an accuracy would likely fall in with other items of the same kind (95%).',
		more: 'A suite has only a few items, so an accuracy of 0.75 on 16 items could easily be 0.5 or 0.9 on another 16. The Wilson interval gives the range that covers the true accuracy about 95 times out of 100; it stays sensible at 0 and 1, where simpler formulas break. Wide intervals mean: too few items to tell models apart.',
	},
	{
		id: 'mcnemar-test',
		term: 'McNemar test',
		ask: 'What does the McNemar test tell?',
		short: 'Whether two models differ on the same items more than chance would explain.',
		more: "Only the items where the models disagree count: those only model A gets right (b) and those only model B gets right (c). If the models were equally good, each disagreement would go either way like a coin toss; the exact test gives the chance (p-value) of a split at least as lopsided as b against c. Testing many suites at once, about one in twenty would fall below 0.05 by chance alone even between equally good models, so the matrix also shows each suite's p-value Holm-adjusted over the suites tested (Holm's step-down method: the smallest of m p-values times m, the next times m − 1, and so on, never decreasing, at most 1). A suite is said to differ beyond noise when its adjusted p-value is below 0.05; the whole battery is a single test and is judged on its own p-value.",
	},
	{
		id: 'battery',
		term: 'Battery',
		short: 'Several suites run with one model in one go, so they can be compared side by side.',
		more: 'A battery scores every picked suite with the same model and convention. Each suite keeps its own run, with its own results and exports, and the battery can be resumed as a whole. Run the same battery with another model and the matrix shows the two models suite by suite.',
	},
	{
		id: 'sg-score',
		term: 'SG score',
		ask: 'What is the SG score?',
		short: 'The share of items a model gets right, averaged over the suites of a battery.',
		more: 'For each suite, count the items on which the prediction holds and divide by the number of items; then average those shares over the suites, each suite counting the same. This is the syntactic generalization score of Hu et al. (2020). A model that guesses gets about half.',
	},
	{
		id: 'circuit',
		term: 'Circuit',
		short: 'Suites that test the same kind of grammar, such as agreement or garden paths.',
		more: 'Hu et al. (2020) sorted their suites into six circuits: agreement, licensing, garden-path effects, gross syntactic state, center embedding and long-distance dependencies. A circuit’s score is the mean over its suites, so one strong suite does not hide a weak kind of grammar.',
	},
] as const satisfies readonly GlossaryTerm[];
