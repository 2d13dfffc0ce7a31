/**
 * Incremental reading of a `text/event-stream` body (the OpenAI streaming format) over
 * eventsource-parser, the one module that imports it: feed decoded text chunks as they arrive, get
 * each event's `data` (multi-line data joined by `\n`). Pure; a stream that buffers more than
 * `MAX_EVENT_STREAM_BUFFER_CHARS` without ending an event is refused.
 */
import { createParser, type EventSourceParser } from 'eventsource-parser';

/** Characters a pending line or event may hold before the stream is refused (16 Mi). */
export const MAX_EVENT_STREAM_BUFFER_CHARS = 16 * 1024 * 1024;

/** A stream that would grow the parser's buffer past its cap. */
export class EventStreamTooLargeError extends Error {
	override readonly name = 'EventStreamTooLargeError';
	constructor(maxChars: number) {
		super(`The event stream sent an event longer than ${maxChars} characters.`);
	}
}

export class ServerSentEventParser {
	#events: string[] = [];
	#failure: Error | null = null;
	readonly #parser: EventSourceParser;

	constructor(maxBufferChars = MAX_EVENT_STREAM_BUFFER_CHARS) {
		this.#parser = createParser({
			maxBufferSize: maxBufferChars,
			onEvent: (event) => this.#events.push(event.data),
			onError: (error) => {
				if (error.type === 'max-buffer-size-exceeded') {
					this.#failure = new EventStreamTooLargeError(maxBufferChars);
				}
			},
		});
	}

	/** Parses a chunk; returns the data of every event it completed. */
	feed(chunk: string): string[] {
		if (this.#failure) throw this.#failure;
		this.#parser.feed(chunk);
		return this.#take();
	}

	/** Ends the stream: a last event without its blank line still counts. */
	end(): string[] {
		if (this.#failure) throw this.#failure;
		this.#parser.feed('\n\n');
		this.#parser.reset();
		return this.#take();
	}

	#take(): string[] {
		if (this.#failure) throw this.#failure;
		const events = this.#events;
		this.#events = [];
		return events;
	}
}
