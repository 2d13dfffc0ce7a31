/**
 * Reads an lm-zoo model spec (`spec.json`: `vocabulary`, `tokenizer`) into the TokenizationSpec
 * that the string alignment uses. Only those two sections are read; the rest is ignored.
 */
import type { SentinelPosition, TokenizationSpec } from '../alignment/tokenization-spec';
import { createInputFormatError } from '../../formats/tsv-table';

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
	const before = text.slice(0, offset).split('\n');
	return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const SENTINEL_POSITIONS: readonly SentinelPosition[] = ['initial', 'medial', 'final'];

/**
 * Parses `text` as an lm-zoo spec. `vocabulary.{unk,prefix,suffix,special}_types` (string
 * lists, missing = empty); `tokenizer.cased` (default true); for `tokenizer.type: "subword"`,
 * `sentinel_pattern` + `sentinel_position`; `tokenizer.metaspace` (an initial sentinel);
 * `tokenizer.behaviors` containing `"moses"`; `tokenizer.drop_token_pattern`.
 * @throws InputFormatError naming the file and the JSON pointer (or line:column for bad JSON).
 */
export function parseLmZooSpec(text: string, source = 'spec'): TokenizationSpec {
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		const position = /position (\d+)/.exec(message);
		const at = position ? lineAndColumn(text, Number(position[1])) : undefined;
		throw createInputFormatError(source, at?.line, at?.column, `not valid JSON (${message}).`);
	}
	const fail = (pointer: string, problem: string) =>
		createInputFormatError(source, undefined, undefined, `${pointer}: ${problem}`);
	if (!isRecord(json)) throw fail('/', 'an lm-zoo spec is a JSON object.');
	const vocabulary = json.vocabulary ?? {};
	const tokenizer = json.tokenizer ?? {};
	if (!isRecord(vocabulary)) throw fail('/vocabulary', 'must be an object.');
	if (!isRecord(tokenizer)) throw fail('/tokenizer', 'must be an object.');

	const stringList = (key: string): string[] => {
		const value = vocabulary[key] ?? [];
		if (!Array.isArray(value) || !value.every((entry) => typeof entry === 'string')) {
			throw fail(`/vocabulary/${key}`, 'must be a list of token strings.');
		}
		return value as string[];
	};
	const optionalString = (key: string): string | undefined => {
		const value = tokenizer[key];
		if (value === undefined || value === null) return undefined;
		if (typeof value !== 'string') throw fail(`/tokenizer/${key}`, 'must be a string.');
		return value;
	};

	const cased = tokenizer.cased ?? true;
	if (typeof cased !== 'boolean') throw fail('/tokenizer/cased', 'must be true or false.');
	const sentinels: { pattern: string; position: SentinelPosition }[] = [];
	if (tokenizer.type === 'subword') {
		const pattern = optionalString('sentinel_pattern');
		const position = optionalString('sentinel_position') ?? 'initial';
		if (!(SENTINEL_POSITIONS as readonly string[]).includes(position)) {
			throw fail(
				'/tokenizer/sentinel_position',
				`must be one of ${SENTINEL_POSITIONS.join(', ')}.`,
			);
		}
		if (pattern) sentinels.push({ pattern, position: position as SentinelPosition });
	}
	const metaspace = optionalString('metaspace');
	if (metaspace) sentinels.push({ pattern: metaspace, position: 'initial' });
	const behaviors = tokenizer.behaviors ?? [];
	if (!Array.isArray(behaviors)) throw fail('/tokenizer/behaviors', 'must be a list.');
	const dropTokenPattern = optionalString('drop_token_pattern');
	if (dropTokenPattern !== undefined) {
		try {
			new RegExp(dropTokenPattern, 'u');
		} catch {
			throw fail('/tokenizer/drop_token_pattern', 'is not a valid regular expression.');
		}
	}
	return {
		unkTypes: stringList('unk_types'),
		prefixTypes: stringList('prefix_types'),
		suffixTypes: stringList('suffix_types'),
		specialTypes: stringList('special_types'),
		cased,
		sentinels,
		moses: behaviors.includes('moses'),
		...(dropTokenPattern === undefined ? {} : { dropTokenPattern }),
	};
}
