/**
 * Where a suite diagnostic's JSON pointer lands in the editor: a grid cell, a grid row, an item,
 * or a prediction. The editor's JSON keeps the grid's order (suite-json.ts: items, then
 * conditions in `conditionNames` order, then regions in `regionNames` order). Pure.
 */

export type GridPlace =
	| {
			readonly kind: 'cell';
			readonly itemIndex: number;
			readonly conditionIndex: number;
			readonly regionIndex: number;
	  }
	| { readonly kind: 'row'; readonly itemIndex: number; readonly conditionIndex: number }
	| { readonly kind: 'item'; readonly itemIndex: number }
	| { readonly kind: 'prediction'; readonly predictionIndex: number };

const INDEX = /^(0|[1-9]\d{0,8})$/;

/** The editor place of `pointer` (`/items/0/conditions/1/regions/2/content`), or null for a
 * pointer outside the grid and predictions (meta, the whole file). */
export function locateGridPlace(pointer: string): GridPlace | null {
	const parts = pointer.split('/').slice(1);
	const index = (position: number): number | null => {
		const part = parts[position];
		return part !== undefined && INDEX.test(part) ? Number(part) : null;
	};
	if (parts[0] === 'predictions') {
		const predictionIndex = index(1);
		return predictionIndex === null ? null : { kind: 'prediction', predictionIndex };
	}
	if (parts[0] !== 'items') return null;
	const itemIndex = index(1);
	if (itemIndex === null) return null;
	const conditionIndex = parts[2] === 'conditions' ? index(3) : null;
	if (conditionIndex === null) return { kind: 'item', itemIndex };
	const regionIndex = parts[4] === 'regions' ? index(5) : null;
	if (regionIndex === null) return { kind: 'row', itemIndex, conditionIndex };
	return { kind: 'cell', itemIndex, conditionIndex, regionIndex };
}
