// Which surprisal convention a CLI run uses: `--convention`, else the model's own default by the
// app's rule (core/model/default-convention), said on stderr with the reason.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
	chooseConvention,
	describeConventionChoice,
	type ModelRequest,
} from '../../src/cli/commands/surprisals';
import { conventionDefaultOf, conventionFactsOf } from '../../src/core/model/convention-choice';

const BUNDLED = {
	source: 'bundled',
	id: 'gpt2-en-small',
	dtype: 'fp32',
	backend: 'node-cpu',
} as const;
const HUB = {
	source: 'hub',
	id: 'Xenova/gpt2',
	revision: 'main',
	dtype: 'fp32',
	backend: 'node-cpu',
} as const;

describe('chooseConvention', () => {
	it('no --convention on a bundled model: the app’s default for it (bos, from its card)', async () => {
		const choice = await chooseConvention({ spec: BUNDLED });
		const app = conventionDefaultOf(conventionFactsOf({ ...BUNDLED, backend: 'wasm' }));
		expect(choice).toEqual({ convention: app?.convention, from: 'default', modelDefault: app });
		expect(choice.convention).toBe('bos');
	});

	it('--convention wins, and the model’s default is still known', async () => {
		const choice = await chooseConvention({ spec: BUNDLED, convention: 'reference' });
		expect(choice).toMatchObject({
			convention: 'reference',
			from: 'option',
			modelDefault: { convention: 'bos' },
		});
	});

	it('a hub model: what its loaded tokenizer does (probed), else reference', async () => {
		const info = { addsBos: true } as Parameters<typeof chooseConvention>[1];
		const llama = await chooseConvention({ spec: { ...HUB, id: 'o/llama' } }, info);
		expect(llama.convention).toBe('bos');
		expect(llama.modelDefault.reason).toMatch(/adds its own start-of-text token \(seen when/);
		expect((await chooseConvention({ spec: HUB })).convention).toBe('reference');
	});

	it('a folder: its tokenizer files, read as the app reads a picked folder', async () => {
		const folder = await mkdtemp(join(tmpdir(), 'benchtop-convention-'));
		await writeFile(
			join(folder, 'tokenizer.json'),
			JSON.stringify({
				post_processor: {
					type: 'TemplateProcessing',
					single: [{ SpecialToken: { id: '<s>' } }, { Sequence: { id: 'A' } }],
				},
			}),
		);
		await writeFile(join(folder, 'tokenizer_config.json'), '{ "bos_token": "<s>" }');
		const choice = await chooseConvention({ spec: { ...BUNDLED, source: 'local', id: folder } });
		expect(choice.convention).toBe('bos');
		expect(choice.modelDefault.reason).toMatch(/post-processor in tokenizer\.json/);
	});

	it('an endpoint: reference', async () => {
		const request: ModelRequest = {
			spec: HUB,
			endpoint: { source: 'openai', model: 'm', baseUrl: 'http://127.0.0.1:1/v1' },
		};
		expect((await chooseConvention(request)).convention).toBe('reference');
	});
});

describe('describeConventionChoice', () => {
	it.each([
		[
			'default on a bundled model: the reason',
			{ spec: BUNDLED },
			/^convention: bos \(the model's default\): gpt2-en-small: its model card says/,
		],
		[
			'asked for the default',
			{ spec: BUNDLED, convention: 'bos' },
			/^convention: bos \(--convention; also the model's default\)$/,
		],
		[
			'asked for reference on a bundled model: names its own default',
			{ spec: BUNDLED, convention: 'reference' },
			/^convention: reference \(--convention\); the model's default is bos: gpt2-en-small: /,
		],
		[
			'hub model, nothing known',
			{ spec: HUB },
			/^convention: reference \(the model's default\): Xenova\/gpt2 does not say/,
		],
	] as [string, ModelRequest, RegExp][])('%s', async (_name, request, line) => {
		expect(describeConventionChoice(await chooseConvention(request))).toMatch(line);
	});
});
