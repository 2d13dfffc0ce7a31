// A family registered only in a test (tests/support/tally-kind.ts) gets, through the kind
// registry and with no shared file changed: storage (import, list, check, delete), bundles (read
// by envelope, sealed, exported equal), links (opened by route), its page's routes, resume (the
// one rule) and the Library's view of a run (models, progress, where it opens, delete).
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RUN_KIND_REGISTRY } from '../../../src/core/kinds/registered-kinds';
import { libraryEntryOf, type LibraryRun } from '../../../src/core/library/library-entry';
import { formatAppRoute, parseAppRoute } from '../../../src/core/routing/app-route';
import { listLibraryRuns } from '../../../src/storage/shared/runs-repository';
import { storedBundleText } from '../../../src/ui/io/library-bundles';
import { RunHistory } from '../../../src/ui/state/shared/run-history.svelte';
import { db } from '../../../src/storage/shared/db';
import {
	createRunOfAnyKind,
	deleteRunOfAnyKind,
	exportRunBundleOfAnyKind,
	importRunBundleOfAnyKind,
	listResumableRunsOfEveryKind,
	listRunItemsOfAnyKind,
	listRunsOfEveryKind,
	putRunItemsOfAnyKind,
	updateRunOfAnyKind,
} from '../../../src/storage/shared/run-store';
import { COIN_FLIPS as BUNDLE, TALLY_KIND } from '../../support/tally-kind';
import { clearDatabase } from '../clear-database';

beforeAll(() => {
	RUN_KIND_REGISTRY.register(TALLY_KIND);
});
beforeEach(clearDatabase);

describe('a kind registered only in a test', () => {
	it('is one of the registry’s kinds, after the app’s own, and cannot be registered twice', () => {
		expect(RUN_KIND_REGISTRY.names).toEqual(['suite', 'evals', 'ltm', 'stimuli', 'tally']);
		expect(() => RUN_KIND_REGISTRY.register(TALLY_KIND)).toThrow(/registered twice/);
		expect(() =>
			RUN_KIND_REGISTRY.register({
				...TALLY_KIND,
				kind: 'tally2',
				bundle: { ...TALLY_KIND.bundle, kind: 'tally2' },
				share: { ...TALLY_KIND.share, kind: 'tally2' },
			}),
		).toThrow(/Link route \/tally\/share\/ of kind "tally2" is taken/);
	});

	it('has its page’s routes: the page, a stored run, a shared run, both ways', () => {
		const routes = [
			['#/tally', { view: 'kind', kind: 'tally' }],
			['#/tally/run/4', { view: 'kind', kind: 'tally', runId: 4 }],
			['#/tally/share/2/AbC', { view: 'kind', kind: 'tally', share: '2/AbC' }],
		] as const;
		for (const [hash, route] of routes) {
			expect(parseAppRoute(hash)).toEqual(route);
			expect(formatAppRoute(route)).toBe(hash);
		}
		expect(RUN_KIND_REGISTRY.openRoute('tally', 4)).toBe('#/tally/run/4');
		expect(parseAppRoute('#/tallies')).toEqual({ view: 'run' });
	});

	it('has its bundles read by envelope and sealed: a changed value is refused', () => {
		const text = TALLY_KIND.bundle.write(BUNDLE);
		const read = RUN_KIND_REGISTRY.readBundle(text);
		expect(read).toMatchObject({ ok: true, kind: 'tally', bundle: BUNDLE });
		expect(read.ok && read.resultsSha256).toBe(RUN_KIND_REGISTRY.fingerprint('tally', BUNDLE));
		const changed = JSON.parse(text) as { values: number[] };
		changed.values[1] = 5;
		expect(RUN_KIND_REGISTRY.readBundle(JSON.stringify(changed))).toMatchObject({
			ok: false,
			pointer: '/resultsSha256',
		});
		// A suite's reader names it and sends it to the Library.
		expect(RUN_KIND_REGISTRY.get('suite')?.bundle.read(text)).toMatchObject({
			ok: false,
			message: expect.stringMatching(/another kind of run \("tally"\).*Library/),
		});
	});

	it('has its links opened by their route, and refused under another', () => {
		const data = TALLY_KIND.share.encode({ counterName: 'Coin flips', total: 2 });
		expect(RUN_KIND_REGISTRY.decodeShareLink(`https://example.org/#/tally/share/${data}`)).toEqual({
			ok: true,
			kind: 'tally',
			payload: { counterName: 'Coin flips', total: 2 },
		});
		const moved = RUN_KIND_REGISTRY.decodeShareLink(`#/evals/share/${data}`);
		expect(!moved.ok && moved.error.message).toMatch(/another kind \("tally"\)/);
	});

	it('is imported, listed with its models, progress and page, exported equal, and deleted', async () => {
		const text = TALLY_KIND.bundle.write(BUNDLE);
		const run = await importRunBundleOfAnyKind(text);
		expect(run).toMatchObject({ kind: 'tally', title: 'Coin flips', stepsDone: 3 });
		expect((await listRunItemsOfAnyKind(run.id)).map((item) => item['value'])).toEqual([1, 0, 1]);
		const { runs, unreadable } = await listRunsOfEveryKind();
		expect(runs.map(({ id, kind }) => [id, kind])).toEqual([[run.id, 'tally']]);
		expect(unreadable).toEqual([]);
		expect(RUN_KIND_REGISTRY.models(run)).toEqual([BUNDLE.run.model]);
		expect(RUN_KIND_REGISTRY.progress(run)).toEqual({ done: 3, total: 3, noun: 'steps' });
		expect(RUN_KIND_REGISTRY.openRoute(run.kind, run.id)).toBe(`#/tally/run/${run.id}`);
		const exported = await exportRunBundleOfAnyKind(run.id);
		expect(RUN_KIND_REGISTRY.readBundle(exported)).toEqual(RUN_KIND_REGISTRY.readBundle(text));
		await deleteRunOfAnyKind(run.id);
		expect(await listRunsOfEveryKind()).toEqual({ runs: [], unreadable: [] });
		expect(await db.runItems.count()).toBe(0);
	});

	it('is resumed by the one rule: interrupted while steps are left, not once done', async () => {
		const { run: portable } = BUNDLE;
		const run = await createRunOfAnyKind({
			...portable,
			kind: 'tally',
			status: 'running',
			stepsDone: 1,
		});
		await putRunItemsOfAnyKind(run.id, [{ kind: 'tally-step', key: 0, value: 1 }]);
		const [resumable] = await listResumableRunsOfEveryKind();
		expect(resumable?.id).toBe(run.id);
		expect(RUN_KIND_REGISTRY.resumePlan(resumable!)).toEqual({
			done: 1,
			total: 3,
			interrupted: true,
		});
		await updateRunOfAnyKind(run.id, { status: 'done', stepsDone: 3 });
		expect(await listResumableRunsOfEveryKind()).toEqual([]);
	});

	it('has a bad stored row listed as unreadable with its kind, the others still shown', async () => {
		const good = await importRunBundleOfAnyKind(TALLY_KIND.bundle.write(BUNDLE));
		const bad = await createRunOfAnyKind({ ...BUNDLE.run, kind: 'tally', stepsDone: -1 });
		await db.runs.add({ kind: 'chat', title: 'stray' } as never);
		const { runs, unreadable } = await listRunsOfEveryKind();
		expect(runs.map(({ id }) => id)).toEqual([good.id]);
		expect(unreadable).toEqual([
			expect.objectContaining({ kind: null, problem: expect.stringMatching(/^\/kind: /) }),
			{ id: bad.id, kind: 'tally', problem: expect.stringMatching(/^\/stepsDone: /) },
		]);
	});

	it('is a row of the Library: its label, models, counts and route; imported and exported there', async () => {
		const text = TALLY_KIND.bundle.write(BUNDLE);
		const history = new RunHistory();
		const target = await history.importBundle(text, 'tally.benchtop-run.json');
		if (target === null) throw new Error(history.message ?? 'not imported');
		expect(history.message).toBe(
			`Imported tally.benchtop-run.json as run ${target.runId}. Its results match the SHA-256 it was written with.`,
		);
		expect(target).toEqual({
			runId: target.runId,
			route: `#/tally/run/${target.runId}`,
		});
		const { runs } = await listLibraryRuns();
		const [entry] = runs.map((run) => libraryEntryOf(run as LibraryRun));
		expect(entry).toMatchObject({
			id: target.runId,
			kind: 'tally',
			kindLabel: 'Tally',
			title: 'Coin flips',
			countsText: '3 of 3 steps',
			resumable: false,
			open: target,
		});
		expect(entry?.models.map((model) => [model.role, model.name])).toEqual([
			['model', 'gpt2-random-tiny'],
		]);
		const exported = await storedBundleText({ id: target.runId, kind: 'tally' as never });
		expect(RUN_KIND_REGISTRY.readBundle(exported)).toEqual(RUN_KIND_REGISTRY.readBundle(text));
		// The Library deletes it through its kind's session, as any kind's (here the run store).
		await history.delete(target.runId, deleteRunOfAnyKind);
		expect(history.message).toBe(`Run ${target.runId} deleted.`);
		expect(history.entries).toEqual([]);
	});
});
