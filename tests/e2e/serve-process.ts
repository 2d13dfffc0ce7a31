// Our own `serve` as a child process for E2E specs: `serve --port 0` over a bundled model, allowing
// the app's origin, resolved with the URL it prints (…/v1), stopped with its whole process group.
import { spawn } from 'node:child_process';

/** The origin the E2E app is served from (playwright.config.ts). */
export const APP_ORIGIN = `http://127.0.0.1:${process.env.BENCHTOP_E2E_PORT ?? 4173}`;

export interface ServeProcess {
	/** `http://127.0.0.1:<port>/v1`, as serve printed it. */
	readonly baseUrl: string;
	/** Stops npx, tsx and the server itself (the process group). */
	stop(): void;
}

/** Starts `serve` over `model`; rejects with serve's output if it prints no URL within 60 s. */
export function startServeProcess(model: string): Promise<ServeProcess> {
	return new Promise((resolve, reject) => {
		const child = spawn(
			'npx',
			[
				'tsx',
				'src/cli/main.ts',
				'serve',
				'--port',
				'0',
				'--model',
				model,
				'--allowed-origins',
				APP_ORIGIN,
			],
			{ detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
		);
		const stop = (): void => {
			if (child.pid === undefined) return;
			try {
				process.kill(-child.pid, 'SIGTERM');
			} catch {
				// Already gone.
			}
		};
		let output = '';
		const timer = setTimeout(() => {
			stop();
			reject(new Error(`serve printed no URL within 60 s:\n${output}`));
		}, 60_000);
		child.stdout?.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			const url = /https?:\/\/\S+\/v1\b/.exec(output)?.[0];
			if (url) {
				clearTimeout(timer);
				resolve({ baseUrl: url, stop });
			}
		});
		child.stderr?.on('data', (chunk: Buffer) => {
			output += chunk.toString();
		});
		child.on('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`serve exited with ${code}:\n${output}`));
		});
	});
}
