import { describe, expect, it } from 'vitest';
import {
	locateGridPlace,
	type GridPlace,
} from '../../../../src/core/syntaxgym/editor/locate-grid-cell';

describe('locateGridPlace', () => {
	it.each<[string, GridPlace | null]>([
		[
			'/items/0/conditions/1/regions/2/content',
			{ kind: 'cell', itemIndex: 0, conditionIndex: 1, regionIndex: 2 },
		],
		[
			'/items/3/conditions/0/regions/10',
			{ kind: 'cell', itemIndex: 3, conditionIndex: 0, regionIndex: 10 },
		],
		['/items/2/conditions/1/condition_name', { kind: 'row', itemIndex: 2, conditionIndex: 1 }],
		['/items/2/item_number', { kind: 'item', itemIndex: 2 }],
		['/predictions/1/formula', { kind: 'prediction', predictionIndex: 1 }],
		['/predictions', null],
		['/meta/name', null],
		['', null],
		['/items/x/conditions/0', null],
		['/items/01', null],
	])('%s', (pointer, place) => {
		expect(locateGridPlace(pointer)).toEqual(place);
	});
});
