/**
 * The one error of the Evals core: what is wrong, where (file, line, field) and what to do.
 * Registry and sample problems are input errors (the CLI exits 2 on them).
 */
import { BenchtopError } from '../../errors';
import type { EvalsLocation } from './types';

/** A registry, sample or spec problem, located where that is known. */
export class EvalsError extends BenchtopError {
	override name = 'EvalsError';
	constructor(
		message: string,
		readonly location?: EvalsLocation,
	) {
		super(message);
	}
}

/** `file:line: ` (or `file: `) for messages. */
export function formatLocation(location: EvalsLocation): string {
	const line = location.line === undefined ? '' : `:${location.line}`;
	const field = location.field === undefined ? '' : ` (${location.field})`;
	return `${location.file}${line}${field}`;
}
