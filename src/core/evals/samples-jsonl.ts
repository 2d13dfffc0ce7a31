/**
 * Samples JSONL as upstream `evals/data.py` reads it: one JSON value per line, every line parsed
 * (so a blank line, interior or trailing after the final newline, is an error), errors carry the
 * file and 1-based line. Pure; the caller supplies the text.
 */
import * as v from 'valibot';
import { EvalsError } from './shared/errors';
import type { JsonValue, Sample } from './shared/types';

/**
 * A sample: a JSON object (not a list). Its fields are checked by the template that reads them
 * (`input`, `ideal`, the spec's input fields), where errors can name the sample.
 */
export const SampleSchema = v.custom<Sample>(
	(input) => input !== null && typeof input === 'object' && !Array.isArray(input),
);

/** Lines as Python's text-mode iteration yields them (universal newlines, no empty tail). */
function splitLines(text: string): string[] {
	const lines = text.split(/\r\n|\r|\n/u);
	if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
	return lines;
}

/**
 * Parses a samples (or few-shot) JSONL text. Each line must be a JSON object. An empty file gives
 * no samples. Errors: `EvalsError` at `{file: path, line}`.
 */
export function parseSamplesJsonl(text: string, path: string): Sample[] {
	const samples: Sample[] = [];
	splitLines(text).forEach((line, index) => {
		const lineNumber = index + 1;
		if (lineNumber === 1 && line.startsWith('\ufeff')) {
			throw new EvalsError(
				`${path}:1: the file starts with a byte-order mark, which upstream's JSON reader rejects; save it as UTF-8 without BOM`,
				{ file: path, line: 1 },
			);
		}
		if (line.trim() === '') {
			throw new EvalsError(
				`${path}:${lineNumber}: blank line; every line of a JSONL file must be one JSON object (remove the line)`,
				{ file: path, line: lineNumber },
			);
		}
		let value: JsonValue;
		try {
			value = JSON.parse(line) as JsonValue;
		} catch (error) {
			const why = error instanceof Error ? error.message : String(error);
			throw new EvalsError(`${path}:${lineNumber}: not valid JSON (${why})`, {
				file: path,
				line: lineNumber,
			});
		}
		if (!v.is(SampleSchema, value)) {
			throw new EvalsError(
				`${path}:${lineNumber}: a sample must be a JSON object such as {"input": ..., "ideal": ...}`,
				{ file: path, line: lineNumber },
			);
		}
		samples.push(value);
	});
	return samples;
}
