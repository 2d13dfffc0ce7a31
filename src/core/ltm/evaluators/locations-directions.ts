/**
 * Locations Directions: the judge turns the agent's route into JSON steps (our wording); both
 * that route and the one the script describes are walked on a grid; 1 when they end at the same
 * place. The script's steps are read from its "<n> KM ... <direction>" statements.
 */
import { sanitizeAndParseJson } from '../shared/sanitize-json';
import type { Evaluator } from './evaluator';

const UNIT: Record<string, [number, number]> = {
	north: [0, 1],
	south: [0, -1],
	east: [1, 0],
	west: [-1, 0],
};

/** The end point of the route described by the statement lines (all lines but the first and the question). */
export function scriptEndPoint(lines: readonly string[]): [number, number] | undefined {
	let x = 0;
	let y = 0;
	for (const line of lines) {
		const distance = /(\d+(?:\.\d+)?)\s*KM/i.exec(line);
		const direction = /\b(north|south|east|west)\b/i.exec(line);
		if (!distance || !direction) return undefined;
		const [dx, dy] = UNIT[direction[1]!.toLowerCase()]!;
		x += dx * Number(distance[1]);
		y += dy * Number(distance[1]);
	}
	return [x, y];
}

/** The end point of JSON steps `[{direction, distance_km}]`; undefined when unreadable. */
export function stepsEndPoint(steps: unknown): [number, number] | undefined {
	if (!Array.isArray(steps)) return undefined;
	let x = 0;
	let y = 0;
	for (const step of steps) {
		const { direction, distance_km: distance } = (step ?? {}) as Record<string, unknown>;
		const unit = typeof direction === 'string' ? UNIT[direction.toLowerCase()] : undefined;
		if (!unit || typeof distance !== 'number') return undefined;
		x += unit[0] * distance;
		y += unit[1] * distance;
	}
	return [x, y];
}

export const locationsDirectionsEvaluator: Evaluator = {
	judge: 'always',
	async evaluate({ responses, test }, judge) {
		if (!judge) throw new Error('locations_directions needs a judge');
		const statements = test.script.slice(1, -1);
		const target = scriptEndPoint(statements);
		if (!target) return { score: 0, maxScore: 1, reasons: ['The script has no readable route.'] };
		const answer = await judge(
			[
				{
					role: 'user',
					content: [
						'Turn the travel directions below into JSON only: a list of steps',
						'[{"direction": "north" | "south" | "east" | "west", "distance_km": number}].',
						'Directions:',
						responses[0] ?? '',
					].join('\n'),
				},
			],
			{ temperature: 0, max_tokens: 512 },
		);
		let end: [number, number] | undefined;
		try {
			end = stepsEndPoint(sanitizeAndParseJson(answer));
		} catch {
			end = undefined;
		}
		if (!end) return { score: 0, maxScore: 1, reasons: ['The route could not be read.'] };
		const same = Math.abs(end[0] - target[0]) < 1e-9 && Math.abs(end[1] - target[1]) < 1e-9;
		return {
			score: same ? 1 : 0,
			maxScore: 1,
			reasons: [
				same
					? 'The route ends at the destination.'
					: `The route ends at (${end.join(', ')}), not (${target.join(', ')}).`,
			],
		};
	},
};
