// Serves the built app (dist/) on 127.0.0.1 for `npm start` and `npm run preview`: port 4173, or
// the PORT environment variable (PORT=8080 npm start). Fails rather than picking another port.
import { preview } from 'vite';

const DEFAULT_PORT = 4173;

/** PORT as a port number; exits with a message when it is not one. */
function portFromEnv(text) {
	if (text === undefined || text === '') return DEFAULT_PORT;
	const port = Number(text);
	if (!Number.isInteger(port) || port < 1 || port > 65535) {
		console.error(`PORT must be a whole number from 1 to 65535, not '${text}'.`);
		process.exit(2);
	}
	return port;
}

const server = await preview({
	preview: { host: '127.0.0.1', port: portFromEnv(process.env.PORT), strictPort: true },
});
server.printUrls();
