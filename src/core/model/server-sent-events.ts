/**
 * Incremental parser of a `text/event-stream` body (the OpenAI streaming format): feed decoded
 * text chunks as they arrive, get each event's `data` (multi-line data joined by `\n`). Comments,
 * `event:`, `id:` and `retry:` fields are ignored. Pure.
 */
export class ServerSentEventParser {
	#buffer = '';
	#data: string[] = [];

	/** Parses a chunk; returns the data of every event it completed. */
	feed(chunk: string): string[] {
		this.#buffer += chunk;
		const events: string[] = [];
		for (;;) {
			const match = /\r\n|\r|\n/.exec(this.#buffer);
			// A lone \r at the end may be the first half of \r\n: wait for more.
			if (!match || (match[0] === '\r' && match.index === this.#buffer.length - 1)) break;
			const line = this.#buffer.slice(0, match.index);
			this.#buffer = this.#buffer.slice(match.index + match[0].length);
			this.#line(line, events);
		}
		return events;
	}

	/** Ends the stream: a last event without its blank line still counts. */
	end(): string[] {
		const events: string[] = [];
		if (this.#buffer !== '') this.#line(this.#buffer, events);
		this.#buffer = '';
		this.#line('', events);
		return events;
	}

	#line(line: string, events: string[]): void {
		if (line === '') {
			if (this.#data.length > 0) events.push(this.#data.join('\n'));
			this.#data = [];
			return;
		}
		if (line.startsWith(':')) return;
		const colon = line.indexOf(':');
		const field = colon < 0 ? line : line.slice(0, colon);
		let value = colon < 0 ? '' : line.slice(colon + 1);
		if (value.startsWith(' ')) value = value.slice(1);
		if (field === 'data') this.#data.push(value);
	}
}
