/**
 * The parse module worker: wires parse-inputs-handler.ts to `self`. Nothing else belongs here.
 */
import { createParseHandler } from './parse-inputs-handler';
import type { ParseEvent, ParseRequest } from './parse-inputs-protocol';

const handle = createParseHandler((event: ParseEvent) => self.postMessage(event));

self.addEventListener('message', (event: MessageEvent<ParseRequest>) => handle(event.data));
