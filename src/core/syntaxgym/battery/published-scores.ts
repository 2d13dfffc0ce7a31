/**
 * The SG scores of Hu et al. (2020)'s five off-the-shelf models, from their published per-item
 * results, for the battery matrix's reference columns when the battery is their suite set. Data.
 */

/** Where the published scores come from. */
export interface PublishedScoresSource {
	readonly citation: string;
	readonly data: string;
	readonly rule: string;
}

/** One pretrained model's published SG score. */
export interface PublishedSgScore {
	/** The model's name in the published result files (`syntaxgym_results_<id>_.csv`). */
	readonly id: string;
	/** The name the paper's figures use. */
	readonly label: string;
	/** Mean over the 31 suites of item accuracy (3 decimals). */
	readonly sgScore: number;
}

export const HU2020_PUBLISHED_SOURCE: PublishedScoresSource = {
	citation:
		'Hu, J., Gauthier, J., Qian, P., Wilcox, E. & Levy, R. (2020). A systematic assessment of ' +
		'syntactic generalization in neural language models. Proceedings of ACL 2020.',
	data:
		'github.com/cpllab/syntactic-generalization (master, 43f1f86b): data/raw/sg_results/*.csv, ' +
		'per-item results of each model',
	rule:
		'SG score by the master analysis notebook (notebooks/main.py): item accuracy per suite ' +
		'(first prediction only), unweighted mean over 31 suites (fgd-embed3, fgd-embed4 and ' +
		'nn-nv-rpl left out)',
};

/** Published SG scores, highest first. */
export const HU2020_PUBLISHED_SG_SCORES: readonly PublishedSgScore[] = [
	{ id: 'gpt-2-xl-pretrained', label: 'GPT-2-XL', sgScore: 0.842 },
	{ id: 'gpt-2-pretrained', label: 'GPT-2', sgScore: 0.784 },
	{ id: 'transformer-xl', label: 'Transformer-XL', sgScore: 0.596 },
	{ id: 'jrnn', label: 'JRNN', sgScore: 0.563 },
	{ id: 'grnn', label: 'GRNN', sgScore: 0.551 },
];
