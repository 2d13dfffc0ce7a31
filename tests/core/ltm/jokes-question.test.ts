// The Jokes temporal question text (L15): built from timedelta.seconds as upstream does.
import { describe, expect, it } from 'vitest';
import { jokesQuestion } from '../../../src/core/ltm/evaluators/jokes';

describe('jokesQuestion (L15)', () => {
	const cases: [number, string][] = [
		[2 * 3600, 'Which joke did I tell you about 2 hours 0 minutes  ago?'],
		[2 * 3600 + 5 * 60 + 59, 'Which joke did I tell you about 2 hours 5 minutes  ago?'],
		[45 * 60, 'Which joke did I tell you about 45 minutes  ago?'],
		[30, 'Which joke did I tell you about  ago?'],
		[26 * 3600, 'Which joke did I tell you about 2 hours 0 minutes  ago?'],
	];
	it.each(cases)('%d s → %s', (seconds, text) => {
		expect(jokesQuestion(seconds)).toBe(text);
	});
});
