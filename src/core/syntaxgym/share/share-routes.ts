/**
 * Where suite-family links live: a suite run's (`#/share/2/…`, 0.1.0 wrote format 1) and a
 * battery's (`#/share/battery/2/…`); both open on the share page.
 */
import type { ShareRoute } from '../../share/share-codec';

export const SUITE_SHARE: ShareRoute = {
	kind: 'suite',
	route: '/share/',
	what: 'a suite run',
	oldestVersion: 1,
};

export const BATTERY_SHARE: ShareRoute = {
	kind: 'battery',
	route: '/share/battery/',
	what: 'a battery',
	oldestVersion: 2,
};
