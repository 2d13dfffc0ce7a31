// The explorer's state over the fake engine in this thread: scoring, words, compare, the link
// and its problems.
import { describe, expect, it } from 'vitest';
import type { ModelSpec } from '../../../../src/core/model/model-spec';
import { Explorer } from '../../../../src/ui/state/shared/explorer.svelte';
import { FakeEngine } from '../../../../src/worker/fake-engine';
import { createInThreadClient } from '../../../../src/worker/inference-client';

function makeExplorer() {
	const client = createInThreadClient(new FakeEngine());
	const loaded: string[] = [];
	const explorer = new Explorer({
		client,
		load: async (spec: ModelSpec) => {
			loaded.push(spec.id);
			return client.call('loadModel', { spec });
		},
	});
	return { explorer, loaded };
}

describe('Explorer', () => {
	it('scores the text; words sum their tokens; the total does not depend on the unit', async () => {
		const { explorer } = makeExplorer();
		explorer.text = 'The unbelievable dog barks.';
		explorer.model = 'gpt2-random-tiny';
		await explorer.explore();
		expect(explorer.status).toBe('done');
		const [tokens] = explorer.series;
		expect(tokens?.modelId).toBe('gpt2-random-tiny');
		const tokenTotal = tokens?.totalBits ?? NaN;
		explorer.unit = 'words';
		const [words] = explorer.series;
		expect(words?.units.filter((u) => !u.special).map((u) => u.text.trim())).toEqual([
			'The',
			'unbelievable',
			'dog',
			'barks.',
		]);
		expect(words?.totalBits).toBeCloseTo(tokenTotal, 9);
	});

	it('compares two models in order; the same model twice is scored once', async () => {
		const { explorer, loaded } = makeExplorer();
		explorer.text = 'Dogs bark.';
		explorer.model = 'gpt2-random-tiny';
		explorer.compare = 'gpt2-en-small';
		await explorer.explore();
		expect(explorer.series.map((s) => s.modelId)).toEqual(['gpt2-random-tiny', 'gpt2-en-small']);
		explorer.compare = 'gpt2-random-tiny';
		await explorer.explore();
		expect(explorer.series).toHaveLength(1);
		expect(loaded).toEqual(['gpt2-random-tiny', 'gpt2-en-small', 'gpt2-random-tiny']);
	});

	it('an empty text is a problem, not a request', async () => {
		const { explorer, loaded } = makeExplorer();
		await explorer.explore();
		expect([explorer.status, explorer.message]).toEqual(['failed', 'Type or paste a text first.']);
		expect(loaded).toEqual([]);
	});

	it('route out and back in; unknown models in a link are ignored', () => {
		const { explorer } = makeExplorer();
		explorer.text = 'a "quoted" text & more';
		explorer.compare = 'gpt2-random-tiny';
		explorer.unit = 'words';
		const other = makeExplorer().explorer;
		other.applyRoute(explorer.route);
		expect([other.text, other.model, other.compare, other.unit]).toEqual([
			'a "quoted" text & more',
			'gpt2-en-small',
			'gpt2-random-tiny',
			'words',
		]);
		other.applyRoute({ view: 'explore', model: 'evil/model', compare: 'x' });
		expect([other.model, other.compare]).toEqual(['gpt2-en-small', '']);
	});
});
