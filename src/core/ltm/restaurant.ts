/**
 * The Restaurant built-in (reference §2.3), a procedural dynamic test in our own words: the agent
 * is a guest, the test the waiter. Five points (max_score 5): drinks ordered, food ordered from the
 * menu, a new dish when one is unavailable, noticing a swapped dish, recalling the drink. Every
 * reading of a reply is a judge call with a JSON answer. A failed order ends the test early,
 * keeping the points earned. The state is plain JSON inside the dynamic test's state. Pure.
 */
import type { ChatMessage } from '../model/generation';
import {
	isYes,
	JUDGE_PARAMS,
	parseJudgeAnswer,
	valueAtKey,
	type DynamicMove,
	type DynamicState,
	type RestaurantStage,
	type RestaurantState,
} from './dynamic-state';

export type { RestaurantState };
import { menuText, RESTAURANT_MENU, type MenuItem, type MenuSection } from './restaurant-menu';

export const RESTAURANT_MAX_SCORE = 5;

/** Where a Restaurant test stands. Dish and drink names are the menu's. */

const PREFIX = 'Waiter: ';

const JUDGE_SYSTEM =
	'You help score a role-play test set in a restaurant, where a waiter talks to a guest. Read the exchange and answer with one JSON object and nothing else.';

export function startRestaurant(): RestaurantState {
	return {
		stage: 'intro',
		waiterSaid: '',
		drinks: [],
		dishes: [],
		everOrdered: [],
		unavailable: null,
		served: null,
	};
}

function allItems(
	menu: readonly MenuSection[],
): (MenuItem & { drinks: boolean; section: string })[] {
	return menu.flatMap((section) =>
		section.items.map((item) => ({ ...item, drinks: section.drinks, section: section.title })),
	);
}

/** A stable index in [0, length) for a seed and a purpose (FNV-1a). */
function seededIndex(seed: string, purpose: string, length: number): number {
	let h = 2166136261;
	for (const char of `${seed}#restaurant-${purpose}`)
		h = Math.imul(h ^ char.codePointAt(0)!, 16777619) >>> 0;
	return h % length;
}

function listed(names: readonly string[]): string {
	if (names.length <= 1) return names.join('');
	return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

function exchange(state: DynamicState, r: RestaurantState): string {
	return `Menu:\n${menuText()}\n\nThe waiter said:\n${r.waiterSaid}\n\nThe guest replied:\n${state.lastReply}`;
}

function orderQuestion(state: DynamicState, r: RestaurantState): ChatMessage[] {
	return [
		{ role: 'system', content: JUDGE_SYSTEM },
		{
			role: 'user',
			content: `${exchange(state, r)}\n\nList everything the guest orders in this reply. Answer {"has_ordered_something": true or false, "order": [{"item": the item as the guest named it, "menu_nr": its number on the menu or null, "is_drink": true or false, "menu_ref": true if it is an item of the menu, "off_menu": true if the guest asks for something the menu does not have}]}.`,
		},
	];
}

interface Ordered {
	readonly drinks: string[];
	readonly dishes: string[];
	/** Food the guest asked for that is not a menu dish. */
	readonly invalid: string[];
}

/** Reads the judge's order list against our menu (by number, else by exact name). */
function readOrder(value: unknown, menu: readonly MenuSection[]): Ordered {
	const items = allItems(menu);
	const order = valueAtKey(value, 'order');
	const drinks: string[] = [];
	const dishes: string[] = [];
	const invalid: string[] = [];
	if (!isYes(valueAtKey(value, 'has_ordered_something')) || !Array.isArray(order))
		return { drinks, dishes, invalid };
	for (const entry of order) {
		const named = String(valueAtKey(entry, 'item') ?? '');
		const nr = Number(valueAtKey(entry, 'menu_nr'));
		const found =
			items.find((item) => item.nr === nr) ??
			items.find((item) => item.name.toLowerCase() === named.trim().toLowerCase());
		if (isYes(valueAtKey(entry, 'is_drink'))) {
			drinks.push(found?.drinks ? found.name : named);
			continue;
		}
		if (!found || found.drinks || isYes(valueAtKey(entry, 'off_menu'))) invalid.push(named);
		else if (!dishes.includes(found.name)) dishes.push(found.name);
	}
	return { drinks, dishes, invalid };
}

function say(r: RestaurantState, text: string, next: RestaurantStage) {
	r.waiterSaid = PREFIX + text;
	r.stage = next;
	return { type: 'send', text: r.waiterSaid, isQuestion: true } as const;
}

function fail(state: DynamicState, r: RestaurantState, reason: string): DynamicMove {
	state.reasons.push(reason);
	state.stopped = true;
	r.stage = 'done';
	return { type: 'end' };
}

function pass(state: DynamicState, reason: string): void {
	state.score += 1;
	state.reasons.push(reason);
}

/**
 * The judge's answer to `messages`, parsed: a `judge` move when it has not been asked yet, the
 * JSON value when it has, or `null` after recording why the answer could not be read.
 */
function ask(
	state: DynamicState,
	messages: ChatMessage[],
): { move: DynamicMove } | { value: unknown } | null {
	if (state.judgeReply === undefined || state.judgeReply === null)
		return { move: { type: 'judge', messages, params: JUDGE_PARAMS } };
	const reply = state.judgeReply;
	state.judgeReply = null;
	const parsed = parseJudgeAnswer(reply);
	if (!parsed.ok) {
		state.reasons.push(parsed.reason);
		return null;
	}
	return { value: parsed.value };
}

/** The Restaurant's next move (`seed`: the test's unique id). Mutates `state`. */
export function advanceRestaurant(
	state: DynamicState,
	seed: string,
	menu: readonly MenuSection[] = RESTAURANT_MENU,
): DynamicMove {
	const r = state.builtIn!;
	for (;;) {
		if (state.stopped) return { type: 'end' };
		const move = stageMove(state, r, seed, menu);
		if (move !== null) return move;
	}
}

/** The move of the stage `r` stands at, or `null` when the stage moved on without one. */
function stageMove(
	state: DynamicState,
	r: RestaurantState,
	seed: string,
	menu: readonly MenuSection[],
): DynamicMove | null {
	switch (r.stage) {
		case 'intro':
			r.stage = 'intro-wait';
			r.waiterSaid = '';
			return {
				type: 'send',
				text: 'Shall we play a game of pretend? You are a guest who has just sat down at a table in a small restaurant, and I am the waiter. From now on, whenever a message of mine begins with "Waiter:", reply in character as the guest: order what you like from what I offer and talk to me as a diner would.',
				isQuestion: false,
			};
		case 'intro-wait':
			r.stage = 'menu';
			return { type: 'wait', wait: { percentage_finished: 20 } };
		case 'menu':
			return say(
				r,
				`Good evening and welcome! Here is our menu:\n${menuText(menu)}\nCan I start you off with something to drink?`,
				'drinks-role',
			);
		case 'drinks-role':
			return readRole(state, r);
		case 'drinks-order':
			return readDrinksOrder(state, r, menu);
		case 'food':
			return say(r, 'Your drinks are on their way. And what would you like to eat?', 'food-order');
		case 'food-order':
			return readFoodOrder(state, r, menu);
		case 'confirm':
			r.stage = 'confirm-wait';
			r.waiterSaid = `${PREFIX}Very good: ${listed(r.dishes)}. I will let the kitchen know.`;
			return { type: 'send', text: r.waiterSaid, isQuestion: false };
		case 'confirm-wait':
			r.stage = 'unavailable';
			return { type: 'wait', wait: { percentage_finished: 60 } };
		case 'unavailable':
			return sayUnavailable(r, seed);
		case 'replace-order':
			return readReplacement(state, r, menu);
		case 'serve':
			return serveSwapped(r, seed, menu);
		case 'noticed':
			return readNoticed(state, r);
		case 'apology':
			r.stage = 'apology-wait';
			r.waiterSaid = `${PREFIX}My apologies! I will take that back and bring the ${r.served!.ordered} right away.`;
			return { type: 'send', text: r.waiterSaid, isQuestion: false };
		case 'apology-wait':
			r.stage = 'recall';
			return { type: 'wait', wait: { percentage_finished: 90 } };
		case 'recall':
			return say(
				r,
				`Here is the ${r.served!.ordered}, as you ordered. To make up for the mix-up, your next drink is on the house. What were you drinking?`,
				'recalls',
			);
		case 'recalls':
			return readRecall(state, r);
		case 'done':
			return { type: 'end' };
	}
	// A saved state read back from a file can name a stage this version does not have: stop
	// with the reason instead of asking for the next move forever.
	throw new Error(
		`The restaurant test's saved state is at an unknown stage (${JSON.stringify(String(r.stage)).slice(0, 80)}).`,
	);
}

function readRole(state: DynamicState, r: RestaurantState): DynamicMove | null {
	const answer = ask(state, [
		{ role: 'system', content: JUDGE_SYSTEM },
		{
			role: 'user',
			content: `${exchange(state, r)}\n\nDoes the guest answer in character, as a diner speaking to a waiter (not as an assistant explaining things, and not as the waiter)? Answer {"follows_role": true} or {"follows_role": false}.`,
		},
	]);
	if (answer === null)
		return fail(state, r, 'The judge could not say whether the guest stayed in role.');
	if ('move' in answer) return answer.move;
	if (!isYes(valueAtKey(answer.value, 'follows_role')))
		return fail(state, r, 'The agent did not play the guest.');
	r.stage = 'drinks-order';
	return null;
}

function readDrinksOrder(
	state: DynamicState,
	r: RestaurantState,
	menu: readonly MenuSection[],
): DynamicMove {
	const answer = ask(state, orderQuestion(state, r));
	if (answer === null) return fail(state, r, 'The drinks order could not be read.');
	if ('move' in answer) return answer.move;
	const order = readOrder(answer.value, menu);
	if (order.drinks.length === 0) return fail(state, r, 'The guest ordered no drink.');
	r.drinks = order.drinks;
	pass(state, `The guest ordered ${listed(order.drinks)} to drink.`);
	r.stage = 'food';
	return { type: 'wait', wait: { percentage_finished: 40 } };
}

function readFoodOrder(
	state: DynamicState,
	r: RestaurantState,
	menu: readonly MenuSection[],
): DynamicMove | null {
	const answer = ask(state, orderQuestion(state, r));
	if (answer === null) return fail(state, r, 'The food order could not be read.');
	if ('move' in answer) return answer.move;
	const order = readOrder(answer.value, menu);
	if (order.invalid.length > 0)
		return fail(
			state,
			r,
			`The guest asked for food that is not on the menu: ${listed(order.invalid)}.`,
		);
	if (order.dishes.length === 0) return fail(state, r, 'The guest ordered no food.');
	r.dishes = order.dishes;
	r.everOrdered = [...order.dishes];
	pass(state, `The guest ordered ${listed(order.dishes)} from the menu.`);
	r.stage = 'confirm';
	return null;
}

/** Says that one of the ordered dishes (seeded) has sold out. */
function sayUnavailable(r: RestaurantState, seed: string): DynamicMove {
	const gone = r.dishes[seededIndex(seed, 'unavailable', r.dishes.length)]!;
	r.unavailable = gone;
	return say(
		r,
		`I am so sorry: the kitchen has just told me that the ${gone} has sold out tonight. Could you choose something else instead?`,
		'replace-order',
	);
}

function readReplacement(
	state: DynamicState,
	r: RestaurantState,
	menu: readonly MenuSection[],
): DynamicMove {
	const answer = ask(state, orderQuestion(state, r));
	if (answer === null) return fail(state, r, 'The new order could not be read.');
	if ('move' in answer) return answer.move;
	const order = readOrder(answer.value, menu);
	const again = order.dishes.filter((dish) => r.everOrdered.includes(dish));
	if (again.length > 0)
		return fail(state, r, `The guest ordered ${listed(again)} again, which was already ordered.`);
	if (order.invalid.length > 0)
		return fail(
			state,
			r,
			`The guest asked for food that is not on the menu: ${listed(order.invalid)}.`,
		);
	if (order.dishes.length === 0)
		return fail(state, r, 'The guest ordered nothing in place of the sold-out dish.');
	r.dishes = [...r.dishes.filter((dish) => dish !== r.unavailable), ...order.dishes];
	r.everOrdered.push(...order.dishes);
	pass(state, `The guest replaced the ${r.unavailable} with ${listed(order.dishes)}.`);
	r.stage = 'serve';
	return { type: 'wait', wait: { percentage_finished: 80 } };
}

/** Serves the order with one dish (seeded) swapped for another the guest did not order. */
function serveSwapped(r: RestaurantState, seed: string, menu: readonly MenuSection[]): DynamicMove {
	const ordered = r.dishes[seededIndex(seed, 'swap', r.dishes.length)]!;
	const section = menu.find((s) => s.items.some((item) => item.name === ordered))!;
	const others = section.items.filter(
		(item) => item.name !== ordered && !r.dishes.includes(item.name),
	);
	const brought =
		others.length > 0
			? others[seededIndex(seed, 'brought', others.length)]!.name
			: allItems(menu).find((item) => !item.drinks && !r.dishes.includes(item.name))!.name;
	r.served = { ordered, brought };
	const plates = r.dishes.map((dish) => (dish === ordered ? brought : dish));
	return say(r, `Here we are: ${listed(plates)}. Enjoy your meal!`, 'noticed');
}

function readNoticed(state: DynamicState, r: RestaurantState): DynamicMove | null {
	const served = r.served!;
	const answer = ask(state, [
		{ role: 'system', content: JUDGE_SYSTEM },
		{
			role: 'user',
			content: `The guest had ordered ${listed(r.dishes)}, but the waiter brought the ${served.brought} in place of the ${served.ordered}.\n\nThe waiter said:\n${r.waiterSaid}\n\nThe guest replied:\n${state.lastReply}\n\nDoes the guest point out that a dish is not what they ordered? Answer {"noticed": true} or {"noticed": false}.`,
		},
	]);
	if (answer === null)
		return fail(state, r, 'The judge could not say whether the mix-up was noticed.');
	if ('move' in answer) return answer.move;
	if (isYes(valueAtKey(answer.value, 'noticed')))
		pass(
			state,
			`The guest noticed the ${served.brought} brought in place of the ${served.ordered}.`,
		);
	else
		state.reasons.push(
			`The guest did not notice the ${served.brought} brought in place of the ${served.ordered}.`,
		);
	r.stage = 'apology';
	return null;
}

function readRecall(state: DynamicState, r: RestaurantState): DynamicMove | null {
	const answer = ask(state, [
		{ role: 'system', content: JUDGE_SYSTEM },
		{
			role: 'user',
			content: `At the start of the meal the guest ordered to drink: ${listed(r.drinks)}.\n\nThe waiter said:\n${r.waiterSaid}\n\nThe guest replied:\n${state.lastReply}\n\nDoes the reply name what the guest ordered to drink at the start? Answer {"recalls": true} or {"recalls": false}.`,
		},
	]);
	if (answer === null)
		return fail(state, r, 'The judge could not say whether the drink was recalled.');
	if ('move' in answer) return answer.move;
	if (isYes(valueAtKey(answer.value, 'recalls')))
		pass(state, `The guest remembered drinking ${listed(r.drinks)}.`);
	else state.reasons.push(`The guest did not remember drinking ${listed(r.drinks)}.`);
	r.stage = 'done';
	return null;
}
