/**
 * A prediction formula in plain words a teacher can read aloud ("Region 3 (verb) should be more
 * surprising in mismatch than in match."), and the regions it looks at (the critical regions).
 * Pure; parsing is parse-formula.ts's job.
 */
import type { FormulaNode, RegionReferenceNode } from './ast';
import { referencedRegions } from './format-formula';

/** `region 3 (verb)`, or `the whole sentence` for `*`. */
function regionPhrase(regionNumber: number | '*', regionNames: readonly string[]): string {
	if (regionNumber === '*') return 'the whole sentence';
	const name = regionNames[regionNumber - 1];
	return name && name !== String(regionNumber)
		? `region ${regionNumber} (${name})`
		: `region ${regionNumber}`;
}

function capitalize(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

function lowercaseFirst(text: string): string {
	return text.charAt(0).toLowerCase() + text.slice(1);
}

function valuePhrase(node: FormulaNode, regionNames: readonly string[]): string {
	switch (node.kind) {
		case 'number':
			return node.text;
		case 'region':
			return `the surprisal of ${regionPhrase(node.regionNumber, regionNames)} in “${node.conditionName}”`;
		case 'binary': {
			const left = valuePhrase(node.left, regionNames);
			const right = valuePhrase(node.right, regionNames);
			switch (node.operator) {
				case '+':
					return `${left} plus ${right}`;
				case '-':
					return `${left} minus ${right}`;
				default:
					return `(${claimPhrase(node, regionNames)})`;
			}
		}
	}
}

const COMPARISON_WORDS = { '>': 'more', '<': 'less', '=': 'as' } as const;

function claimPhrase(node: FormulaNode, regionNames: readonly string[]): string {
	if (node.kind !== 'binary') return `${valuePhrase(node, regionNames)} is not zero`;
	const { operator, left, right } = node;
	if (operator === '&' || operator === '|') {
		const joiner = operator === '&' ? 'and' : 'or';
		return `${claimPhrase(left, regionNames)}, ${joiner} ${lowercaseFirst(claimPhrase(right, regionNames))}`;
	}
	if (operator === '>' || operator === '<' || operator === '=') {
		if (left.kind === 'region' && right.kind === 'region' && sameRegion(left, right)) {
			const region = capitalize(regionPhrase(left.regionNumber, regionNames));
			return operator === '='
				? `${region} should be as surprising in “${left.conditionName}” as in “${right.conditionName}”`
				: `${region} should be ${COMPARISON_WORDS[operator]} surprising in “${left.conditionName}” than in “${right.conditionName}”`;
		}
		const relation =
			operator === '>' ? 'greater than' : operator === '<' ? 'less than' : 'equal to';
		return `${capitalize(valuePhrase(left, regionNames))} should be ${relation} ${valuePhrase(right, regionNames)}`;
	}
	return `${capitalize(valuePhrase(node, regionNames))} is not zero`;
}

function sameRegion(left: RegionReferenceNode, right: RegionReferenceNode): boolean {
	return left.regionNumber === right.regionNumber;
}

/**
 * A formula's claim as one sentence (ending with a full stop). `regionNames` are the suite's
 * region names in order (region 1 first); a missing name leaves just the number.
 */
export function describeFormula(ast: FormulaNode, regionNames: readonly string[]): string {
	return `${claimPhrase(ast, regionNames)}.`;
}

/** The region numbers the formulas look at (the critical regions), ascending, no repeats;
 * `*` (the whole sentence) is left out. */
export function criticalRegionNumbers(formulas: readonly FormulaNode[]): number[] {
	const numbers = new Set<number>();
	for (const ast of formulas) {
		for (const reference of referencedRegions(ast)) {
			if (reference.regionNumber !== '*') numbers.add(reference.regionNumber);
		}
	}
	return [...numbers].sort((a, b) => a - b);
}
