/**
 * A Svelte attachment for a sideways scroll box (`.table-scroll`): keeps `data-overflow` on it
 * ("none", "more" while columns lie past the right edge, "end" once scrolled to the end), which
 * app.css turns into an edge shadow and shows the `.scroll-cue` line that follows the box.
 */
export function scrollCue(node: HTMLElement): () => void {
	const update = (): void => {
		const overflowing = node.scrollWidth > node.clientWidth + 1;
		const atEnd = node.scrollLeft + node.clientWidth >= node.scrollWidth - 1;
		node.dataset['overflow'] = !overflowing ? 'none' : atEnd ? 'end' : 'more';
	};
	const observer = new ResizeObserver(update);
	observer.observe(node);
	for (const child of node.children) observer.observe(child);
	node.addEventListener('scroll', update, { passive: true });
	update();
	return () => {
		observer.disconnect();
		node.removeEventListener('scroll', update);
	};
}
