import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Credential } from '../../service/accounts/auth';
import { GameError } from '../../service/errors';
import type { FeedCursor, FeedService } from '../../service/delivery/feed';
import type { GameUpdate } from '../../service/game/watch';
import type { GameService } from '../../service/game/service';
import type { ChatMessageView, ChatService } from '../../service/game/chat';
import type { StreamSlots } from '../../service/delivery/stream-slots';
import type { TokenStreams } from '../../service/accounts/token-streams';
import type { FeedEvent } from '../../service/types';
import { Heartbeats } from '../heartbeats';
import { settleLongResponse } from './long-response';
import { problemBody } from './problem';
import { SharedChunk, writeShared } from './shared-chunk';

export const SSE_MEDIA = 'text/event-stream';
export const NDJSON_MEDIA = 'application/x-ndjson';
export const JSON_MEDIA = 'application/json';

/** Keep-alive interval: below common proxy idle timeouts (30–60 s). */
const KEEPALIVE_MS = 15_000;
/** Every stream's keep-alive, from one timer. */
const keepAlives = new Heartbeats(KEEPALIVE_MS);

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
  /** The last chunk when that API token reaches its expiresAt (no reconnecting with it). */
  readonly expired: string;
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
  expired: 'event: expired\ndata: {}\n\n',
  error: (error) => `event: error\ndata: ${JSON.stringify(problemBody(error))}\n\n`,
};

/** Newline-delimited JSON: one document per line, empty lines as keep-alives. */
export const NDJSON: StreamFormat = {
  contentType: 'application/x-ndjson; charset=utf-8',
  preamble: '',
  keepAlive: '\n',
  shutdown: '{"type":"shutdown"}\n',
  revoked: '{"type":"revoked"}\n',
  expired: '{"type":"expired"}\n',
  error: (error) => `${JSON.stringify({ type: 'error', problem: problemBody(error) })}\n`,
};

/** The unsent-output bound of each response that holds a stream slot (see holdStreamSlot). */
const BUFFER_BOUNDS = new WeakMap<Response, number>();

/**
 * Takes a stream slot for the request's client (its address, and the account or seat token of its
 * bearer token, if any) for as long as the response lasts: released when it closes, however it
 * ends. Over a cap: TOO_MANY_STREAMS (429, Retry-After) before any byte is written. A stream then
 * opened on `res` is cut (the connection closed) once its unsent output passes the slots'
 * maxBufferBytes: a reader that stopped reading holds no more than that; it may reconnect and resume.
 */
export async function holdStreamSlot(slots: StreamSlots, req: Request, res: Response): Promise<void> {
  // The bearer as the rate limiter counts it; a malformed header is the route's own business.
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  const slot = await slots.take(req.ip, bearer);
  BUFFER_BOUNDS.set(res, slots.limits.maxBufferBytes);
  if (res.closed) return slot.release();
  // on, not once: 'close' comes once, and once's wrapper is one more closure per idle stream.
  res.on('close', () => slot.release());
}

/** A streamed response in progress. */
export interface OpenStream {
  /** A chunk of this stream's own, or one shared by many streams (see SharedChunk). */
  write(chunk: string | SharedChunk): void;
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
  // Headers go out now, not with the first message (a stream that waits for events, e.g. the games
  // of chosen accounts, would otherwise look stalled until its first keep-alive).
  if (format.preamble) res.write(format.preamble);
  else res.flushHeaders();
  // Hours of idling ahead: what the response and its connection hold is trimmed.
  settleLongResponse(res);
  let closed = false;
  const bound = BUFFER_BOUNDS.get(res) ?? Infinity;
  /** Writes, and cuts the connection of a reader whose unsent output passed the bound. */
  const write = (chunk: string | SharedChunk) => {
    if (typeof chunk === 'string') res.write(chunk);
    else writeShared(res, chunk);
    if (res.writableLength > bound) {
      res.destroy();
      close();
    }
  };
  const stopKeepAlive = keepAlives.add(() => write(format.keepAlive));
  const close = () => {
    if (closed) return;
    closed = true;
    stopKeepAlive();
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
      if (!closed) write(chunk);
    },
    end: (last) => {
      if (!closed) res.end(last);
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

/** The stream format a streaming route of SSE (its default) and NDJSON answers in (see negotiate). */
export function streamFormatOf(req: Request, res: Response): StreamFormatName {
  return negotiate(req, res, [SSE_MEDIA, NDJSON_MEDIA]) === SSE_MEDIA ? 'sse' : 'ndjson';
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
  {
    stream: StreamFormat;
    /** The whole game (the first message, and every one with ?full=1). */
    game: (update: GameUpdate) => SharedChunk;
    /** A later version: its head and the move that made it. */
    update: (update: GameUpdate) => SharedChunk;
    /** A chat message (no SSE id: Last-Event-ID stays the game's version). */
    chat: (message: ChatMessageView) => string;
    end: SharedChunk;
  }
> = {
  sse: {
    stream: SSE,
    game: (update) =>
      new SharedChunk(`id: ${update.version}\nevent: game\ndata: ${JSON.stringify(update.view)}\n\n`),
    update: (update) =>
      new SharedChunk(
        `id: ${update.version}\nevent: update\ndata: ${JSON.stringify({ game: update.head, move: update.move })}\n\n`,
      ),
    chat: (message) => `event: chat\ndata: ${JSON.stringify(message)}\n\n`,
    end: new SharedChunk('event: end\ndata: {}\n\n'),
  },
  ndjson: {
    stream: NDJSON,
    game: (update) => new SharedChunk(`${JSON.stringify({ type: 'game', game: update.view })}\n`),
    update: (update) =>
      new SharedChunk(`${JSON.stringify({ type: 'update', game: update.head, move: update.move })}\n`),
    chat: (message) => `${JSON.stringify({ type: 'chat', message })}\n`,
    end: new SharedChunk('{"type":"end"}\n'),
  },
};

/**
 * One game as a stream: now, then every version after `after` (undefined: all), then `end`. The
 * first message is the whole game; each later one is the version's head and the move that made it
 * (O(1) in the length of the game), or with `full` (and after a takeback) the whole game again. Each
 * message is encoded once per node, format and form (see GameUpdate), to bytes shared by every
 * watcher's stream (SharedChunk). When versions were lost on the way to this node,
 * it ends with an error frame (UPDATES_LOST): the client reconnects and gets the game as it is now.
 * With `chat`, the game's chat messages from now on come between them (`chat`) when the viewer may
 * read the chat (otherwise the stream carries the game alone).
 */
export async function streamGame(
  service: GameService,
  id: string,
  options: { readonly after: number | undefined; readonly full: boolean },
  res: Response,
  open: OpenStreams,
  format: StreamFormatName,
  viewer: Credential,
  chat?: ChatService,
): Promise<void> {
  const frames = GAME_FRAMES[format];
  const { after, full } = options;
  // Until the headers are out, chunks wait here, and a failure is remembered.
  const pending: Array<string | SharedChunk> = [];
  let failure: GameError | undefined;
  let send: (chunk: string | SharedChunk) => void = (chunk) => pending.push(chunk);
  let fail: (error: GameError) => void = (error) => (failure = error);
  let first = true;
  // watch() fails with GAME_NOT_FOUND / INVALID_INPUT before any byte is written.
  const unsubscribe = await service.watch(
    id,
    (update) => {
      if (after !== undefined && update.version <= after) return;
      // A takeback shortened the move list: the whole game, so that the client's list shrinks too.
      const whole = full || first || update.takenBack;
      first = false;
      send(
        whole
          ? update.encoded(`${format}:game`, frames.game)
          : update.encoded(`${format}:update`, frames.update),
      );
      if (update.head.status === 'finished') send(frames.end);
    },
    (error) => fail(error),
    viewer,
  );
  let stopChat: () => Promise<void> = async () => undefined;
  try {
    if (chat)
      stopChat = await chat.follow(id, viewer, (message) => send(frames.chat(message)), { lenient: true });
  } catch (error) {
    await unsubscribe();
    throw error;
  }
  const stream = openStream(res, open, frames.stream, () => {
    void unsubscribe();
    void stopChat();
  });
  for (const chunk of pending) stream.write(chunk);
  // Emptied, so that the array's room is not held for as long as the stream idles.
  pending.length = 0;
  if (failure) return stream.end(frames.stream.error(failure));
  send = (chunk) => stream.write(chunk);
  fail = (error) => stream.end(frames.stream.error(error));
}

/** The `epoch_changed` message that ends a stream whose feed began a new epoch. */
interface EpochChanged {
  readonly epoch: string;
  readonly after: number;
  readonly last: number;
  readonly message: string;
}

/** How feed events, the opening `ready` line and a closing `epoch_changed` look in each format. */
const FEED_FRAMES: Record<
  StreamFormatName,
  {
    stream: StreamFormat;
    ready: (last: number, epoch: string) => string;
    event: (event: FeedEvent) => string;
    epochChanged: (facts: EpochChanged) => string;
  }
> = {
  sse: {
    stream: SSE,
    // The ready event carries the starting point as its id, so that a reconnect before any event
    // (Last-Event-ID) resumes from there instead of from "now". Ids are <epoch>:<seq>.
    ready: (last, epoch) =>
      `id: ${epoch}:${last}\nevent: ready\ndata: ${JSON.stringify({ last, epoch })}\n\n`,
    event: (event) =>
      `id: ${event.epoch}:${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`,
    epochChanged: (facts) => `event: epoch_changed\ndata: ${JSON.stringify(facts)}\n\n`,
  },
  ndjson: {
    stream: NDJSON,
    ready: (last, epoch) => `${JSON.stringify({ type: 'ready', last, epoch })}\n`,
    event: (event) => `${JSON.stringify(event)}\n`,
    epochChanged: (facts) => `${JSON.stringify({ type: 'epoch_changed', ...facts })}\n`,
  },
};

/**
 * An account's event feed as a stream: first `ready` with the seq the stream starts after and the
 * feed's epoch, then each event after `cursor` (default: from now on) exactly once and in order.
 * The service refuses (EVENTS_EXPIRED, FEED_EPOCH_CHANGED, UNAUTHENTICATED, MISSING_SCOPE,
 * INVALID_INPUT) before any byte is written; a store failure mid-stream ends the response, and the
 * client resumes from the last epoch and seq it saw; a new epoch mid-stream ends it with
 * `epoch_changed`.
 */
export async function streamFeed(
  feed: FeedService,
  tokens: TokenStreams,
  credential: Credential,
  cursor: FeedCursor | undefined,
  res: Response,
  open: OpenStreams,
  format: StreamFormatName,
): Promise<void> {
  const frames = FEED_FRAMES[format];
  // Registered before follow() authenticates, so that a revocation cannot slip in between.
  const token = tokens.watch(credential);
  // follow() may deliver (resumed events), or fail, before it resolves: until the headers are out,
  // events wait here and a failure is remembered.
  const pending: FeedEvent[] = [];
  let failure: { error: unknown } | undefined;
  let deliver: (event: FeedEvent) => void = (event) => pending.push(event);
  let fail: (error: unknown) => void = (error) => (failure = { error });
  let following;
  try {
    following = await feed.follow(
      credential,
      cursor,
      (event) => deliver(event),
      (error) => fail(error),
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
  const end = (error: unknown) => {
    if (error instanceof GameError && error.code === 'FEED_EPOCH_CHANGED') {
      stream.write(
        frames.epochChanged({ ...(error.details as Omit<EpochChanged, 'message'>), message: error.message }),
      );
    }
    stream.end();
  };
  stream.write(frames.ready(cursor?.after ?? following.last, following.epoch));
  for (const event of pending) stream.write(frames.event(event));
  pending.length = 0;
  if (failure) return end(failure.error);
  deliver = (event) => stream.write(frames.event(event));
  fail = end;
  token.onEnd((reason) => stream.end(frames.stream[reason]));
}
