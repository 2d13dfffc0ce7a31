// ESLint flat config: typescript-eslint + eslint-plugin-svelte, and the one dependency rule
// (src/core imports nothing but itself).
import js from '@eslint/js';
import ts from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import svelteConfig from './svelte.config.js';

export default ts.config(
	{
		ignores: [
			'node_modules/',
			'dist/',
			'dist-*/',
			'build/',
			'dev-dist/',
			'coverage/',
			'test-results/',
			'playwright-report/',
			'public/',
			'bench/results/',
		],
	},
	js.configs.recommended,
	...ts.configs.recommended,
	...svelte.configs.recommended,
	{
		languageOptions: { globals: { ...globals.browser, ...globals.node } },
	},
	{
		files: ['**/*.svelte', '**/*.svelte.ts'],
		languageOptions: {
			parserOptions: {
				projectService: true,
				extraFileExtensions: ['.svelte'],
				parser: ts.parser,
				svelteConfig,
			},
		},
	},
	{
		rules: {
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
			],
			'no-eval': 'error',
			'no-new-func': 'error',
			'no-implied-eval': 'error',
		},
	},
	{
		files: ['src/core/**/*.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{
							group: [
								'svelte',
								'svelte/*',
								'dexie',
								'@huggingface/*',
								'onnxruntime-*',
								'chart.js',
								'node:*',
							],
							message: 'src/core is pure TypeScript: no UI, storage, inference or Node imports.',
						},
						{
							group: ['**/worker/**', '**/storage/**', '**/ui/**', '**/cli/**'],
							message: 'src/core must not import from the other layers.',
						},
					],
				},
			],
		},
	},
);
