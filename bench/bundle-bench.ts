/**
 * Wall time of writing and reading a large suite run bundle through the run kind's description
 * (SUITE_RUN_KIND): 3,000 items × 4 conditions × 40 tokens, random surprisals. Writing seals the
 * bundle with its results' SHA-256; reading parses it and checks the seal. Part of `npm run bench`
 * (part `bundle`); run alone with `npx tsx bench/bundle-bench.ts`.
 */
import { pathToFileURL } from 'node:url';
import { sha256Hex } from '../src/core/hash/sha256';
import { SUITE_RUN_KIND } from '../src/core/syntaxgym/run/suite-run-kind';
import type { RunBundle } from '../src/core/syntaxgym/run/run-bundle';

export interface BundleBench {
	readonly bundle_suite_mib: number;
	readonly bundle_suite_write_s: number;
	readonly bundle_suite_read_s: number;
}

const ITEMS = 3000;
const CONDITIONS = 4;
const TOKENS = 40;

/** A bundle of ITEMS items, deterministic surprisals (a linear congruential sequence). */
function largeBundle(): RunBundle {
	const suiteText = '{"meta":{"name":"bench"}}\n';
	let seed = 1;
	const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
	const items = Array.from({ length: ITEMS }, (_, i) => ({
		itemNumber: i + 1,
		sentences: Array.from({ length: CONDITIONS }, (_, c) => ({
			conditionName: `condition-${c}`,
			text: 'word '.repeat(TOKENS).trim(),
			tokens: Array.from({ length: TOKENS }, (_, t) => ({
				token: t === 0 ? 'word' : 'Ġword',
				surprisalBits: next() * 20,
				start: t * 5,
				end: t * 5 + 4,
			})),
		})),
	}));
	return {
		run: {
			suiteName: 'bench',
			suiteSha256: sha256Hex(suiteText),
			model: { source: 'bundled', id: 'gpt2-random-tiny', dtype: 'fp32', backend: 'node-cpu' },
			convention: 'bos',
			itemCount: ITEMS,
			appVersion: 'bench',
			createdAt: 0,
			updatedAt: 0,
			status: 'done',
			scoringMs: 0,
			tokenCount: ITEMS * CONDITIONS * TOKENS,
		},
		suiteText,
		items,
	};
}

const seconds = (ms: number) => Math.round(ms / 10) / 100;

export function benchBundle(): BundleBench {
	const bundle = largeBundle();
	let started = performance.now();
	const text = SUITE_RUN_KIND.bundle.write(bundle);
	const written = performance.now() - started;
	started = performance.now();
	const read = SUITE_RUN_KIND.bundle.read(text);
	const readMs = performance.now() - started;
	if (!read.ok || read.resultsSha256 === undefined)
		throw new Error('the bench bundle did not read back sealed');
	return {
		bundle_suite_mib: Math.round((text.length / 2 ** 20) * 10) / 10,
		bundle_suite_write_s: seconds(written),
		bundle_suite_read_s: seconds(readMs),
	};
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
	console.log(JSON.stringify(benchBundle(), null, 2));
}
