/**
 * The files of a drop, folders included: a dropped folder is read through the entries API
 * (`webkitGetAsEntry`), and each file carries its path inside the drop as `webkitRelativePath`,
 * as a folder picked with `<input webkitdirectory>` does. Reads files only; parses nothing.
 */

/** The most files one drop hands on (a dropped home folder stops here, not the tab). */
export const MAX_DROPPED_FILES = 20_000;

/** The part of `DataTransferItem` this module uses (a test passes plain objects). */
export interface DroppedItem {
	readonly kind: string;
	webkitGetAsEntry(): FileSystemEntry | null;
	getAsFile(): File | null;
}

function isFile(entry: FileSystemEntry): entry is FileSystemFileEntry {
	return entry.isFile;
}

function isDirectory(entry: FileSystemEntry): entry is FileSystemDirectoryEntry {
	return entry.isDirectory;
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
	return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/** Every entry of a folder (`readEntries` gives them in batches until an empty one). */
async function childrenOf(entry: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
	const reader = entry.createReader();
	const children: FileSystemEntry[] = [];
	for (;;) {
		const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
			reader.readEntries(resolve, reject),
		);
		if (batch.length === 0) return children;
		children.push(...batch);
	}
}

/** `file` with `path` as its `webkitRelativePath` (the File keeps its bytes and name). */
function withRelativePath(file: File, path: string): File {
	Object.defineProperty(file, 'webkitRelativePath', { value: path, configurable: true });
	return file;
}

/**
 * The files of the dropped `items`, folders walked depth-first. Call it inside the drop handler:
 * the entries must be taken before the event returns. Items without entries fall back to
 * `getAsFile`; `fallback` (the drop's `files`) is used when there are no items at all.
 */
export async function readDroppedFiles(
	items: readonly DroppedItem[],
	fallback: readonly File[] = [],
): Promise<File[]> {
	const entries: FileSystemEntry[] = [];
	const plain: File[] = [];
	for (const item of items) {
		if (item.kind !== 'file') continue;
		const entry = item.webkitGetAsEntry();
		if (entry) entries.push(entry);
		else {
			const file = item.getAsFile();
			if (file) plain.push(file);
		}
	}
	if (entries.length === 0 && plain.length === 0) return [...fallback];
	const files = [...plain];
	const pending = [...entries];
	while (pending.length > 0 && files.length < MAX_DROPPED_FILES) {
		const entry = pending.shift()!;
		if (isFile(entry)) {
			const file = await fileOf(entry);
			const path = entry.fullPath.replace(/^\/+/u, '');
			files.push(path.includes('/') ? withRelativePath(file, path) : file);
		} else if (isDirectory(entry)) {
			pending.unshift(...(await childrenOf(entry)));
		}
	}
	return files;
}
