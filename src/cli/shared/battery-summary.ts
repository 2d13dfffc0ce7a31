/**
 * The battery lines `run` prints on stderr after the per-suite summaries when it scored several
 * suites: circuit means, the SG score under both item rules, what the score leaves out, and the
 * published scores when the suites are Hu et al. (2020)'s.
 */
import { isHu2020SuiteSet } from '../../core/syntaxgym/battery/circuits';
import {
	HU2020_PUBLISHED_SG_SCORES,
	HU2020_PUBLISHED_SOURCE,
} from '../../core/syntaxgym/battery/published-scores';
import type { BatteryScore } from '../../core/syntaxgym/battery/sg-score';

function decimal(value: number): string {
	return Number.isNaN(value) ? 'n/a' : value.toFixed(6);
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** The battery summary: one block of lines, ending in a line break. */
export function formatBatterySummary(battery: BatteryScore): string {
	const first = battery.sg['first-prediction'];
	const all = battery.sg['all-predictions'];
	const lines = [
		`battery: ${plural(battery.cells.length, 'suite')}, ${first.suites} in the SG score ` +
			'(mean over suites of item accuracy)',
		`SG score, first prediction only (Hu et al. 2020): ${decimal(first.score)}`,
		`SG score, all predictions hold: ${decimal(all.score)}`,
		'circuits (mean over their suites; first prediction only | all predictions hold):',
	];
	for (const circuit of first.circuits) {
		const other = all.circuits.find((c) => c.circuit === circuit.circuit);
		lines.push(
			`  ${circuit.circuit} (${plural(circuit.suites, 'suite')}): ${decimal(circuit.mean)} | ` +
				`${other === undefined ? 'n/a' : decimal(other.mean)}`,
		);
	}
	for (const { suiteName, reason } of first.leftOut) {
		const why =
			reason === 'hu2020-excluded'
				? "Hu et al.'s master notebook leaves it out"
				: 'no item was scored';
		lines.push(`left out of the SG score: ${suiteName} (${why})`);
	}
	if (isHu2020SuiteSet(battery.cells.map((cell) => cell.suiteName))) {
		const scores = HU2020_PUBLISHED_SG_SCORES.map((m) => `${m.label} ${m.sgScore.toFixed(3)}`);
		lines.push(
			`published SG scores (${HU2020_PUBLISHED_SOURCE.data}; ${HU2020_PUBLISHED_SOURCE.rule}): ` +
				scores.join(', '),
		);
	}
	return `${lines.join('\n')}\n`;
}
