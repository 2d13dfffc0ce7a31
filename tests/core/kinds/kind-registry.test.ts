// The kind registry's check of a kind's glossary words: an id is a word id (lowercase letters,
// digits and `-`), and no two words of the registered kinds share one; a refused kind leaves the
// registry as it was.
import { describe, expect, it } from 'vitest';
import { KindRegistry } from '../../../src/core/kinds/kind-registry';
import { RUN_KIND_REGISTRY } from '../../../src/core/kinds/registered-kinds';
import type { GlossaryTerm } from '../../../src/core/run/run-kind';
import { TALLY_GLOSSARY, TALLY_KIND } from '../../support/tally-kind';

/** The tally kind renamed `name` (its bundle, link route and page too), with `glossary`. */
function tallyNamed(name: string, glossary: readonly GlossaryTerm[]) {
	return {
		...TALLY_KIND,
		kind: name,
		page: { name, route: `#/${name}` },
		bundle: { ...TALLY_KIND.bundle, kind: name },
		share: { ...TALLY_KIND.share, kind: name, route: `/${name}/share/` },
		glossary,
	};
}

describe('a kind’s glossary words in the registry', () => {
	it('registers the app’s kinds, whose words share no id', () => {
		const words = RUN_KIND_REGISTRY.kinds.flatMap(
			({ glossary }): readonly GlossaryTerm[] => glossary ?? [],
		);
		expect(words.length).toBe(22);
		expect(new Set(words.map(({ id }) => id)).size).toBe(words.length);
	});

	it('refuses a word id another kind has, and keeps the registry as it was', () => {
		const registry = new KindRegistry([TALLY_KIND]);
		expect(() => registry.register(tallyNamed('count', TALLY_GLOSSARY))).toThrow(
			'Glossary term "tally-step" of kind "count" is taken by kind "tally".',
		);
		expect(registry.names).toEqual(['tally']);
		registry.register(tallyNamed('count', [{ ...TALLY_GLOSSARY[0], id: 'count-step' }]));
		expect(registry.names).toEqual(['tally', 'count']);
	});

	it('refuses a kind that gives one word id twice, or an id that is not one', () => {
		const registry = new KindRegistry([]);
		const [step] = TALLY_GLOSSARY;
		expect(() => registry.register(tallyNamed('count', [step, step]))).toThrow(
			'Glossary term "tally-step" of kind "count" is taken by kind "count".',
		);
		expect(() => registry.register(tallyNamed('count', [{ ...step, id: 'Tally step' }]))).toThrow(
			'"Tally step" (kind "count") is not a term id.',
		);
		expect(registry.names).toEqual([]);
	});
});
