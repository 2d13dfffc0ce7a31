// Circuits: Hu et al.'s name patterns for their suites, a suite's own tags otherwise, 'ungrouped'
// else; the notebook's exclusions; recognising the Hu et al. suite set.
import { describe, expect, it } from 'vitest';
import {
	HU2020_SG_SUITE_NAMES,
	HU2020_SUITE_NAMES,
	hu2020Tag,
	isHu2020Excluded,
	isHu2020SuiteSet,
	suiteCircuit,
} from '../../../../src/core/syntaxgym/battery/circuits';
import { fixtureSuite } from './battery-fixtures';

describe('suiteCircuit', () => {
	it("takes a Hu et al. suite's circuit from its name tag (notebook main.py)", () => {
		expect(hu2020Tag('subordination_orc-orc')).toBe('subordination');
		expect(hu2020Tag('fgd-embed3')).toBe('fgd');
		expect(suiteCircuit(fixtureSuite('npi_src_ever')).circuit).toBe('Licensing');
		expect(suiteCircuit(fixtureSuite('cleft')).circuit).toBe('Long-Distance Dependencies');
		expect(suiteCircuit(fixtureSuite('number_src')).circuit).toBe('Agreement');
		expect(suiteCircuit(fixtureSuite('npz_obj_mod'))).toEqual({
			circuit: 'Garden-Path Effects',
			source: 'hu2020-name',
		});
		expect(suiteCircuit(fixtureSuite('nn-nv-rpl'))).toEqual({
			circuit: 'ungrouped',
			source: 'none',
		});
	});

	it('uses the name patterns only for the 34 published suite names', () => {
		expect(suiteCircuit(fixtureSuite('number_of_my_own'))).toEqual({
			circuit: 'ungrouped',
			source: 'none',
		});
	});

	it("takes another suite's circuit from its tags: a Hu et al. circuit or tag first, else the first tag", () => {
		expect(suiteCircuit(fixtureSuite('mine', { tags: ['legacy-format', 'agreement'] }))).toEqual({
			circuit: 'Agreement',
			source: 'suite-tags',
		});
		expect(suiteCircuit(fixtureSuite('mine', { tags: ['NPI'] })).circuit).toBe('Licensing');
		expect(suiteCircuit(fixtureSuite('mine', { tags: ['binding', 'islands'] }))).toEqual({
			circuit: 'binding',
			source: 'suite-tags',
		});
		expect(suiteCircuit(fixtureSuite('mine')).circuit).toBe('ungrouped');
	});
});

describe('the Hu et al. suite set', () => {
	it('leaves out fgd-embed3, fgd-embed4 and nn-nv-rpl, and only for Hu et al. suites', () => {
		expect(HU2020_SUITE_NAMES).toHaveLength(34);
		expect(HU2020_SG_SUITE_NAMES).toHaveLength(31);
		expect(HU2020_SUITE_NAMES.filter(isHu2020Excluded)).toEqual([
			'fgd-embed3',
			'fgd-embed4',
			'nn-nv-rpl',
		]);
		expect(isHu2020Excluded('gardenpath_mine')).toBe(false);
	});

	it('is recognised with or without the excluded suites, not with a suite missing or added', () => {
		expect(isHu2020SuiteSet(HU2020_SUITE_NAMES)).toBe(true);
		expect(isHu2020SuiteSet(HU2020_SG_SUITE_NAMES)).toBe(true);
		expect(isHu2020SuiteSet(HU2020_SG_SUITE_NAMES.slice(1))).toBe(false);
		expect(isHu2020SuiteSet([...HU2020_SG_SUITE_NAMES, 'mine'])).toBe(false);
	});
});
