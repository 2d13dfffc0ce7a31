// The texts a stimuli table asks to score: word splitting (punctuation kept, split, ignored), the
// three layouts, and located refusals of missing columns, empty cells and groups out of order.
import { describe, expect, it } from 'vitest';
import { InputFormatError } from '../../../src/core/errors';
import { readStimulusTable } from '../../../src/core/stimuli/read-stimulus-table';
import {
	buildStimulusPassages,
	findStimulusWords,
	type PunctuationRule,
	type StimulusLayout,
	type StimulusPassage,
} from '../../../src/core/stimuli/stimulus-passages';

/** The passages as texts and word strings (with the row index of each word). */
function shown(passages: readonly StimulusPassage[]) {
	return passages.map((passage) => ({
		text: passage.text,
		words: passage.words.map((w) => `${passage.text.slice(w.start, w.end)}@${w.rowIndex}`),
	}));
}

function words(text: string, rule: PunctuationRule): string[] {
	return findStimulusWords(text, rule).map(({ start, end }) => text.slice(start, end));
}

function thrown(call: () => unknown): InputFormatError {
	try {
		call();
	} catch (error) {
		expect(error).toBeInstanceOf(InputFormatError);
		return error as InputFormatError;
	}
	throw new Error('expected an InputFormatError');
}

describe('findStimulusWords', () => {
	const text = '  "Well," she said (quietly) — don\'t go...  ';
	it.each<[PunctuationRule, string[]]>([
		['keep', ['"Well,"', 'she', 'said', '(quietly)', '—', "don't", 'go...']],
		['split', ['"', 'Well', ',"', 'she', 'said', '(', 'quietly', ')', '—', "don't", 'go', '...']],
		['ignore', ['Well', 'she', 'said', 'quietly', "don't", 'go']],
	])('%s', (rule, expected) => {
		expect(words(text, rule)).toEqual(expected);
	});

	it('finds no word in blank text, and spans index the text (UTF-16)', () => {
		expect(findStimulusWords(' \n\t ')).toEqual([]);
		expect(findStimulusWords('🐕 café')).toEqual([
			{ start: 0, end: 2 },
			{ start: 3, end: 7 },
		]);
	});
});

describe('buildStimulusPassages', () => {
	const sentences = readStimulusTable(
		'item,condition,sentence\n1,a,The dog barked.\n1,b,The dogs barked.\n2,a,"Then, quiet."\n',
	);

	it('one text per row: every row alone, its words pointing back at it', () => {
		const before = JSON.stringify(sentences);
		const layout: StimulusLayout = { kind: 'text', textColumn: 'sentence' };
		expect(shown(buildStimulusPassages(sentences, layout))).toEqual([
			{ text: 'The dog barked.', words: ['The@0', 'dog@0', 'barked.@0'] },
			{ text: 'The dogs barked.', words: ['The@1', 'dogs@1', 'barked.@1'] },
			{ text: 'Then, quiet.', words: ['Then,@2', 'quiet.@2'] },
		]);
		expect(JSON.stringify(sentences)).toBe(before);
	});

	it('a group column joins its rows into one running passage, one space between', () => {
		const layout: StimulusLayout = { kind: 'text', textColumn: 'sentence', groupColumn: 'item' };
		expect(shown(buildStimulusPassages(sentences, layout, 'split'))).toEqual([
			{
				text: 'The dog barked. The dogs barked.',
				words: ['The@0', 'dog@0', 'barked@0', '.@0', 'The@1', 'dogs@1', 'barked@1', '.@1'],
			},
			{ text: 'Then, quiet.', words: ['Then@2', ',@2', 'quiet@2', '.@2'] },
		]);
	});

	it('one word per row: the words joined, never re-split, ordered by the order column', () => {
		const table = readStimulusTable(
			'sent\tpos\tword\n1\t2\tdog,\n1\t1\tThe\n1\t3\tNew York\n2\t1\t  Hi  \n',
		);
		const byRows = buildStimulusPassages(table, {
			kind: 'word',
			wordColumn: 'word',
			groupColumn: 'sent',
		});
		expect(shown(byRows)).toEqual([
			{ text: 'dog, The New York', words: ['dog,@0', 'The@1', 'New York@2'] },
			{ text: 'Hi', words: ['Hi@3'] },
		]);
		const ordered = buildStimulusPassages(table, {
			kind: 'word',
			wordColumn: 'word',
			groupColumn: 'sent',
			orderColumn: 'pos',
		});
		expect(shown(ordered)[0]).toEqual({
			text: 'The dog, New York',
			words: ['The@1', 'dog,@0', 'New York@2'],
		});
	});

	it('context + target: one space between, only the target has words', () => {
		const table = readStimulusTable(
			'context;target\nThe cat sat on the;mat.\n;Hello there\nShe said: ; no\n',
		);
		const layout: StimulusLayout = {
			kind: 'context-target',
			contextColumn: 'context',
			targetColumn: 'target',
		};
		expect(shown(buildStimulusPassages(table, layout))).toEqual([
			{ text: 'The cat sat on the mat.', words: ['mat.@0'] },
			{ text: 'Hello there', words: ['Hello@1', 'there@1'] },
			{ text: 'She said:  no', words: ['no@2'] },
		]);
	});

	it.each<[string, string, StimulusLayout, number, number | undefined, string]>([
		[
			'a missing text column',
			'item,sentence\n1,The dog.\n',
			{ kind: 'text', textColumn: 'text' },
			1,
			undefined,
			"no column named 'text' for the text; the columns are 'item', 'sentence'.",
		],
		[
			'an empty text',
			'item,sentence\n1,The dog.\n2,  \n',
			{ kind: 'text', textColumn: 'sentence' },
			3,
			3,
			"the text column 'sentence' is empty",
		],
		[
			'an empty target',
			'context,target\nThe,\n',
			{ kind: 'context-target', contextColumn: 'context', targetColumn: 'target' },
			2,
			5,
			"the target column 'target' is empty",
		],
		[
			'a passage whose rows are out of order',
			'story,sentence\ns1,One.\ns2,Two.\ns1,Three.\n',
			{ kind: 'text', textColumn: 'sentence', groupColumn: 'story' },
			4,
			1,
			"the rows of group 's1' (column 'story') are out of order: it came before, up to line 2",
		],
		[
			'words of a sentence out of order, no order column',
			'sent,word\n1,The\n2,A\n1,dog\n',
			{ kind: 'word', wordColumn: 'word', groupColumn: 'sent' },
			4,
			1,
			"the rows of group '1' (column 'sent') are out of order",
		],
		[
			'an empty group',
			'sent,word\n1,The\n,dog\n',
			{ kind: 'word', wordColumn: 'word', groupColumn: 'sent' },
			3,
			1,
			"the group column 'sent' is empty",
		],
		[
			'an order that is not a number',
			'sent,n,word\n1,1,The\n1,two,dog\n',
			{ kind: 'word', wordColumn: 'word', groupColumn: 'sent', orderColumn: 'n' },
			3,
			3,
			"the order column 'n' holds 'two', not a number.",
		],
		[
			'an order used twice in a group',
			'sent,n,word\n1,1,The\n1,1,dog\n',
			{ kind: 'word', wordColumn: 'word', groupColumn: 'sent', orderColumn: 'n' },
			3,
			3,
			"the order 1 (column 'n') is used twice in this group (also on line 2)",
		],
	])('refuses %s, located', (_, text, layout, line, column, problem) => {
		const table = readStimulusTable(text, { source: 'x.csv' });
		const error = thrown(() => buildStimulusPassages(table, layout));
		const where = column === undefined ? `x.csv:${line}` : `x.csv:${line}:${column}`;
		expect(error.message).toContain(`${where}: ${problem}`);
		expect(error.location.line).toBe(line);
	});

	it('another separator joins the words (pangoling’s sep; none for unspaced scripts)', () => {
		const table = readStimulusTable('sent,word\n1,我\n1,喜欢\n1,猫\n');
		const layout: StimulusLayout = { kind: 'word', wordColumn: 'word', groupColumn: 'sent' };
		expect(shown(buildStimulusPassages(table, layout, 'keep', ''))).toEqual([
			{ text: '我喜欢猫', words: ['我@0', '喜欢@1', '猫@2'] },
		]);
		expect(buildStimulusPassages(table, layout, 'keep', ' | ')[0]?.text).toBe('我 | 喜欢 | 猫');
	});

	it('with an order column, a group may come back after another', () => {
		const table = readStimulusTable('sent,n,word\n1,1,The\n2,1,A\n1,2,dog\n');
		const passages = buildStimulusPassages(table, {
			kind: 'word',
			wordColumn: 'word',
			groupColumn: 'sent',
			orderColumn: 'n',
		});
		expect(passages.map((p) => p.text)).toEqual(['The dog', 'A']);
	});
});
