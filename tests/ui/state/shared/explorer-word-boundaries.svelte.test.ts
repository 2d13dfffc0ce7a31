// The explorer's beginning-of-word correction over the fake engine (which gives boundary values
// when asked): the request asks for them, the words show the corrected values of the core rule,
// a text scored without them says it needs scoring again, and the link carries the choice.
import { describe, expect, it } from 'vitest';
import type { ModelSpec } from '../../../../src/core/model/model-spec';
import type { ScoredToken } from '../../../../src/core/scoring/scored-token';
import { sumSurprisalsToWords } from '../../../../src/core/scoring/word-surprisal';
import { Explorer } from '../../../../src/ui/state/shared/explorer.svelte';
import { FakeEngine } from '../../../../src/worker/fake-engine';
import { createInThreadClient } from '../../../../src/worker/inference-client';
import type { ScoreTextsParams } from '../../../../src/worker/protocol';

function makeExplorer() {
	const client = createInThreadClient(new FakeEngine());
	const requests: ScoreTextsParams[] = [];
	const answers: (readonly ScoredToken[])[] = [];
	const explorer = new Explorer({
		client: {
			call: (kind, params, options) => {
				if (kind === 'scoreTexts') {
					const request = params as ScoreTextsParams;
					requests.push(request);
					return client.call('scoreTexts', request, options).then((result) => {
						answers.push(...result.texts.map((text) => text.tokens));
						return result;
					}) as ReturnType<typeof client.call<typeof kind>>;
				}
				return client.call(kind, params, options);
			},
		},
		load: async (spec: ModelSpec) => client.call('loadModel', { spec }),
	});
	return { explorer, requests, answers };
}

const TEXT = 'The unbelievable dog barks.';

describe('Explorer: beginning-of-word correction', () => {
	it('scores with word boundaries and shows each word corrected by the core rule', async () => {
		const { explorer, requests, answers } = makeExplorer();
		explorer.text = TEXT;
		explorer.model = 'gpt2-random-tiny';
		explorer.unit = 'words';
		explorer.bowCorrection = true;
		await explorer.explore();
		expect(requests.map((r) => r.wordBoundaries)).toEqual([true]);
		const tokens = answers[0] ?? [];
		const boundarySurprisalBits = tokens.map((t) => t.boundarySurprisalBits ?? NaN);
		expect(boundarySurprisalBits.every((bits) => Number.isFinite(bits))).toBe(true);
		const expected = sumSurprisalsToWords(TEXT, tokens, { boundarySurprisalBits });
		const [series] = explorer.series;
		expect(series?.bowCorrected).toBe(true);
		const words = series?.units.filter((unit) => !unit.special) ?? [];
		expect(words.map((w) => [w.text.trim(), w.surprisalBits])).toEqual(
			expected.map((w) => [w.word, w.surprisalBits]),
		);
		// The correction changes words: not the plain sums.
		const plain = sumSurprisalsToWords(TEXT, tokens);
		expect(words.map((w) => w.surprisalBits)).not.toEqual(plain.map((w) => w.surprisalBits));
		expect(explorer.needsRescoring).toBe(false);
		// Tokens stay the model's own values.
		explorer.unit = 'tokens';
		expect(explorer.series[0]?.bowCorrected).toBe(false);
		expect(explorer.series[0]?.units.map((u) => u.surprisalBits)).toEqual(
			tokens.map((t) => t.surprisalBits),
		);
	});

	it('a text scored without them shows plain words and asks for scoring again', async () => {
		const { explorer, requests } = makeExplorer();
		explorer.text = TEXT;
		explorer.unit = 'words';
		await explorer.explore();
		expect(requests.map((r) => 'wordBoundaries' in r)).toEqual([false]);
		explorer.bowCorrection = true;
		expect(explorer.needsRescoring).toBe(true);
		expect(explorer.series[0]?.bowCorrected).toBe(false);
		await explorer.explore();
		expect(requests.map((r) => r.wordBoundaries)).toEqual([undefined, true]);
		expect(explorer.needsRescoring).toBe(false);
		expect(explorer.series[0]?.bowCorrected).toBe(true);
	});

	it('the link carries the choice, and a link without it turns it off', () => {
		const { explorer } = makeExplorer();
		explorer.text = TEXT;
		explorer.unit = 'words';
		explorer.bowCorrection = true;
		expect(explorer.route).toMatchObject({ view: 'explore', unit: 'words', bow: true });
		const other = makeExplorer().explorer;
		other.applyRoute(explorer.route);
		expect([other.unit, other.bowCorrection]).toEqual(['words', true]);
		other.applyRoute({ view: 'explore', text: TEXT });
		expect(other.bowCorrection).toBe(false);
		expect('bow' in other.route).toBe(false);
	});
});
