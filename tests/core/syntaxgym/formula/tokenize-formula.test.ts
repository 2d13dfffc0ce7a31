import { describe, expect, it } from 'vitest';
import { FormulaSyntaxError } from '../../../../src/core/errors';
import { tokenizeFormula } from '../../../../src/core/syntaxgym/formula/tokenize-formula';

/** `kind:text@column` for each token, `end` last. */
function summarize(formula: string): string[] {
	return tokenizeFormula(formula).map((token) =>
		token.kind === 'end' ? `end@${token.column}` : `${token.kind}:${token.text}@${token.column}`,
	);
}

describe('tokenizeFormula', () => {
	it.each([
		[
			'(1;%a%)',
			[
				'open-paren:(@1',
				'number:1@2',
				'region-separator:;%@3',
				'condition-name:a@5',
				'percent:%@6',
				'close-paren:)@7',
				'end@8',
			],
		],
		[
			'( * ;% what_no-gap %)',
			[
				'open-paren:(@1',
				'star:*@3',
				'region-separator:;%@5',
				'condition-name:what_no-gap@8',
				'percent:%@20',
				'close-paren:)@21',
				'end@22',
			],
		],
		['-1 < 0', ['number:-1@1', 'operator:<@4', 'number:0@6', 'end@7']],
		['1 -1', ['number:1@1', 'operator:-@3', 'number:1@4', 'end@5']],
		['1--1', ['number:1@1', 'operator:-@2', 'number:-1@3', 'end@5']],
		[
			'(1;%a%) -1',
			[
				'open-paren:(@1',
				'number:1@2',
				'region-separator:;%@3',
				'condition-name:a@5',
				'percent:%@6',
				'close-paren:)@7',
				'operator:-@9',
				'number:1@10',
				'end@11',
			],
		],
		[
			'[-.5]+1',
			[
				'open-bracket:[@1',
				'number:-.5@2',
				'close-bracket:]@5',
				'operator:+@6',
				'number:1@7',
				'end@8',
			],
		],
		[
			'5. .5 1e3 1.5e-3 +2 -1.e3',
			[
				'number:5.@1',
				'number:.5@4',
				'number:1e3@7',
				'number:1.5e-3@11',
				'operator:+@18',
				'number:2@19',
				'operator:-@21',
				'number:1.e3@22',
				'end@26',
			],
		],
		[
			'<\t>\r\n=&|',
			['operator:<@1', 'operator:>@3', 'operator:=@6', 'operator:&@7', 'operator:|@8', 'end@9'],
		],
		['', ['end@1']],
	])('%j', (formula, expected) => {
		expect(summarize(formula)).toEqual(expected);
	});

	it.each([
		['(1; %a%)', 3, /';%'/],
		['(1;%a b%)', 7, /'%' to close the condition name/],
		['(1;%a.b%)', 6, /'%' to close the condition name/],
		['(1;%%)', 5, /condition name/],
		['(1;%a%) <= (2;%a%)', 9, /'<='/],
		['(1;%a%) >= (2;%a%)', 9, /'>='/],
		['(1;%a%) == (2;%a%)', 9, /'=='/],
		['(1;%a%) != (2;%a%)', 9, /'!='/],
		['!(1;%a%)', 1, /negation/],
		['(1;%a%) && 1', 9, /'&&'/],
		['(1;%a%) / 2', 9, /'\/'/],
		['(1;%a%) * 2', 9, /region number/],
		['1e', 2, /unexpected 'e'/],
		['x', 1, /unexpected 'x'/],
		['1 % 2', 3, /unexpected '%'/],
		['(1;%a%)\u00a0', 8, /unexpected/],
	])('%j fails at column %i', (formula, column, message) => {
		try {
			tokenizeFormula(formula);
			expect.unreachable('should have thrown');
		} catch (error) {
			expect(error).toBeInstanceOf(FormulaSyntaxError);
			expect((error as FormulaSyntaxError).column).toBe(column);
			expect((error as FormulaSyntaxError).message).toMatch(message);
		}
	});
});
