// The build's configuration (vite.config.ts): `npm start` and `npm run build` print no
// [PLUGIN_TIMINGS] block, neither for the app nor for its workers (Rolldown's checks.bundlerTimings).
import { describe, expect, it } from 'vitest';
import config from '../../vite.config';

describe('vite.config.ts', () => {
	it('turns off the plugin-timings warning for the app and its workers', () => {
		expect(config.build?.rollupOptions?.checks?.bundlerTimings).toBe(false);
		expect(config.worker?.rolldownOptions?.checks?.bundlerTimings).toBe(false);
	});
});
