/**
 * Opening a suite that does not parse in the editor, without losing the user's text: a valid
 * suite loads into the grid as usual; valid JSON that is not a valid suite loads what the grid
 * can hold (its problems are then found again at their grid cells by the editor's validation);
 * text that is not JSON at all (a syntax error, a truncated paste) is kept as text, with the
 * located syntax error, for the editor's JSON text view. Pure.
 */
import { parseSuite } from '../suite/parse-suite';
import { METRIC_NAMES, type Diagnostic, type MetricName } from '../suite/types';
import type { EditorItem, EditorState } from './editor-state';
import { fromSuite } from './suite-json';

/** What the editor opens for a suite's text. */
export type RecoveredSuite =
	| { readonly kind: 'suite'; readonly state: EditorState }
	| {
			readonly kind: 'grid';
			readonly state: EditorState;
			/** What had to change to fit the grid (each says where and what), in file order. */
			readonly notes: readonly string[];
	  }
	| { readonly kind: 'text'; readonly text: string; readonly diagnostics: readonly Diagnostic[] };

/** Decides how the editor opens `text` (see the file comment). */
export function recoverSuite(text: string): RecoveredSuite {
	const parsed = parseSuite(text);
	if (parsed.ok) return { kind: 'suite', state: fromSuite(parsed.suite) };
	if (parsed.diagnostics.some((d) => d.code === 'json-syntax')) {
		return { kind: 'text', text, diagnostics: parsed.diagnostics };
	}
	const value: unknown = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
	const recovered = gridFromJsonValue(value);
	return { kind: 'grid', state: recovered.state, notes: recovered.notes };
}

/**
 * The grid of a JSON value in the suite format, read leniently: missing or mistyped fields get
 * the grid's defaults and a note, so validation of the grid then points at what is left to fix.
 */
export function gridFromJsonValue(value: unknown): {
	readonly state: EditorState;
	readonly notes: readonly string[];
} {
	const notes: string[] = [];
	const root = asRecord(value);
	if (root === null) notes.push('the file is not a JSON object: an empty suite was started');
	const metaValue = asRecord(root?.['meta']);
	const meta = readMeta(metaValue, notes);
	const extraMeta: Record<string, unknown> = {};
	for (const [key, field] of Object.entries(metaValue ?? {})) {
		if (!['name', 'author', 'metric', 'reference', 'comment'].includes(key)) {
			extraMeta[key] = field;
		}
	}

	const regionMeta = asRecord(root?.['region_meta']) ?? {};
	const rawItems = asArray(root?.['items'], 'items', notes);
	let regionCount = 0;
	for (const key of Object.keys(regionMeta)) {
		if (/^[1-9]\d{0,3}$/.test(key)) regionCount = Math.max(regionCount, Number(key));
	}
	// First pass: condition names in order of first appearance, and the widest row.
	const conditionNames: string[] = [];
	const rows = rawItems.map((rawItem, itemIndex) => {
		const item = asRecord(rawItem);
		const conditions = asArray(item?.['conditions'], `items/${itemIndex}/conditions`, notes);
		return conditions.map((rawCondition, conditionIndex) => {
			const row = readConditionRow(rawCondition, itemIndex, conditionIndex, notes);
			if (!conditionNames.includes(row.name)) conditionNames.push(row.name);
			regionCount = Math.max(regionCount, row.cells.length);
			return row;
		});
	});
	if (conditionNames.length === 0) conditionNames.push('condition_1');
	if (regionCount === 0) regionCount = 1;
	const regionNames = Array.from({ length: regionCount }, (_, index) => {
		const name = regionMeta[String(index + 1)];
		return typeof name === 'string' && name !== '' ? name : `region_${index + 1}`;
	});

	const items = rawItems.map((rawItem, itemIndex) =>
		readItemRows(rawItem, itemIndex, rows[itemIndex] ?? [], conditionNames, regionNames, notes),
	);
	if (items.length === 0) {
		items.push({
			itemNumber: 1,
			cells: conditionNames.map(() => regionNames.map(() => '')),
		});
	}
	const predictions = readPredictions(root?.['predictions'], notes);
	return {
		state: { meta, regionNames, conditionNames, items, predictions, extraMeta },
		notes,
	};
}

/** One condition of a raw item, as a grid row: its name and its cells by region index. */
interface ConditionRow {
	readonly name: string;
	readonly cells: readonly string[];
}

/** Reads one condition of item `itemIndex`, naming it and placing its regions by number. */
function readConditionRow(
	rawCondition: unknown,
	itemIndex: number,
	conditionIndex: number,
	notes: string[],
): ConditionRow {
	const condition = asRecord(rawCondition);
	const rawName = condition?.['condition_name'];
	let name: string;
	if (typeof rawName === 'string' && rawName !== '') {
		name = rawName;
	} else {
		name = `condition_${conditionIndex + 1}`;
		notes.push(
			`item ${itemIndex + 1}, condition ${conditionIndex + 1}: no condition_name, named "${name}"`,
		);
	}
	const regions = asArray(
		condition?.['regions'],
		`items/${itemIndex}/conditions/${conditionIndex}/regions`,
		notes,
	);
	const cells: string[] = [];
	regions.forEach((rawRegion, regionIndex) => {
		const region = asRecord(rawRegion);
		const number = region?.['region_number'];
		const at =
			typeof number === 'number' && Number.isInteger(number) && number >= 1 && number <= 9999
				? number - 1
				: regionIndex;
		const content = region?.['content'];
		if (typeof content === 'string') {
			cells[at] = content;
		} else {
			cells[at] = content === undefined || content === null ? '' : JSON.stringify(content);
			notes.push(
				`item ${itemIndex + 1}, ${name}, region ${at + 1}: content is not text, kept as ${JSON.stringify(cells[at])}`,
			);
		}
	});
	return { name, cells };
}

/** An item of the grid: its number, and one row per condition name (empty where it had none). */
function readItemRows(
	rawItem: unknown,
	itemIndex: number,
	itemRows: readonly ConditionRow[],
	conditionNames: readonly string[],
	regionNames: readonly string[],
	notes: string[],
): EditorItem {
	const rawNumber = asRecord(rawItem)?.['item_number'];
	let itemNumber = itemIndex + 1;
	if (typeof rawNumber === 'number' && Number.isInteger(rawNumber)) {
		itemNumber = rawNumber;
	} else if (typeof rawNumber === 'string' && /^-?\d{1,9}$/.test(rawNumber.trim())) {
		itemNumber = Number(rawNumber.trim());
	} else {
		notes.push(`item ${itemIndex + 1}: item_number is not a whole number, numbered ${itemNumber}`);
	}
	return {
		itemNumber,
		cells: conditionNames.map((name) => {
			const row = itemRows.find((r) => r.name === name);
			if (row === undefined && itemRows.length > 0) {
				notes.push(`item ${itemIndex + 1} has no condition "${name}": its row was added, empty`);
			}
			return regionNames.map((_, regionIndex) => row?.cells[regionIndex] ?? '');
		}),
	};
}

/** The prediction formulas: a string, or an object's `formula`; anything else is left out. */
function readPredictions(rawPredictions: unknown, notes: string[]): string[] {
	const predictions: string[] = [];
	asArray(rawPredictions, 'predictions', notes).forEach((rawPrediction, index) => {
		const prediction = asRecord(rawPrediction);
		const formula = typeof rawPrediction === 'string' ? rawPrediction : prediction?.['formula'];
		if (typeof formula === 'string') {
			predictions.push(formula);
		} else {
			notes.push(
				`prediction ${index + 1} has no formula text and was left out: ${JSON.stringify(rawPrediction)}`,
			);
		}
	});
	return predictions;
}

/** The UTF-16 offset of 1-based `line`:`column` in `text`, clamped to the text. */
export function textOffset(text: string, line: number, column: number): number {
	let offset = 0;
	for (let current = 1; current < line; current += 1) {
		const next = text.indexOf('\n', offset);
		if (next === -1) return text.length;
		offset = next + 1;
	}
	const lineEnd = text.indexOf('\n', offset);
	const end = lineEnd === -1 ? text.length : lineEnd;
	return Math.min(end, offset + Math.max(0, column - 1));
}

function readMeta(meta: Record<string, unknown> | null, notes: string[]): EditorState['meta'] {
	const text = (key: string): string => {
		const field = meta?.[key];
		return typeof field === 'string' ? field : '';
	};
	const rawMetric = meta?.['metric'];
	const names =
		typeof rawMetric === 'string' ? [rawMetric] : Array.isArray(rawMetric) ? rawMetric : [];
	const metrics = METRIC_NAMES.filter((metric) => names.includes(metric));
	const unknown = names.filter((name) => !METRIC_NAMES.includes(name as MetricName));
	if (unknown.length > 0) {
		notes.push(
			`meta.metric: ${unknown.map((name) => JSON.stringify(name)).join(', ')} is not one of ${METRIC_NAMES.join(', ')}: left out`,
		);
	}
	return {
		name: text('name'),
		author: text('author'),
		reference: text('reference'),
		comment: text('comment'),
		metrics,
	};
}

function asRecord(value: unknown): Record<string, unknown> | null {
	return typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as Record<string, unknown>)
		: null;
}

function asArray(value: unknown, where: string, notes: string[]): readonly unknown[] {
	if (Array.isArray(value)) return value;
	if (value !== undefined) notes.push(`${where} is not a list: left empty`);
	return [];
}
