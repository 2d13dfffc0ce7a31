// The live conversation: a model wrapped to report each call and streamed token, its events
// passed on unchanged; the reply grows token by token.
import { describe, expect, it } from 'vitest';
import {
	appendLiveReply,
	startLiveReply,
	streamingModel,
	type LiveReply,
} from '../../../src/core/ltm/live-reply';
import type { GenerationEvent, ModelCall } from '../../../src/core/model/generation';
import { AGENT } from './finished-ltm-run';

const CALL: ModelCall = { runId: 'r', sampleId: 'Colours - 0', role: 'agent' };

describe('streamingModel', () => {
	it('reports the call, then each token, and yields every event as the model does', async () => {
		const seen: string[] = [];
		const model = streamingModel(
			AGENT,
			(call) => seen.push(`start ${call.sampleId}`),
			(text) => seen.push(`token ${text}`),
		);
		const request = {
			prompt: {
				kind: 'chat' as const,
				messages: [{ role: 'user' as const, content: 'What is my favourite colour?' }],
			},
			params: {},
		};
		const events: GenerationEvent[] = [];
		for await (const event of model.generate(request, CALL)) events.push(event);
		const direct: GenerationEvent[] = [];
		for await (const event of AGENT.generate(request, CALL)) direct.push(event);
		expect(events).toEqual(direct);
		expect(seen).toEqual(['start Colours - 0', 'token gr', 'token een']);
	});

	it('keeps the model’s label, abilities and token count', async () => {
		const model = streamingModel(
			AGENT,
			() => undefined,
			() => undefined,
		);
		expect(model.label).toBe(AGENT.label);
		expect(model.abilities).toEqual(AGENT.abilities);
		expect(await model.countTokens('three words here')).toBe(3);
	});
});

describe('the live reply', () => {
	it('starts empty for the call’s test and grows token by token', () => {
		let live: LiveReply | null = startLiveReply(CALL);
		expect(live).toEqual({ testId: 'Colours - 0', text: '' });
		live = appendLiveReply(live, 'gr');
		live = appendLiveReply(live, 'een');
		expect(live).toEqual({ testId: 'Colours - 0', text: 'green' });
	});

	it('stays null when no reply is being generated', () => {
		expect(appendLiveReply(null, 'stray')).toBeNull();
	});
});
