// The Restaurant built-in (reference §2.3) with a scripted guest and a scripted judge: five points,
// early stop keeping the points earned, judge calls with JSON answers, waiter messages, no judge.
import { describe, expect, it } from 'vitest';
import { NEEDS_JUDGE_REASON } from '../../../src/core/ltm/evaluate-test';
import { loadLtmSuite } from '../../../src/core/ltm/ltm-suite';
import { RESTAURANT_MENU } from '../../../src/core/ltm/restaurant-menu';
import { LtmCancelledError, runLtm } from '../../../src/core/ltm/run-ltm';
import type { LtmRunState } from '../../../src/core/ltm/scheduler';
import type { LtmBenchmark } from '../../../src/core/ltm/shared/types';
import type {
	GenerateRequest,
	GenerationEvent,
	ModelCall,
	TextModel,
} from '../../../src/core/model/generation';

const words = (text: string): number => text.split(/\s+/).filter((word) => word !== '').length;

interface Recorded {
	request: GenerateRequest;
	call: ModelCall;
}

function model(answer: (text: string) => string, calls: Recorded[] = []): TextModel {
	return {
		label: 'scripted',
		abilities: { score: false, generate: true, chat: true },
		async *generate(request, call): AsyncGenerator<GenerationEvent> {
			calls.push({ request, call });
			const messages = request.prompt.kind === 'chat' ? request.prompt.messages : [];
			yield { type: 'done', completion: answer(messages.at(-1)!.content), finishReason: 'stop' };
		},
		countTokens: words,
	};
}

const items = RESTAURANT_MENU.flatMap((section) =>
	section.items.map((item) => ({ ...item, drink: section.drinks })),
);

/** A judge that reads the guest's reply from its prompt as a careful person would. */
function judge(prompt: string): string {
	const reply = prompt.split('The guest replied:\n')[1]?.split('\n\n')[0] ?? '';
	if (prompt.includes('"follows_role"'))
		return JSON.stringify({ follows_role: !reply.startsWith('As an AI') });
	if (prompt.includes('"has_ordered_something"')) {
		const order = [...reply.matchAll(/number (\d+)/g)].map((match) => {
			const item = items.find((candidate) => candidate.nr === Number(match[1]))!;
			return {
				item: item.name,
				menu_nr: item.nr,
				is_drink: item.drink,
				menu_ref: true,
				off_menu: false,
			};
		});
		if (reply.includes('pizza'))
			order.push({
				item: 'pizza',
				menu_nr: null as unknown as number,
				is_drink: false,
				menu_ref: false,
				off_menu: true,
			});
		// Fenced and with a trailing comma: read through sanitize_and_parse_json.
		return (
			'```json\n' +
			JSON.stringify({ has_ordered_something: order.length > 0, order }).replace(/}$/, ',}') +
			'\n```'
		);
	}
	if (prompt.includes('"noticed"'))
		return JSON.stringify({ noticed: reply.includes('not what I ordered') });
	if (prompt.includes('"recalls"')) {
		const drink = /ordered to drink: (.+)\.\n/.exec(prompt)![1]!;
		return JSON.stringify({ recalls: reply.includes(drink) });
	}
	throw new Error(`unexpected judge prompt: ${prompt}`);
}

/** A guest who stays in role; `reorder` makes it ask for a dish it already had. */
function guest(options: { reorder?: boolean; offMenu?: boolean; outOfRole?: boolean } = {}) {
	return (text: string): string => {
		if (!text.startsWith('Waiter: ')) return 'OK';
		if (options.outOfRole) return 'As an AI language model, I do not eat or drink.';
		if (text.includes('something to drink')) return 'A number 16, the apple juice, please.';
		if (text.includes('what would you like to eat'))
			return options.offMenu ? 'A pizza, please.' : 'I will have number 2 and then number 7.';
		if (text.includes('sold out'))
			return options.reorder ? 'Oh. Then number 2 and number 7 again.' : 'Then number 8, please.';
		if (text.includes('Here we are')) return 'Excuse me, one of these is not what I ordered.';
		if (text.includes('What were you drinking')) return 'Fresh apple juice, thank you!';
		return 'Thank you.';
	};
}

function benchmark(): LtmBenchmark {
	const suite = {
		format: 'ltm-suite/1',
		config: { run_name: 'restaurant', memory_span: 300 },
		datasets: [{ name: 'Restaurant', evaluator: 'dynamic', examples: [{ type: 'restaurant' }] }],
	};
	const loaded = loadLtmSuite('restaurant.ltm-suite.json', JSON.stringify(suite));
	if (!loaded.ok) throw new Error(JSON.stringify(loaded.diagnostics));
	return loaded.benchmark;
}

const waiterLines = (calls: Recorded[]) =>
	calls
		.map(({ request }) =>
			request.prompt.kind === 'chat' ? request.prompt.messages.at(-1)!.content : '',
		)
		.filter((text) => text.startsWith('Waiter: '));

describe('Restaurant built-in', () => {
	it('a guest who orders, reorders, notices the swap and recalls the drink scores 5 of 5', async () => {
		const agentCalls: Recorded[] = [];
		const judgeCalls: Recorded[] = [];
		const state = await runLtm(benchmark(), {
			agent: model(guest(), agentCalls),
			judge: model(judge, judgeCalls),
			environment: { countTokens: words },
		});
		const evaluation = state.outcomes['Restaurant - 0']!.evaluation;
		expect(evaluation.status === 'scored' && evaluation.score).toBe(1);
		expect(evaluation.reasons).toHaveLength(5);
		expect(evaluation.reasons[0]).toBe('The guest ordered Fresh apple juice to drink.');
		// Menu, food, confirmation, sold out, served, apology, free drink.
		const waiter = waiterLines(agentCalls);
		expect(waiter).toHaveLength(7);
		expect(waiter[0]).toContain('16. Fresh apple juice');
		const soldOut = /told me that the (.+) has sold out/.exec(waiter[3]!)![1];
		expect(['Leek and potato soup', 'Lamb shoulder with rosemary beans']).toContain(soldOut);
		expect(judgeCalls.map(({ call }) => call.callIndex)).toEqual([0, 1, 2, 3, 4, 5]);
		expect(
			judgeCalls.every(({ call }) => call.role === 'judge' && call.sampleId === 'Restaurant - 0'),
		).toBe(true);
		expect(
			judgeCalls.every(
				({ request }) => request.params.temperature === 0 && request.params.max_tokens === 256,
			),
		).toBe(true);
		// The swapped dish comes from the same menu section as the one it replaces.
		const served = waiter[4]!;
		const swapped = /take that back and bring the (.+) right away/.exec(waiter[5]!)![1]!;
		expect(served).not.toContain(swapped);
		const section = RESTAURANT_MENU.find((s) => s.items.some((item) => item.name === swapped))!;
		expect(section.items.some((item) => item.name !== swapped && served.includes(item.name))).toBe(
			true,
		);
	});

	it('re-ordering a dish already ordered ends the test, keeping the 2 points earned', async () => {
		const agentCalls: Recorded[] = [];
		const state = await runLtm(benchmark(), {
			agent: model(guest({ reorder: true }), agentCalls),
			judge: model(judge),
			environment: { countTokens: words },
		});
		const evaluation = state.outcomes['Restaurant - 0']!.evaluation;
		expect(evaluation.status === 'scored' && evaluation.score).toBe(2 / 5);
		expect(evaluation.reasons.at(-1)).toMatch(/again, which was already ordered\.$/);
		expect(waiterLines(agentCalls).some((text) => text.includes('Here we are'))).toBe(false);
	});

	it('food off the menu ends the test after the drink point; a guest out of role scores 0', async () => {
		const offMenu = await runLtm(benchmark(), {
			agent: model(guest({ offMenu: true })),
			judge: model(judge),
			environment: { countTokens: words },
		});
		expect(offMenu.outcomes['Restaurant - 0']!.evaluation).toMatchObject({
			status: 'scored',
			score: 1 / 5,
		});
		const outOfRole = await runLtm(benchmark(), {
			agent: model(guest({ outOfRole: true })),
			judge: model(judge),
			environment: { countTokens: words },
		});
		expect(outOfRole.outcomes['Restaurant - 0']!.evaluation).toEqual({
			status: 'scored',
			score: 0,
			reasons: ['The agent did not play the guest.'],
			flags: [],
		});
	});

	it('a run cancelled after its third judge call resumes to the same end, without asking again', async () => {
		const options = { agent: model(guest()), environment: { countTokens: words }, now: () => 0 };
		const whole = await runLtm(benchmark(), { ...options, judge: model(judge) });
		const signal = { aborted: false };
		let judged = 0;
		let stopped: LtmRunState | undefined;
		await runLtm(benchmark(), {
			...options,
			judge: model(judge),
			signal,
			onEvent: ({ action }) => {
				if (action.kind === 'judge' && ++judged === 3) signal.aborted = true;
			},
		}).catch((error: unknown) => {
			expect(error).toBeInstanceOf(LtmCancelledError);
			stopped = (error as LtmCancelledError).state;
		});
		const resumedCalls: Recorded[] = [];
		const resumed = await runLtm(benchmark(), {
			...options,
			judge: model(judge, resumedCalls),
			resumeFrom: JSON.parse(JSON.stringify(stopped)) as LtmRunState,
		});
		expect(resumed).toEqual(whole);
		expect(resumedCalls.map(({ call }) => call.callIndex)).toEqual([3, 4, 5]);
	});

	it('is skipped without a judge', async () => {
		const state = await runLtm(benchmark(), {
			agent: model(guest()),
			environment: { countTokens: words },
		});
		expect(state.outcomes['Restaurant - 0']!.evaluation).toEqual({
			status: 'skipped',
			reasons: [NEEDS_JUDGE_REASON],
		});
	});
});

describe('a saved Restaurant state read back from a file', () => {
	it('stops with the reason on a stage this version does not have, instead of looping', async () => {
		const { advanceRestaurant, startRestaurant } = await import('../../../src/core/ltm/restaurant');
		const builtIn = { ...startRestaurant(), stage: 'dessert-menu' } as unknown as ReturnType<
			typeof startRestaurant
		>;
		const state = {
			queue: [],
			vars: {},
			stepReplies: {},
			lastReply: '',
			awaitingId: null,
			score: 0,
			reasons: [],
			stopped: false,
			picks: 0,
			builtIn,
		};
		expect(() => advanceRestaurant(state, 'seed')).toThrow(/unknown stage \("dessert-menu"\)/);
	});
});
