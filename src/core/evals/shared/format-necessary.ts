/**
 * Upstream `format_necessary`: a model-graded prompt template filled from a sample's fields, with
 * Python's `str.format` rules (core/evals/python-text.ts) and an EvalsError naming what is missing.
 */
import { EvalsError } from './errors';
import {
	parseFormatTemplate,
	pythonStr,
	type FormatPiece,
	type JsonValue,
} from '../../python/python-text';

/**
 * Upstream `format_necessary(template, **values)`: fills each `{key}` with Python `str(value)`;
 * every key the template uses must be present, else an EvalsError naming the missing ones
 * (upstream asserts `Required: [...], got: [...]`). Values are inserted verbatim (braces in a
 * value are not re-read).
 */
export function formatNecessary(
	template: string,
	values: Readonly<Record<string, JsonValue>>,
	where: string,
): string {
	let pieces: FormatPiece[];
	try {
		pieces = parseFormatTemplate(template);
	} catch (error) {
		throw new EvalsError(`${where}: ${(error as Error).message}`);
	}
	const missing = pieces.flatMap((piece) =>
		'field' in piece && !Object.hasOwn(values, piece.field) ? [piece.field] : [],
	);
	if (missing.length > 0) {
		throw new EvalsError(
			`${where}: missing value for placeholder ${[...new Set(missing)].map((key) => `{${key}}`).join(', ')}; ` +
				`available: ${Object.keys(values).sort().join(', ') || '(none)'}. Add the field to the sample or to modelgraded_spec_args`,
		);
	}
	return pieces
		.map((piece) =>
			'literal' in piece ? piece.literal : pythonStr(values[piece.field] as JsonValue),
		)
		.join('');
}
