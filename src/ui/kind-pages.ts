/**
 * The kinds' own pages, one line per family (the suite's page is the app's Run page): what App
 * builds for each (its session, from the app's services) and shows at the kind's route
 * (`#/evals`, `#/memory/run/3`, `#/stimuli/share/…`), and which dropped files the page loads
 * itself. The menu entry's name and the route come from the kind registry. Adding a family with a
 * page of its own is its folders plus one line here and one in core/kinds/registered-kinds.ts.
 */
import type { Component } from 'svelte';
import { RUN_KIND_REGISTRY } from '../core/kinds/registered-kinds';
import type { ModelSpec } from '../core/model/model-spec';
import type { InferenceClientApi, ModelInfo } from '../worker/protocol';
import type { EndpointSettings } from './state/shared/endpoint-settings.svelte';
import { EvalsSession } from './state/evals/evals-session.svelte';
import { MemorySession } from './state/ltm/memory-session.svelte';
import { StimuliSession } from './state/stimuli/stimuli-session.svelte';
import type { KindPageProps, KindPageSession } from './state/shared/task-session.svelte';
import EvalsView from './views/evals/EvalsView.svelte';
import MemoryView from './views/ltm/MemoryView.svelte';
import StimuliView from './views/stimuli/StimuliView.svelte';

/** What the app gives every kind's page session. */
export interface PageServices {
	readonly client: InferenceClientApi;
	/** The one endpoint choice of the app. */
	readonly endpoint: EndpointSettings;
	/** Loads a local model, reusing one the app has loaded (the model catalog's load). */
	readonly load: (spec: ModelSpec, signal?: AbortSignal) => Promise<ModelInfo>;
}

export interface KindPage<Session extends KindPageSession = KindPageSession> {
	/** The registered kind (core/kinds/registered-kinds.ts) the page runs. */
	readonly kind: string;
	readonly createSession: (services: PageServices) => Session;
	readonly view: Component<KindPageProps<Session>>;
	/** Files dropped while the page shows that it reads itself (its definitions), and how. */
	readonly drop?: {
		readonly accepts: RegExp;
		readonly load: (session: Session, files: readonly File[]) => Promise<void>;
	};
}

/** A page of any session type, as the list holds it. */
function kindPage<Session extends KindPageSession>(page: KindPage<Session>): KindPage {
	return page as unknown as KindPage;
}

export const KIND_PAGES: readonly KindPage[] = [
	kindPage({
		kind: 'evals',
		createSession: ({ client, endpoint }) => new EvalsSession({ client, endpoint }),
		view: EvalsView,
		drop: { accepts: /\.(ya?ml|jsonl|zip)$/i, load: (session, files) => session.loadFiles(files) },
	}),
	kindPage({
		kind: 'ltm',
		createSession: ({ client, endpoint }) => new MemorySession({ client, endpoint }),
		view: MemoryView,
		drop: { accepts: /\.(json|ya?ml|zip)$/i, load: (session, files) => session.loadFiles(files) },
	}),
	kindPage({
		kind: 'stimuli',
		createSession: ({ client, load }) => new StimuliSession({ client, load }),
		view: StimuliView,
	}),
];

/** A menu entry of a kind's page: its kind, name and route, from the kind registry. */
export interface KindPageLink {
	readonly kind: string;
	readonly label: string;
	readonly hash: string;
}

/** The menu entries of `pages`, in their order. @throws Error for a page of an unknown kind. */
export function kindPageLinks(pages: readonly KindPage[] = KIND_PAGES): KindPageLink[] {
	return pages.map(({ kind }) => {
		const registered = RUN_KIND_REGISTRY.get(kind);
		if (registered === undefined) throw new Error(`The page of kind "${kind}" has no kind.`);
		return { kind, label: registered.page.name, hash: registered.page.route };
	});
}
