// Endpoint scoring asked for word boundaries: it fails with a clear EndpointCannotScoreError
// before sending anything (prompt logprobs cannot give them), against a real local server.
import { describe, expect, it } from 'vitest';
import { scoreTextsViaEndpoint } from '../../src/providers/endpoint-scoring';
import { EndpointCannotScoreError, OpenAIClient } from '../../src/providers/openai-client';
import { sendJson, startRecordingServer } from './recording-server';

describe('scoreTextsViaEndpoint with wordBoundaries', () => {
	it('refuses with a message that names the endpoint and what to do, and sends no request', async () => {
		const server = await startRecordingServer((_req, res) => sendJson(res, 500, {}));
		try {
			const run = scoreTextsViaEndpoint(new OpenAIClient({ baseUrl: server.baseUrl }), ['Hi'], {
				model: 'gpt2-en-small',
				convention: 'reference',
				wordBoundaries: true,
			});
			await expect(run).rejects.toBeInstanceOf(EndpointCannotScoreError);
			await expect(run).rejects.toThrow(
				/This endpoint \(.*127\.0\.0\.1.*, model 'gpt2-en-small'\) cannot give word-boundary probabilities.*turn the correction off/,
			);
			expect(server.requests).toEqual([]);
		} finally {
			await server.close();
		}
	});
});
