import { describe, expect, it } from 'vitest';
import { formatContentSecurityPolicy } from '../../../src/core/security/content-security-policy';

describe('formatContentSecurityPolicy', () => {
	it('joins directives with semicolons', () => {
		expect(formatContentSecurityPolicy({ 'default-src': ["'self'"], 'img-src': ['data:'] })).toBe(
			"default-src 'self'; img-src data:",
		);
	});

	it('allows wasm but never eval or inline script', () => {
		const policy = formatContentSecurityPolicy();
		const scriptSrc = policy.split('; ').find((d) => d.startsWith('script-src '));
		expect(scriptSrc).toBe("script-src 'self' 'wasm-unsafe-eval'");
		expect(policy).not.toContain("'unsafe-eval'");
		expect(policy).not.toContain("'unsafe-inline'");
		expect(policy).toContain('connect-src ');
		expect(policy).toContain('https://huggingface.co');
	});

	it('lets fetch reach user endpoints over http and https, and nothing else widens', () => {
		const directives = Object.fromEntries(
			formatContentSecurityPolicy()
				.split('; ')
				.map((d) => {
					const [name = '', ...sources] = d.split(' ');
					return [name, sources];
				}),
		);
		expect(directives['connect-src']).toEqual(expect.arrayContaining(['http:', 'https:']));
		for (const name of ['default-src', 'script-src', 'worker-src', 'img-src', 'style-src']) {
			expect(directives[name], name).not.toContain('http:');
			expect(directives[name], name).not.toContain('https:');
			expect(directives[name], name).not.toContain('*');
		}
		expect(directives['object-src']).toEqual(["'none'"]);
		expect(directives['form-action']).toEqual(["'none'"]);
	});
});
