// The glossary: the words every family shares, then each registered kind's own words in the
// registry's order, each id once. A kind registered only in a test (tests/support/tally-kind.ts)
// brings its words with no shared file changed; a word id given twice is refused.
import { describe, expect, it } from 'vitest';
import { KindRegistry } from '../../../src/core/kinds/kind-registry';
import { RUN_KIND_REGISTRY } from '../../../src/core/kinds/registered-kinds';
import { STIMULI_GLOSSARY } from '../../../src/core/stimuli/stimuli-glossary';
import {
	GLOSSARY,
	SHARED_GLOSSARY,
	glossaryOf,
	glossaryTerm,
	type GlossaryTermId,
} from '../../../src/ui/glossary/glossary-terms';
import { TALLY_GLOSSARY, TALLY_KIND } from '../../support/tally-kind';

const ids = (terms: readonly { readonly id: string }[]) => terms.map(({ id }) => id);

describe('the glossary of the app', () => {
	it('lists the shared words, then the suite, Evals, Memory and Stimuli words', () => {
		expect(ids(GLOSSARY)).toEqual([
			// every family's
			'surprisal',
			'bits',
			'bos',
			'convention',
			'weights',
			'backend',
			'word-boundary',
			'replay-file',
			'text-model-agent',
			// suite (and battery)
			'region',
			'condition',
			'prediction',
			'critical-region',
			'wilson-interval',
			'mcnemar-test',
			'battery',
			'sg-score',
			'circuit',
			// Evals
			'registry',
			'grader',
			'model-graded',
			// Memory
			'memory-span',
			'ltm-score',
			'overrun',
			'isolated',
			'agent-context',
			'filler',
			// Stimuli
			'stimulus-word',
			'sliding-window',
			'next-word-entropy',
			'critical-word',
		]);
		expect(new Set(ids(GLOSSARY)).size).toBe(GLOSSARY.length);
	});

	it('takes each family’s words from its kind, in the registry’s order', () => {
		const byKind = RUN_KIND_REGISTRY.kinds.map(({ kind, glossary }) => [kind, glossary?.length]);
		expect(byKind).toEqual([
			['suite', 9],
			['evals', 3],
			['ltm', 6],
			['stimuli', 4],
		]);
		expect(GLOSSARY.slice(-STIMULI_GLOSSARY.length)).toEqual(STIMULI_GLOSSARY);
		expect(GLOSSARY.slice(0, SHARED_GLOSSARY.length)).toEqual(SHARED_GLOSSARY);
	});

	it('gives every word a term, a one-sentence tip and more for the page', () => {
		for (const word of GLOSSARY) {
			expect(word.term.length, word.id).toBeGreaterThan(0);
			expect(word.short, word.id).toMatch(/\.$/);
			expect(word.more.length, word.id).toBeGreaterThan(word.short.length);
		}
	});

	it('finds a word of any kind by id; an unknown id does not compile and throws', () => {
		const kindWord: GlossaryTermId = 'critical-word';
		expect(glossaryTerm(kindWord).term).toBe('Critical word');
		expect(glossaryTerm('surprisal').term).toBe('Surprisal');
		// @ts-expect-error -- not a word of the glossary
		expect(() => glossaryTerm('no-such-word')).toThrow("No glossary term 'no-such-word'.");
	});
});

describe('the glossary of a registry', () => {
	it('brings the words of a kind registered only in a test, after the app’s', () => {
		const registry = new KindRegistry([...RUN_KIND_REGISTRY.kinds, TALLY_KIND]);
		const glossary = glossaryOf(SHARED_GLOSSARY, registry);
		expect(glossary).toEqual([...GLOSSARY, ...TALLY_GLOSSARY]);
		expect(glossary.at(-1)?.term).toBe('Step (of a tally)');
	});

	it('adds nothing for a kind without words', () => {
		const { glossary: _words, ...wordless } = TALLY_KIND;
		const registry = new KindRegistry([...RUN_KIND_REGISTRY.kinds, wordless]);
		expect(glossaryOf(SHARED_GLOSSARY, registry)).toEqual(GLOSSARY);
	});

	it('refuses a kind’s word whose id is a shared word’s, or another kind’s', () => {
		const [step] = TALLY_GLOSSARY;
		expect(() =>
			glossaryOf(SHARED_GLOSSARY, {
				kinds: [{ kind: 'tally', glossary: [{ ...step, id: 'bits' }] }],
			}),
		).toThrow('Glossary term "bits" of kind "tally" is already one of the shared words.');
		expect(() =>
			glossaryOf(SHARED_GLOSSARY, {
				kinds: [
					{ kind: 'tally', glossary: [step] },
					{ kind: 'count', glossary: [step] },
				],
			}),
		).toThrow('Glossary term "tally-step" of kind "count" is already one of kind "tally".');
	});
});
