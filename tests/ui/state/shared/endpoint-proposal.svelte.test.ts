// A share link's endpoint as a proposal: opening it and running it once write nothing to
// storage and send the user's key to no other server; only "Save as my endpoint" changes the
// settings. Also the per-server key rule of EndpointSettings.keyFor / textModelFor.
import { describe, expect, it } from 'vitest';
import type { EndpointModelSpec } from '../../../../src/core/model/model-spec';
import {
	ENDPOINT_KEY_STORAGE_KEY,
	ENDPOINT_STORAGE_KEY,
	EndpointProposal,
	EndpointSettings,
	proposeLinkEndpoints,
	type KeyValueStorage,
} from '../../../../src/ui/state/shared/endpoint-settings.svelte';

function memoryStorage(): KeyValueStorage & { data: Map<string, string> } {
	const data = new Map<string, string>();
	return {
		data,
		getItem: (key) => data.get(key) ?? null,
		setItem: (key, value) => void data.set(key, value),
		removeItem: (key) => void data.delete(key),
	};
}

const MINE = { baseUrl: 'http://127.0.0.1:8000/v1', modelId: 'my-model', key: 'sk-mine' };
const LINKED: EndpointModelSpec = {
	source: 'openai',
	model: 'their-model',
	baseUrl: 'https://their.example/v1/',
};

/** Settings saved by the user (base URL, model, remembered key), and the storage behind them. */
function savedSettings(): {
	settings: EndpointSettings;
	storage: ReturnType<typeof memoryStorage>;
} {
	const storage = memoryStorage();
	const settings = new EndpointSettings({ storage, pageProtocol: 'http:' });
	settings.baseUrl = MINE.baseUrl;
	settings.modelId = MINE.modelId;
	settings.apiKey = MINE.key;
	settings.rememberKey = true;
	return { settings, storage };
}

describe('EndpointProposal', () => {
	it('shows the link endpoint without touching the settings or storage', () => {
		const { settings, storage } = savedSettings();
		const before = new Map(storage.data);
		const proposal = new EndpointProposal(LINKED, settings);
		proposal.apiKey = 'sk-theirs';
		expect(proposal.spec.baseUrl).toBe('https://their.example/v1');
		expect(proposal.isSaved).toBe(false);
		expect(proposal.inUse).toBe(false);
		expect(proposal.savedDescription).toBe('my-model at http://127.0.0.1:8000/v1');
		proposal.useOnce();
		expect(proposal.inUse).toBe(true);
		expect(storage.data).toEqual(before);
		expect([settings.baseUrl, settings.modelId, settings.apiKey]).toEqual([
			MINE.baseUrl,
			MINE.modelId,
			MINE.key,
		]);
	});

	it('runs once with the key typed for the link server, never the saved key', () => {
		const { settings } = savedSettings();
		const proposal = new EndpointProposal(LINKED, settings);
		expect(settings.textModelFor(LINKED)).toBeNull();
		expect(settings.keyFor(LINKED)).toBeUndefined();
		proposal.useOnce();
		expect(settings.keyFor(LINKED)).toBeUndefined();
		expect(settings.textModelFor(LINKED)?.spec).toEqual({
			source: 'openai',
			model: 'their-model',
			baseUrl: 'https://their.example/v1',
		});
		proposal.apiKey = 'sk-theirs';
		proposal.useOnce();
		expect(settings.keyFor(LINKED)).toBe('sk-theirs');
		// The user's own server still gets the user's key.
		expect(settings.keyFor({ source: 'openai', model: 'x', baseUrl: MINE.baseUrl })).toBe(MINE.key);
	});

	it('saves only when asked: the link endpoint and the key typed for it replace the saved ones', () => {
		const { settings, storage } = savedSettings();
		const proposal = new EndpointProposal(LINKED, settings);
		proposal.apiKey = 'sk-theirs';
		proposal.save();
		expect(proposal.isSaved).toBe(true);
		expect(JSON.parse(storage.data.get(ENDPOINT_STORAGE_KEY) ?? '')).toEqual({
			baseUrl: 'https://their.example/v1',
			modelId: 'their-model',
		});
		expect(storage.data.get(ENDPOINT_KEY_STORAGE_KEY)).toBe('sk-theirs');
	});

	it('saving another server with no key typed drops the saved key instead of sending it there', () => {
		const { settings, storage } = savedSettings();
		new EndpointProposal(LINKED, settings).save();
		expect(settings.keyForRequests).toBeUndefined();
		expect(storage.data.has(ENDPOINT_KEY_STORAGE_KEY)).toBe(false);
	});

	it('saving another model on the same server keeps the saved key when none is typed', () => {
		const { settings } = savedSettings();
		const sameServer: EndpointModelSpec = { ...LINKED, baseUrl: `${MINE.baseUrl}/` };
		new EndpointProposal(sameServer, settings).save();
		expect(settings.modelId).toBe('their-model');
		expect(settings.keyForRequests).toBe(MINE.key);
	});

	it('is in use at once when the link names the saved endpoint', () => {
		const { settings } = savedSettings();
		const proposal = new EndpointProposal(
			{ source: 'openai', model: MINE.modelId, baseUrl: `${MINE.baseUrl}/` },
			settings,
		);
		expect([proposal.isSaved, proposal.inUse]).toEqual([true, true]);
		proposal.useOnce();
		expect(settings.keyFor(proposal.spec)).toBe(MINE.key);
	});

	it('proposes each distinct endpoint of a link once, and nothing for local models', () => {
		const { settings } = savedSettings();
		const proposals = proposeLinkEndpoints(
			[
				LINKED,
				{ source: 'bundled' },
				undefined,
				{ ...LINKED, baseUrl: 'https://their.example/v1' },
			],
			settings,
		);
		expect(proposals.map((proposal) => proposal.spec)).toEqual([
			{ source: 'openai', model: 'their-model', baseUrl: 'https://their.example/v1' },
		]);
	});
});

describe('EndpointSettings.textModelFor', () => {
	it('uses the endpoint as set only for the same server and model (issue 18: resume never switches servers)', () => {
		const { settings } = savedSettings();
		const recorded: EndpointModelSpec = {
			source: 'openai',
			model: MINE.modelId,
			baseUrl: 'http://old.example/v1',
		};
		expect(settings.textModelFor(recorded)).toBeNull();
		expect(settings.textModelFor({ ...recorded, baseUrl: MINE.baseUrl })?.spec.baseUrl).toBe(
			MINE.baseUrl,
		);
		expect(
			settings.textModelFor({ ...recorded, baseUrl: MINE.baseUrl, model: 'other' }),
		).toBeNull();
	});
});
