/**
 * Any thrown value as one sentence for the user. Named errors keep their message; unknown
 * values are stringified. No stack traces in the UI.
 */
export function describeError(error: unknown): string {
	if (error instanceof Error) return error.message || error.name;
	if (typeof error === 'string') return error;
	return String(error);
}
