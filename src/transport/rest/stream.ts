import type { Request, Response } from 'express';
import type { Credential } from '../../service/auth';
import type { GameError } from '../../service/errors';
import type { FeedService } from '../../service/feed';
import type { GameView } from '../../service/game-view';
import type { GameService } from '../../service/games';
import type { TokenStreams } from '../../service/token-streams';
import type { FeedEvent } from '../../store/store';
import { problemBody } from './problem';

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
  /** The last chunk when the API token the stream was opened with is revoked (no reconnecting). */
  readonly revoked: string;
  /** The last chunk when the stream fails (a problem document; the client may reconnect). */
  error(error: GameError): string;
}

/** Server-Sent Events: a `retry` hint first, comments as keep-alives. */
export const SSE: StreamFormat = {
  contentType: 'text/event-stream; charset=utf-8',
  preamble: 'retry: 2000\n\n',
  keepAlive: ': keep-alive\n\n',
  shutdown: 'event: shutdown\ndata: {}\n\n',
  revoked: 'event: revoked\ndata: {}\n\n',
  error: (error) => `event: error\ndata: ${JSON.stringify(problemBody(error))}\n\n`,
};

/** Newline-delimited JSON: one document per line, empty lines as keep-alives. */
export const NDJSON: StreamFormat = {
  contentType: 'application/x-ndjson; charset=utf-8',
  preamble: '',
  keepAlive: '\n',
  shutdown: '{"type":"shutdown"}\n',
  revoked: '{"type":"revoked"}\n',
  error: (error) => `${JSON.stringify({ type: 'error', problem: problemBody(error) })}\n`,
};

/** A streamed response in progress. */
export interface OpenStream {
  write(chunk: string): void;
  /** Ends the response, with `last` as its last chunk (idempotent). */
  end(last?: string): void;
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
    end: (last) => {
      if (!closed) res.end(last);
      close();
    },
  };
}

/** A game version as an SSE event (encoded once per node and version, see GameUpdate). */
const sseGame = (view: GameView) => `id: ${view.version}\nevent: game\ndata: ${JSON.stringify(view)}\n\n`;

/**
 * Server-Sent Events of one game: now, then every version; resumes after Last-Event-ID. When
 * versions were lost on the way to this node, it ends with `event: error` (UPDATES_LOST): the
 * client reconnects and gets the game as it is now.
 */
export async function streamGame(
  service: GameService,
  id: string,
  req: Request,
  res: Response,
  open: OpenStreams,
): Promise<void> {
  const lastSeen = Number(req.headers['last-event-id'] ?? -1);
  const after = Number.isInteger(lastSeen) ? lastSeen : -1;
  // Until the headers are out, chunks wait here, and a failure is remembered.
  const pending: string[] = [];
  let failure: GameError | undefined;
  let send: (chunk: string) => void = (chunk) => pending.push(chunk);
  let fail: (error: GameError) => void = (error) => (failure = error);
  // watch() fails with GAME_NOT_FOUND / INVALID_INPUT before any byte is written.
  const unsubscribe = await service.watch(
    id,
    (update) => {
      if (update.version <= after) return;
      send(update.encoded('sse', sseGame));
      if (update.view.status === 'finished') send('event: end\ndata: {}\n\n');
    },
    (error) => fail(error),
  );
  const stream = openStream(res, open, SSE, () => void unsubscribe());
  for (const chunk of pending) stream.write(chunk);
  if (failure) return stream.end(SSE.error(failure));
  send = (chunk) => stream.write(chunk);
  fail = (error) => stream.end(SSE.error(error));
}

export type FeedFormat = 'sse' | 'ndjson';

/** How feed events and the opening `ready` line look in each format. */
const FEED_FRAMES: Record<
  FeedFormat,
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
  tokens: TokenStreams,
  credential: Credential,
  after: number | undefined,
  res: Response,
  open: OpenStreams,
  format: FeedFormat,
): Promise<void> {
  const frames = FEED_FRAMES[format];
  // Registered before follow() authenticates, so that a revocation cannot slip in between.
  const token = tokens.watch(credential);
  // follow() may deliver (resumed events), or fail, before it resolves: until the headers are out,
  // events wait here and a failure is remembered.
  const pending: FeedEvent[] = [];
  let failed = false;
  let deliver: (event: FeedEvent) => void = (event) => pending.push(event);
  let fail: () => void = () => (failed = true);
  let following;
  try {
    following = await feed.follow(
      credential,
      after,
      (event) => deliver(event),
      () => fail(),
    );
  } catch (error) {
    token.release();
    throw error;
  }
  const stop = following.stop;
  const stream = openStream(res, open, frames.stream, () => {
    token.release();
    void stop();
  });
  stream.write(frames.ready(after ?? following.last));
  for (const event of pending) stream.write(frames.event(event));
  if (failed) return stream.end();
  deliver = (event) => stream.write(frames.event(event));
  fail = () => stream.end();
  token.onRevoked(() => stream.end(frames.stream.revoked));
}
