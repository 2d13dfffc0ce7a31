// A tiny node:http server on 127.0.0.1 port 0 that records every request and answers from a
// handler: the real HTTP peer for client tests (no mocked fetch).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
	readonly method: string;
	readonly url: string;
	readonly headers: IncomingMessage['headers'];
	readonly body: unknown;
}

export type Handler = (request: RecordedRequest, response: ServerResponse) => void;

export interface RecordingServer {
	readonly baseUrl: string;
	readonly requests: RecordedRequest[];
	close(): Promise<void>;
}

export async function startRecordingServer(handler: Handler): Promise<RecordingServer> {
	const requests: RecordedRequest[] = [];
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const text = Buffer.concat(chunks).toString('utf8');
			const recorded: RecordedRequest = {
				method: req.method ?? '',
				url: req.url ?? '',
				headers: req.headers,
				body: text === '' ? undefined : (JSON.parse(text) as unknown),
			};
			requests.push(recorded);
			handler(recorded, res);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}/v1`,
		requests,
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

export function sendJson(response: ServerResponse, status: number, json: unknown): void {
	response.writeHead(status, { 'content-type': 'application/json' });
	response.end(JSON.stringify(json));
}
