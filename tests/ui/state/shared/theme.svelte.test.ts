// Theme: cycles system → light → dark, remembers the choice, applies it to <html>.
import { describe, expect, it } from 'vitest';
import { Theme } from '../../../../src/ui/state/shared/theme.svelte';

describe('Theme', () => {
	it('cycles, stores the choice and sets data-theme on <html>', () => {
		localStorage.removeItem('benchtop.theme');
		const theme = new Theme();
		expect(theme.choice).toBe('system');
		theme.cycle();
		expect(theme.choice).toBe('light');
		expect(document.documentElement.dataset.theme).toBe('light');
		theme.cycle();
		expect(theme.resolved).toBe('dark');
		expect(document.documentElement.dataset.theme).toBe('dark');
		expect(localStorage.getItem('benchtop.theme')).toBe('dark');
		expect(new Theme().choice).toBe('dark');
		theme.cycle();
		expect(theme.choice).toBe('system');
	});
});
