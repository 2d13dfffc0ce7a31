/**
 * Storage failures as named errors the UI can explain: a full quota becomes StorageQuotaError, a
 * stored run that cannot be shown UnreadableRunError.
 * Knows the names IndexedDB/Dexie give errors; nothing else.
 */
import { BenchtopError } from '../../core/errors';

/** The browser refused a write because the origin's storage quota is used up. */
export class StorageQuotaError extends BenchtopError {
	override readonly failureKind = 'run';
	override name = 'StorageQuotaError';
	constructor(cause?: unknown) {
		super(
			'Browser storage is full, so this could not be saved. Delete old runs or cached models (History and Model panels), then try again.',
			{ cause },
		);
	}
}

/** A stored run whose record pages cannot show (its kind in the kind registry says what is wrong). */
export class UnreadableRunError extends BenchtopError {
	override readonly failureKind = 'run';
	override name = 'UnreadableRunError';
	constructor(
		readonly runId: number,
		readonly problem: string,
	) {
		super(
			`Run ${runId} is an unreadable record (${problem}): it cannot be shown. Delete it on the History page.`,
		);
	}
}

/** An import the user cancelled: nothing of it was stored. */
export class ImportCancelledError extends BenchtopError {
	override readonly failureKind = 'run';
	override name = 'ImportCancelledError';
	constructor() {
		super('Import cancelled; nothing of it was stored.');
	}
}

/** Whether `error` (or the error it wraps, as Dexie does) is a quota error. */
export function isQuotaExceeded(error: unknown): boolean {
	for (let current = error, depth = 0; current && depth < 4; depth++) {
		if (typeof current !== 'object') return false;
		const name = (current as { name?: unknown }).name;
		if (name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED') return true;
		current =
			(current as { inner?: unknown; cause?: unknown }).inner ??
			(current as { cause?: unknown }).cause;
	}
	return false;
}

/** Runs a write; a quota failure is rethrown as StorageQuotaError, anything else as is. */
export async function guardQuota<T>(write: () => Promise<T>): Promise<T> {
	try {
		return await write();
	} catch (error) {
		if (isQuotaExceeded(error)) throw new StorageQuotaError(error);
		throw error;
	}
}
