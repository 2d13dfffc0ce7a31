import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { Flaw, ITEM_FILE, SUITE_FILE } from '../../../../src/core/syntaxgym/suite/suite-schema';

/** One condition of one region: the smallest valid item. */
function item(region: Record<string, unknown> = { region_number: 1, content: 'x' }) {
	return { item_number: 1, conditions: [{ condition_name: 'a', regions: [region] }] };
}

/** The first region of the first condition of a checked item. */
function firstRegion(value: unknown): unknown {
	const checked = v.parse(ITEM_FILE, value);
	if (checked instanceof Flaw || checked.conditions instanceof Flaw) throw new Error('no list');
	const [condition] = checked.conditions;
	if (condition === undefined || condition instanceof Flaw || condition.regions instanceof Flaw) {
		throw new Error('no regions');
	}
	return condition.regions[0];
}

describe('SUITE_FILE', () => {
	it.each([[[]], [null], [3], ['suite'], [undefined]])(
		'fails for %j, which is no object',
		(value) => {
			expect(v.safeParse(SUITE_FILE, value).success).toBe(false);
		},
	);

	it('never fails for an object: each bad or missing field becomes a Flaw in place', () => {
		const parsed = v.safeParse(SUITE_FILE, { meta: [], region_meta: { '04': 'a', '1': 2 } });
		expect(parsed.success).toBe(true);
		const output = parsed.output as Record<string, unknown>;
		expect(output['meta']).toMatchObject({ found: [], missing: false, foundText: 'a list' });
		expect(output['items']).toMatchObject({ found: undefined, missing: true });
		// in file order as JavaScript sees it: integer-like keys first
		expect(output['region_meta']).toEqual([
			['1', expect.objectContaining({ found: 2 })],
			[expect.objectContaining({ found: '04' }), 'a'],
		]);
		expect('predictions' in output).toBe(false);
	});

	it('reads meta.metric as a name, "all", or a non-empty list of names', () => {
		const metric = (value: unknown) => {
			const { meta } = v.parse(SUITE_FILE, { meta: { name: 'x', metric: value } });
			return meta instanceof Flaw ? meta : meta.metric;
		};
		expect(metric('all')).toBe('all');
		expect(metric(['sum', 'Mean'])).toEqual(['sum', expect.objectContaining({ found: 'Mean' })]);
		expect(metric([])).toMatchObject({ issue: { type: 'min_length' } });
		expect(metric('Sum')).toMatchObject({ found: 'Sum' });
	});
});

describe('ITEM_FILE', () => {
	it('types a valid item as written, with no other fields', () => {
		const value = item();
		expect(v.parse(ITEM_FILE, value)).toStrictEqual(value);
	});

	it.each([
		[{ region_number: 1, content: 7 }, 'content', 7, 'string'],
		[{ region_number: 1.5, content: 'x' }, 'region_number', 1.5, 'integer'],
		[{ region_number: '1', content: 'x' }, 'region_number', '1', 'number'],
	])('keeps the rest of %j when one field is of the wrong type', (region, field, found, type) => {
		const checked = firstRegion(item(region)) as Record<string, unknown>;
		expect(checked[field]).toBeInstanceOf(Flaw);
		expect(checked[field]).toMatchObject({ found, missing: false, issue: { type } });
		const other = field === 'content' ? 'region_number' : 'content';
		expect(checked[other]).toBe(region[other as keyof typeof region]);
	});

	it('marks a missing field as a Flaw without an issue', () => {
		expect(firstRegion(item({ region_number: 1 }))).toMatchObject({
			content: { found: undefined, issue: undefined, missing: true },
		});
	});

	it('lists other fields, __proto__ included, as plain data in file order', () => {
		const value = JSON.parse(
			'{"__proto__": {"item_number": 9}, "item_number": 1, "note": 2, "conditions": [{"condition_name": "a", "regions": [{"oovs": [], "region_number": 1, "content": "x", "metric_value": {"sum": 1}}]}]}',
		) as unknown;
		const checked = v.parse(ITEM_FILE, value);
		if (checked instanceof Flaw) throw new Error('not an object');
		expect(Object.getPrototypeOf(checked)).toBe(Object.prototype);
		expect(checked.item_number).toBe(1);
		expect(checked.otherFields).toEqual([
			['__proto__', { item_number: 9 }],
			['note', 2],
		]);
		expect(firstRegion(value)).toMatchObject({
			otherFields: [
				['oovs', []],
				['metric_value', { sum: 1 }],
			],
		});
	});

	it('reads own fields only', () => {
		const inherited = Object.create({ item_number: 1, conditions: [] }) as object;
		expect(v.parse(ITEM_FILE, inherited)).toMatchObject({
			item_number: { missing: true },
			conditions: { missing: true },
			otherFields: [],
		});
	});

	it('does not change the value it reads', () => {
		const value = { ...item({ region_number: '1', note: 1 }), extra: true };
		const before = structuredClone(value);
		v.parse(ITEM_FILE, value);
		expect(value).toEqual(before);
	});
});
