// Loads tests/fixtures/scoring/mini-suite.json (2 items × good/bad × 3 regions; item 2 "bad" has
// an empty region 3) as a parsed Suite, optionally with another `meta.metric`. Test helper only.
import { readFileSync } from 'node:fs';
import { parseSuiteValue } from '../../../../src/core/syntaxgym/suite/parse-suite';
import type { Suite } from '../../../../src/core/syntaxgym/suite/types';

const MINI_SUITE_PATH = new URL('../../../fixtures/scoring/mini-suite.json', import.meta.url);

/** The mini suite; `metric` replaces `meta.metric` (e.g. `'all'`, `['sum', 'max']`). */
export function loadMiniSuite(metric?: string | readonly string[]): Suite {
	const json = JSON.parse(readFileSync(MINI_SUITE_PATH, 'utf8')) as {
		meta: Record<string, unknown>;
	};
	if (metric !== undefined) json.meta.metric = metric;
	const result = parseSuiteValue(json);
	if (!result.ok)
		throw new Error(`mini suite does not parse: ${JSON.stringify(result.diagnostics)}`);
	return result.suite;
}
