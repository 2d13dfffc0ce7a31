/**
 * The share box's state, for every kind of run: builds the link with the kind's own `build`,
 * copies it, and keeps what to show (the link, or why there is none).
 */
import { copyText } from '../../io/copy-text';
import { shareOutcomeOfError, type ShareBoxOutcome } from '../../io/share-box';

export type ShareBoxStatus = 'idle' | 'building' | 'ready' | 'too-large' | 'failed';

/** A built link as shown: the whole URL and how it was made. */
export interface SharedLink {
	readonly url: string;
	readonly detail?: string;
}

export class ShareBoxState {
	#status = $state<ShareBoxStatus>('idle');
	#link = $state.raw<SharedLink | null>(null);
	#message = $state<string | null>(null);
	#copied = $state(false);

	get status(): ShareBoxStatus {
		return this.#status;
	}

	get link(): SharedLink | null {
		return this.#link;
	}

	/** What went wrong (or why the run bundle is offered), for the user. */
	get message(): string | null {
		return this.#message;
	}

	get copied(): boolean {
		return this.#copied;
	}

	/** Builds the link with `build` (a throw is said, not raised), then copies it. */
	async share(build: () => Promise<ShareBoxOutcome>): Promise<void> {
		if (this.#status === 'building') return;
		this.#status = 'building';
		this.#message = null;
		this.#copied = false;
		this.#link = null;
		let outcome: ShareBoxOutcome;
		try {
			outcome = await build();
		} catch (error) {
			outcome = shareOutcomeOfError(error);
		}
		if (!outcome.ok) {
			this.#status = outcome.tooLarge ? 'too-large' : 'failed';
			this.#message = outcome.message;
			return;
		}
		this.#link = outcome.detail
			? { url: outcome.url, detail: outcome.detail }
			: { url: outcome.url };
		this.#status = 'ready';
		if (await copyText(outcome.url)) this.#copied = true;
		else this.#message = 'The browser refused to copy: select the link and copy it by hand.';
	}
}
