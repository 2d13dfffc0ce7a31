// Empties every table between tests (fake-indexeddb keeps one database per test file).
import { db } from '../../src/storage/shared/db';

export async function clearDatabase(): Promise<void> {
	await Promise.all(db.tables.map((table) => table.clear()));
}
