/**
 * The menu of our Restaurant built-in (our own dishes; upstream ships a menu file of its own).
 * Numbers run through the whole menu so a guest can order "a number 7".
 */
export interface MenuItem {
	readonly nr: number;
	readonly name: string;
}

export interface MenuSection {
	readonly title: string;
	/** Drinks are ordered first and recalled at the end. */
	readonly drinks: boolean;
	readonly items: readonly MenuItem[];
}

export const RESTAURANT_MENU: readonly MenuSection[] = [
	{
		title: 'Small plates',
		drinks: false,
		items: [
			{ nr: 1, name: 'Roasted beetroot with goat cheese' },
			{ nr: 2, name: 'Leek and potato soup' },
			{ nr: 3, name: 'Crispy squid with lime mayonnaise' },
			{ nr: 4, name: 'Grilled flatbread with hummus' },
		],
	},
	{
		title: 'Large plates',
		drinks: false,
		items: [
			{ nr: 5, name: 'Mushroom and chestnut pie' },
			{ nr: 6, name: 'Pan-fried hake with samphire' },
			{ nr: 7, name: 'Lamb shoulder with rosemary beans' },
			{ nr: 8, name: 'Spinach and ricotta ravioli' },
			{ nr: 9, name: 'Chicken schnitzel with potato salad' },
		],
	},
	{
		title: 'Puddings',
		drinks: false,
		items: [
			{ nr: 10, name: 'Sticky toffee sponge' },
			{ nr: 11, name: 'Rhubarb crumble with custard' },
			{ nr: 12, name: 'Dark chocolate mousse' },
		],
	},
	{
		title: 'Drinks',
		drinks: true,
		items: [
			{ nr: 13, name: 'Sparkling elderflower' },
			{ nr: 14, name: 'House red wine' },
			{ nr: 15, name: 'Pale ale' },
			{ nr: 16, name: 'Fresh apple juice' },
			{ nr: 17, name: 'Still water' },
		],
	},
];

/** The menu as the waiter hands it over: sections, then numbered lines. */
export function menuText(menu: readonly MenuSection[] = RESTAURANT_MENU): string {
	return menu
		.map(
			(section) =>
				`${section.title}:\n${section.items.map((item) => `  ${item.nr}. ${item.name}`).join('\n')}`,
		)
		.join('\n');
}
