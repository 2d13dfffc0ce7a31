// @vitest-environment node
// fetchHubJson against a real local server of our own: a hub model's small JSON file is read
// within a cap and a deadline, because a load of that model waits for the read (the size from
// its config.json): a server that never answers, never ends its body or sends too much holds
// nothing, and the read says "unread" (undefined).
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	fetchHubJson,
	type HubJsonLimits,
} from '../../../../src/ui/state/shared/model-catalog.svelte';

const LIMITS: HubJsonLimits = { maxBytes: 1024, deadlineMs: 1500, idleMs: 600 };
const open: ServerResponse[] = [];
let server: Server;
let base = '';

beforeAll(async () => {
	server = createServer((request, response) => {
		open.push(response);
		switch (request.url) {
			case '/config.json':
				response.writeHead(200, { 'content-type': 'application/json' });
				response.end('{"model_type":"gpt2","n_layer":12}');
				break;
			case '/silent.json':
				// Never answers (no headers).
				break;
			case '/endless.json': {
				response.writeHead(200, { 'content-type': 'application/json' });
				response.write('{"a":"');
				const timer = setInterval(() => response.write('x'.repeat(100)), 50);
				response.on('close', () => clearInterval(timer));
				break;
			}
			case '/stalled.json':
				response.writeHead(200, { 'content-type': 'application/json' });
				response.write('{"a":');
				break;
			default:
				response.writeHead(404).end();
		}
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	for (const response of open) response.destroy();
	await new Promise((resolve) => server.close(resolve));
});

describe('fetchHubJson', () => {
	it('reads a small JSON file', async () => {
		expect(await fetchHubJson(`${base}/config.json`, undefined, LIMITS)).toEqual({
			model_type: 'gpt2',
			n_layer: 12,
		});
		expect(await fetchHubJson(`${base}/absent.json`, undefined, LIMITS)).toBeUndefined();
	});

	it('gives up on a server that never answers, never ends its body, or stalls', async () => {
		for (const path of ['/silent.json', '/endless.json', '/stalled.json']) {
			const started = Date.now();
			expect(await fetchHubJson(`${base}${path}`, undefined, LIMITS)).toBeUndefined();
			// Within the deadline (and the endless body stops at the cap, sooner).
			expect(Date.now() - started).toBeLessThan(LIMITS.deadlineMs + 1000);
		}
	}, 20_000);
});
