import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Credential } from '../../service/auth';
import { GameError } from '../../service/errors';
import type { FeedService } from '../../service/feed';
import type { GameView } from '../../service/game-view';
import type { GameService } from '../../service/games';
import type { FeedEvent } from '../../store/store';

export const SSE_MEDIA = 'text/event-stream';
export const NDJSON_MEDIA = 'application/x-ndjson';
export const JSON_MEDIA = 'application/json';

/** Keep-alive interval: below common proxy idle timeouts (30–60 s). */
const KEEPALIVE_MS = 15_000;

/** Open streams, so that shutdown can end them (a streamed response never ends by itself). */
export type OpenStreams = Set<() => void>;

/** How one kind of streamed response frames itself. */
export interface StreamFormat {
  readonly contentType: string;
  /** Written once, right after the headers. */
  readonly preamble: string;
  /** Written every 15 s while nothing else is. */
  readonly keepAlive: string;
  /** The last chunk when the server shuts down (the client reconnects elsewhere). */
  readonly shutdown: string;
}

/** Server-Sent Events: a `retry` hint first, comments as keep-alives. */
export const SSE: StreamFormat = {
  contentType: 'text/event-stream; charset=utf-8',
  preamble: 'retry: 2000\n\n',
  keepAlive: ': keep-alive\n\n',
  shutdown: 'event: shutdown\ndata: {}\n\n',
};

/** Newline-delimited JSON: one document per line, empty lines as keep-alives. */
export const NDJSON: StreamFormat = {
  contentType: 'application/x-ndjson; charset=utf-8',
  preamble: '',
  keepAlive: '\n',
  shutdown: '{"type":"shutdown"}\n',
};

/** A streamed response in progress. */
export interface OpenStream {
  write(chunk: string): void;
  /** Ends the response (idempotent). */
  end(): void;
}

/**
 * Starts a streamed 200 response: headers, preamble and keep-alives, registered in `open` so that
 * shutdown ends it. `onClose` runs exactly once, however the stream ends (client gone, `end()`,
 * shutdown, socket error).
 */
export function openStream(
  res: Response,
  open: OpenStreams,
  format: StreamFormat,
  onClose: () => void,
): OpenStream {
  res.writeHead(200, {
    'Content-Type': format.contentType,
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  if (format.preamble) res.write(format.preamble);
  let closed = false;
  const keepAlive = setInterval(() => res.write(format.keepAlive), KEEPALIVE_MS);
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(keepAlive);
    open.delete(shutdown);
    onClose();
  };
  const shutdown = () => {
    if (!closed) res.end(format.shutdown);
    close();
  };
  open.add(shutdown);
  res.on('close', close);
  res.on('error', close);
  // The client may have gone while the stream was being set up.
  if (res.destroyed || res.socket?.destroyed) close();
  return {
    write: (chunk) => {
      if (!closed) res.write(chunk);
    },
    end: () => {
      if (!closed) res.end();
      close();
    },
  };
}

/**
 * The one content negotiation of the streaming routes: the type among `offered` that the Accept
 * header prefers; `offered[0]` (the route's default) for no Accept, any type, or none offered.
 * Answers vary by Accept.
 */
export function negotiate<T extends string>(req: Request, res: Response, offered: readonly [T, ...T[]]): T {
  res.setHeader('Vary', 'Accept');
  return (req.accepts([...offered]) || offered[0]) as T;
}

/** The OpenAPI description of the Last-Event-ID request header. */
export const lastEventIdHeader = z.object({
  'last-event-id': z.string().optional().openapi({
    description: 'SSE: the id of the last event seen; the stream resumes after it (wins over `after`)',
  }),
});

/**
 * Where a stream resumes: for SSE the Last-Event-ID of a reconnect (it wins), else `?after=`;
 * undefined: from now on.
 */
export function resumeAfter(
  req: Request,
  format: StreamFormatName,
  after: number | undefined,
): number | undefined {
  const header = req.headers['last-event-id'];
  if (format !== 'sse' || header === undefined) return after;
  if (typeof header !== 'string' || !/^\d{1,15}$/.test(header.trim())) {
    throw new GameError('INVALID_INPUT', 'Last-Event-ID must be an id from the stream', {
      field: 'Last-Event-ID',
    });
  }
  return Number(header.trim());
}

export type StreamFormatName = 'sse' | 'ndjson';

/** How a game's versions, and its end, look in each format. */
const GAME_FRAMES: Record<
  StreamFormatName,
  { stream: StreamFormat; game: (game: GameView) => string; end: string }
> = {
  sse: {
    stream: SSE,
    game: (game) => `id: ${game.version}\nevent: game\ndata: ${JSON.stringify(game)}\n\n`,
    end: 'event: end\ndata: {}\n\n',
  },
  ndjson: {
    stream: NDJSON,
    game: (game) => `${JSON.stringify({ type: 'game', game })}\n`,
    end: '{"type":"end"}\n',
  },
};

/** One game as a stream: now, then every version after `after` (undefined: all), then `end`. */
export async function streamGame(
  service: GameService,
  id: string,
  after: number | undefined,
  res: Response,
  open: OpenStreams,
  format: StreamFormatName,
): Promise<void> {
  const frames = GAME_FRAMES[format];
  // Until the headers are out, chunks wait here.
  const pending: string[] = [];
  let send: (chunk: string) => void = (chunk) => pending.push(chunk);
  // watch() fails with GAME_NOT_FOUND / INVALID_INPUT before any byte is written.
  const unsubscribe = await service.watch(id, (game) => {
    if (after !== undefined && game.version <= after) return;
    send(frames.game(game));
    if (game.status === 'finished') send(frames.end);
  });
  const stream = openStream(res, open, frames.stream, () => void unsubscribe());
  for (const chunk of pending) stream.write(chunk);
  send = (chunk) => stream.write(chunk);
}

/** How feed events and the opening `ready` line look in each format. */
const FEED_FRAMES: Record<
  StreamFormatName,
  { stream: StreamFormat; ready: (last: number) => string; event: (event: FeedEvent) => string }
> = {
  sse: {
    stream: SSE,
    // The ready event carries the starting seq as its id, so that a reconnect before any event
    // (Last-Event-ID) resumes from there instead of from "now".
    ready: (last) => `id: ${last}\nevent: ready\ndata: ${JSON.stringify({ last })}\n\n`,
    event: (event) => `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`,
  },
  ndjson: {
    stream: NDJSON,
    ready: (last) => `${JSON.stringify({ type: 'ready', last })}\n`,
    event: (event) => `${JSON.stringify(event)}\n`,
  },
};

/**
 * An account's event feed as a stream: first `ready` with the seq the stream starts after, then
 * each event after `after` (default: from now on) exactly once and in order. The service refuses
 * (EVENTS_EXPIRED, UNAUTHENTICATED, MISSING_SCOPE, INVALID_INPUT) before any byte is written; a
 * store failure mid-stream ends the response, and the client resumes from the last seq it saw.
 */
export async function streamFeed(
  feed: FeedService,
  credential: Credential,
  after: number | undefined,
  res: Response,
  open: OpenStreams,
  format: StreamFormatName,
): Promise<void> {
  const frames = FEED_FRAMES[format];
  // follow() may deliver (resumed events), or fail, before it resolves: until the headers are out,
  // events wait here and a failure is remembered.
  const pending: FeedEvent[] = [];
  let failed = false;
  let deliver: (event: FeedEvent) => void = (event) => pending.push(event);
  let fail: () => void = () => (failed = true);
  const following = await feed.follow(
    credential,
    after,
    (event) => deliver(event),
    () => fail(),
  );
  const stream = openStream(res, open, frames.stream, () => void following.stop());
  stream.write(frames.ready(after ?? following.last));
  for (const event of pending) stream.write(frames.event(event));
  if (failed) return stream.end();
  deliver = (event) => stream.write(frames.event(event));
  fail = () => stream.end();
}
