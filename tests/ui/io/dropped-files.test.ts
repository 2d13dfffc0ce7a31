// readDroppedFiles over hand-made entries: a dropped folder is walked (batches of readEntries
// included) and its files carry their paths; plain files and a drop without items pass through.
import { describe, expect, it } from 'vitest';
import { readDroppedFiles, type DroppedItem } from '../../../src/ui/io/dropped-files';

function fileEntry(fullPath: string): FileSystemFileEntry {
	const name = fullPath.split('/').pop() ?? '';
	return {
		isFile: true,
		isDirectory: false,
		name,
		fullPath,
		file: (resolve: (file: File) => void) => resolve(new File([fullPath], name)),
	} as unknown as FileSystemFileEntry;
}

/** A folder whose reader gives `children` in batches of two, then an empty batch. */
function folderEntry(fullPath: string, children: FileSystemEntry[]): FileSystemDirectoryEntry {
	return {
		isFile: false,
		isDirectory: true,
		name: fullPath.split('/').pop() ?? '',
		fullPath,
		createReader: () => {
			let at = 0;
			return {
				readEntries: (resolve: (entries: FileSystemEntry[]) => void) => {
					resolve(children.slice(at, at + 2));
					at += 2;
				},
			};
		},
	} as unknown as FileSystemDirectoryEntry;
}

function item(entry: FileSystemEntry | null, file: File | null = null): DroppedItem {
	return { kind: 'file', webkitGetAsEntry: () => entry, getAsFile: () => file };
}

describe('readDroppedFiles', () => {
	it('walks a dropped folder; each file has its path in the drop', async () => {
		const folder = folderEntry('/defs', [
			fileEntry('/defs/config.yml'),
			folderEntry('/defs/Colours', [fileEntry('/defs/Colours/0.def.json')]),
			fileEntry('/defs/notes.txt'),
		]);
		const files = await readDroppedFiles([item(folder), item(fileEntry('/single.json'))]);
		expect(files.map((file) => [file.name, file.webkitRelativePath || ''])).toEqual([
			['config.yml', 'defs/config.yml'],
			['0.def.json', 'defs/Colours/0.def.json'],
			['notes.txt', 'defs/notes.txt'],
			['single.json', ''],
		]);
		expect(await files[1]?.text()).toBe('/defs/Colours/0.def.json');
	});

	it('takes items without entries as files, and the fallback when there are no items', async () => {
		const plain = new File(['x'], 'plain.json');
		expect(await readDroppedFiles([item(null, plain)])).toEqual([plain]);
		const fallback = [new File(['y'], 'fallback.json')];
		expect(await readDroppedFiles([], fallback)).toEqual(fallback);
		expect(await readDroppedFiles([{ ...item(null), kind: 'string' }], fallback)).toEqual(fallback);
	});
});
