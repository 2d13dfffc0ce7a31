/**
 * Which circuit a suite belongs to, and whether the SG score leaves it out: Hu et al. (2020)'s
 * rules (`notebooks/main.py` of cpllab/syntactic-generalization) for their suites, a suite's own
 * tags otherwise, "ungrouped" else. Pure data and lookups.
 */
import type { Suite } from '../suite/types';

/** The circuit of suites that neither the Hu et al. rules nor their own tags place. */
export const UNGROUPED = 'ungrouped';

/**
 * The master notebook's circuits, each with the suite-name tags it collects (a suite's tag is
 * its name up to the first `-`, `_` or digit: `subordination_orc-orc` → `subordination`).
 */
export const HU2020_CIRCUITS: readonly {
	readonly circuit: string;
	readonly tags: readonly string[];
}[] = [
	{ circuit: 'Licensing', tags: ['npi', 'reflexive'] },
	{ circuit: 'Long-Distance Dependencies', tags: ['fgd', 'cleft'] },
	{ circuit: 'Agreement', tags: ['number'] },
	{ circuit: 'Garden-Path Effects', tags: ['npz', 'mvrr'] },
	{ circuit: 'Gross Syntactic State', tags: ['subordination'] },
	{ circuit: 'Center Embedding', tags: ['center'] },
];

/**
 * The master notebook's exclusion (`exclude_suite_re`): suites it leaves out of every mean
 * (fgd-embed3, fgd-embed4, nn-nv-rpl among the 34 published suites).
 */
export const HU2020_EXCLUDED_SUITES = /^fgd-embed[34]|^gardenpath|^nn-nv/;

/** The 34 suite names (`meta.name` = file stem) of Hu et al. (2020), as published. */
export const HU2020_SUITE_NAMES: readonly string[] = [
	'center_embed',
	'center_embed_mod',
	'cleft',
	'cleft_modifier',
	'fgd-embed3',
	'fgd-embed4',
	'fgd_hierarchy',
	'fgd_object',
	'fgd_pp',
	'fgd_subject',
	'mvrr',
	'mvrr_mod',
	'nn-nv-rpl',
	'npi_orc_any',
	'npi_orc_ever',
	'npi_src_any',
	'npi_src_ever',
	'npz_ambig',
	'npz_ambig_mod',
	'npz_obj',
	'npz_obj_mod',
	'number_orc',
	'number_prep',
	'number_src',
	'reflexive_orc_fem',
	'reflexive_orc_masc',
	'reflexive_prep_fem',
	'reflexive_prep_masc',
	'reflexive_src_fem',
	'reflexive_src_masc',
	'subordination',
	'subordination_orc-orc',
	'subordination_pp-pp',
	'subordination_src-src',
];

const HU2020_NAME_SET = new Set(HU2020_SUITE_NAMES);

/** Whether `suiteName` is one of Hu et al.'s 34 suites (by `meta.name`, exactly). */
export function isHu2020Suite(suiteName: string): boolean {
	return HU2020_NAME_SET.has(suiteName);
}

/** The 31 suites of the master notebook's SG score (the 34 less its exclusions), in name order. */
export const HU2020_SG_SUITE_NAMES: readonly string[] = HU2020_SUITE_NAMES.filter(
	(name) => !HU2020_EXCLUDED_SUITES.test(name),
);

/**
 * Whether a battery is Hu et al.'s suite set: once its notebook exclusions are left out, its
 * suites are exactly the 31 of the master SG score (so published SG scores compare with it).
 */
export function isHu2020SuiteSet(suiteNames: readonly string[]): boolean {
	const scored = new Set(suiteNames.filter((name) => !isHu2020Excluded(name)));
	return (
		scored.size === HU2020_SG_SUITE_NAMES.length &&
		HU2020_SG_SUITE_NAMES.every((name) => scored.has(name))
	);
}

/** Whether the SG score leaves `suiteName` out: a Hu et al. suite the master notebook excludes. */
export function isHu2020Excluded(suiteName: string): boolean {
	return isHu2020Suite(suiteName) && HU2020_EXCLUDED_SUITES.test(suiteName);
}

/** The notebook's tag of a suite name: `re.split(r"[-_0-9]", name)[0]`. */
export function hu2020Tag(suiteName: string): string {
	return suiteName.split(/[-_0-9]/)[0] ?? '';
}

function circuitOfTag(tag: string): string | undefined {
	const lower = tag.trim().toLowerCase();
	return HU2020_CIRCUITS.find(
		({ circuit, tags }) => circuit.toLowerCase() === lower || tags.includes(lower),
	)?.circuit;
}

/** Where a suite's circuit comes from. */
export type CircuitSource = 'hu2020-name' | 'suite-tags' | 'none';

/** A suite's circuit and why. */
export interface SuiteCircuit {
	readonly circuit: string;
	readonly source: CircuitSource;
}

/**
 * A suite's circuit. A Hu et al. suite: by its name's tag and the notebook's table
 * (`nn-nv-rpl`, whose tag `nn` the table lacks, is {@link UNGROUPED}). Any other suite: its first
 * `meta.tags` entry that names a Hu et al. circuit or one of their tags (`agreement`, `npi`), else
 * its first tag as it is; a suite without tags is {@link UNGROUPED}.
 */
export function suiteCircuit(suite: Pick<Suite, 'meta'>): SuiteCircuit {
	const name = suite.meta.name;
	if (isHu2020Suite(name)) {
		const circuit = circuitOfTag(hu2020Tag(name));
		return circuit === undefined
			? { circuit: UNGROUPED, source: 'none' }
			: { circuit, source: 'hu2020-name' };
	}
	const tags = (suite.meta.tags ?? []).map((tag) => tag.trim()).filter((tag) => tag !== '');
	for (const tag of tags) {
		const circuit = circuitOfTag(tag);
		if (circuit !== undefined) return { circuit, source: 'suite-tags' };
	}
	const [first] = tags;
	return first === undefined
		? { circuit: UNGROUPED, source: 'none' }
		: { circuit: first, source: 'suite-tags' };
}
