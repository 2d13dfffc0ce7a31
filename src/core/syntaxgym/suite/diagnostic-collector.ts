/**
 * Collects suite diagnostics with caps, so a broken 50 MB suite yields a readable list: at most
 * `perCode` of one code and `total` overall are listed, the rest are counted in summary entries.
 */
import type { Diagnostic } from './types';

export interface DiagnosticLimits {
	/** Most diagnostics listed per code and severity (default 20). */
	readonly perCode: number;
	/** Most diagnostics listed overall, summaries excluded (default 200). */
	readonly total: number;
}

export const DEFAULT_DIAGNOSTIC_LIMITS: DiagnosticLimits = { perCode: 20, total: 200 };

export class DiagnosticCollector {
	readonly #listed: Diagnostic[] = [];
	readonly #listedPerKey = new Map<string, number>();
	readonly #omittedPerKey = new Map<string, number>();
	#errorCount = 0;
	#warningCount = 0;

	constructor(private readonly limits: DiagnosticLimits = DEFAULT_DIAGNOSTIC_LIMITS) {}

	/** Every error added, listed or not. */
	get errorCount(): number {
		return this.#errorCount;
	}

	get warningCount(): number {
		return this.#warningCount;
	}

	add(diagnostic: Diagnostic): void {
		if (diagnostic.severity === 'error') this.#errorCount++;
		else this.#warningCount++;
		const key = `${diagnostic.severity}\u0000${diagnostic.code}`;
		const listed = this.#listedPerKey.get(key) ?? 0;
		if (listed < this.limits.perCode && this.#listed.length < this.limits.total) {
			this.#listed.push(diagnostic);
			this.#listedPerKey.set(key, listed + 1);
		} else {
			this.#omittedPerKey.set(key, (this.#omittedPerKey.get(key) ?? 0) + 1);
		}
	}

	error(fields: Omit<Diagnostic, 'severity'>): void {
		this.add({ severity: 'error', ...fields });
	}

	warning(fields: Omit<Diagnostic, 'severity'>): void {
		this.add({ severity: 'warning', ...fields });
	}

	/** The listed diagnostics, then one `more-diagnostics` entry per code that was cut. */
	summaries(): Diagnostic[] {
		const summaries: Diagnostic[] = [];
		for (const [key, count] of this.#omittedPerKey) {
			const [severity, code] = key.split('\u0000') as ['error' | 'warning', string];
			summaries.push({
				severity,
				code: 'more-diagnostics',
				message: `${count} more '${code}' ${severity}${count === 1 ? '' : 's'} not listed`,
				hint: `fix the ${severity}s listed above for '${code}' and validate again to see the rest`,
				pointer: '',
			});
		}
		return summaries;
	}

	listed(): Diagnostic[] {
		return [...this.#listed];
	}
}
