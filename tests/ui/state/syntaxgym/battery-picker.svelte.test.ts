// BatteryPicker: the bundled suites and the library listed once per text, added files picked when
// they parse and never when broken, Select all / None, and the run inputs in list order.
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { BatteryPicker } from '../../../../src/ui/state/syntaxgym/battery-picker.svelte';
import { listBundledSuites } from '../../../../src/ui/io/suite-sources';
import { saveSuite } from '../../../../src/storage/syntaxgym/suites-repository';
import { clearDatabase } from '../../../storage/clear-database';

const AGREEMENT = readFileSync('suites/subject-verb-agreement-pp.json', 'utf8');

/** A small suite of one item named `name`. */
function smallSuite(name: string): string {
	return JSON.stringify({
		meta: { name, metric: 'sum' },
		region_meta: { '1': 'subject', '2': 'verb' },
		predictions: [{ type: 'formula', formula: '(2;%bad%) > (2;%good%)' }],
		items: [
			{
				item_number: 1,
				conditions: ['good', 'bad'].map((condition) => ({
					condition_name: condition,
					regions: [
						{ region_number: 1, content: 'The dog' },
						{ region_number: 2, content: condition === 'good' ? 'runs' : 'run' },
					],
				})),
			},
		],
	});
}

describe('BatteryPicker', () => {
	beforeEach(clearDatabase);

	it('lists every bundled suite and the library, a library copy of a bundled suite once', async () => {
		await saveSuite({ text: smallSuite('Mine'), name: 'Mine', origin: 'paste' });
		await saveSuite({ text: AGREEMENT, name: 'copy', origin: 'file', sourceName: 'copy.json' });
		const picker = new BatteryPicker();
		await picker.load();
		expect(picker.entriesFrom('bundled').map((entry) => entry.sourceName)).toEqual(
			listBundledSuites().map((entry) => entry.file),
		);
		expect(picker.entriesFrom('bundled').every((entry) => entry.ok)).toBe(true);
		expect(picker.entriesFrom('library').map((entry) => entry.sourceName)).toEqual(['Mine']);
		expect(picker.picked.size).toBe(0);
	});

	it('picks added suites, never a broken file, and says what repeats', async () => {
		const picker = new BatteryPicker();
		await picker.load();
		await picker.addFiles([
			new File([smallSuite('B')], 'b.json'),
			new File(['{"meta": '], 'broken.json'),
			new File([smallSuite('A')], 'a.json'),
			new File([AGREEMENT], 'agreement.json'),
		]);
		const added = picker.entriesFrom('added');
		expect(added.map((entry) => [entry.sourceName, entry.ok])).toEqual([
			['a.json', true],
			['b.json', true],
			['broken.json', false],
		]);
		// The bundled suite that agreement.json repeats is picked: the user added it on purpose.
		expect(picker.pickedSuites.map((entry) => entry.sourceName)).toEqual([
			'subject-verb-agreement-pp.json',
			'a.json',
			'b.json',
		]);
		expect(picker.notice).toMatch(
			/agreement\.json is the same suite as Subject-verb agreement across a prepositional phrase: listed once, and picked\./,
		);
		const broken = added.find((entry) => !entry.ok);
		picker.setPicked(broken?.key ?? '', true);
		expect(picker.picked.has(broken?.key ?? '')).toBe(false);
		expect(picker.totals.suites).toBe(3);
	});

	it('picks the saved suite that an added file repeats, listed once', async () => {
		await saveSuite({ text: smallSuite('Walk'), name: 'Walk', origin: 'paste' });
		const picker = new BatteryPicker();
		await picker.load();
		expect(picker.picked.size).toBe(0);
		await picker.addFiles([new File([smallSuite('Walk')], 'walk.json')]);
		expect(picker.entriesFrom('added')).toEqual([]);
		expect(picker.pickedSuites.map((entry) => [entry.source, entry.sourceName])).toEqual([
			['library', 'Walk'],
		]);
		expect(picker.notice).toBe('walk.json is the same suite as Walk: listed once, and picked.');
		expect(picker.totals).toEqual({ suites: 1, items: 1, sentences: 2 });
	});

	it('selects every readable suite or none; inputs follow the list order', async () => {
		const picker = new BatteryPicker();
		await picker.load();
		await picker.addFiles([new File([smallSuite('A')], 'a.json'), new File(['x'], 'bad.json')]);
		picker.selectAll();
		const bundled = listBundledSuites();
		expect(picker.totals.suites).toBe(bundled.length + 1);
		const inputs = picker.inputs();
		expect(inputs.map((input) => input.origin)).toEqual([...bundled.map(() => 'bundled'), 'file']);
		expect(inputs.at(-1)?.suiteText).toBe(smallSuite('A'));
		picker.selectNone();
		expect(picker.inputs()).toEqual([]);
		picker.selectAll();
		picker.clearAdded();
		expect(picker.entriesFrom('added')).toEqual([]);
		expect(picker.totals.suites).toBe(bundled.length);
	});
});
