/**
 * Light/dark theme: the user's choice (or the system's), remembered in localStorage and applied
 * as `data-theme` on <html>. A module singleton: the theme is one per page.
 */

export type ThemeChoice = 'system' | 'light' | 'dark';
export type ResolvedTheme = 'light' | 'dark';

const STORAGE_KEY = 'benchtop.theme';
const CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];

function readStoredChoice(): ThemeChoice {
	try {
		const stored = globalThis.localStorage?.getItem(STORAGE_KEY);
		return CHOICES.includes(stored as ThemeChoice) ? (stored as ThemeChoice) : 'system';
	} catch {
		return 'system';
	}
}

function systemPrefersDark(): MediaQueryList | undefined {
	return typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : undefined;
}

export class Theme {
	#choice = $state<ThemeChoice>(readStoredChoice());
	#systemDark = $state(systemPrefersDark()?.matches ?? false);

	constructor() {
		systemPrefersDark()?.addEventListener('change', (event) => {
			this.#systemDark = event.matches;
			this.#apply();
		});
		this.#apply();
	}

	get choice(): ThemeChoice {
		return this.#choice;
	}

	/** The theme in effect: the choice, or the system's preference for `system`. */
	get resolved(): ResolvedTheme {
		if (this.#choice === 'system') return this.#systemDark ? 'dark' : 'light';
		return this.#choice;
	}

	set choice(choice: ThemeChoice) {
		this.#choice = choice;
		try {
			globalThis.localStorage?.setItem(STORAGE_KEY, choice);
		} catch {
			// Storage may be disabled (private mode); the choice then lasts for this page only.
		}
		this.#apply();
	}

	/** Light → dark → system → light. */
	cycle(): void {
		const next = CHOICES[(CHOICES.indexOf(this.#choice) + 1) % CHOICES.length] ?? 'system';
		this.choice = next;
	}

	#apply(): void {
		if (typeof document === 'undefined') return;
		document.documentElement.dataset.theme = this.resolved;
		document.documentElement.style.colorScheme = this.resolved;
	}
}

export const theme = new Theme();
