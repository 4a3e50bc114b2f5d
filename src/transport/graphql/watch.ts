import type { Credential } from '../../service/accounts/auth';
import type { FeedCursor, FeedService } from '../../service/delivery/feed';
import type { LiveGameView } from '../../service/game/view';
import type { GameService } from '../../service/game/service';
import type { TvService } from '../../service/game/tv';
import type { FeedEvent } from '../../service/types';

/** Starts a callback feed; resolves with the function that stops it, or throws to refuse. */
export type StartFeed<T> = (
  push: (value: T) => void,
  fail: (error: unknown) => void,
) => Promise<() => Promise<void>>;

/**
 * A service's callback feed as an async iterator for graphql-ws. The feed is started before this
 * resolves, so a refusal (a GameError from `start`) fails the subscribe call itself and reaches the
 * client with its code. Values come out in the order they were pushed; `fail` ends the iterator
 * with that error once the values already pushed have been read. The feed is stopped when the
 * client stops (return()), even if it never read a value, and when it fails.
 */
export async function callbackIterator<T>(start: StartFeed<T>): Promise<AsyncIterableIterator<T>> {
  const queue: T[] = [];
  let failure: { readonly error: unknown } | undefined;
  let closed = false;
  let wake: (() => void) | undefined;
  const signal = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  const stop = await start(
    (value) => {
      if (closed) return;
      queue.push(value);
      signal();
    },
    (error) => {
      if (closed || failure) return;
      failure = { error };
      signal();
    },
  );
  const close = async () => {
    if (closed) return;
    closed = true;
    queue.length = 0;
    signal();
    await stop();
  };
  const done = { done: true, value: undefined } as const;
  const iterator: AsyncIterableIterator<T> = {
    async next() {
      while (queue.length === 0 && !failure && !closed) {
        await new Promise<void>((resolve) => (wake = resolve));
      }
      if (closed) return done;
      if (queue.length > 0) return { done: false, value: queue.shift() as T };
      const error = (failure as { error: unknown }).error;
      await close();
      throw error;
    },
    async return() {
      await close();
      return done;
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

/**
 * One game: the game now, then every later version in order (see GameService.watch); versions
 * lost on the way to this node end the iterator with UPDATES_LOST.
 */
export function watchGame(
  service: GameService,
  id: string,
  viewer: Credential,
): Promise<AsyncIterableIterator<LiveGameView>> {
  // Every subscriber of this node gets the same object of a version: its head view (built once),
  // with the moves built only when a subscriber selects them (Game.moves, Game.lastMove).
  return callbackIterator<LiveGameView>((push, fail) =>
    service.watch(
      id,
      (update) => push(update.root),
      (error) => fail(error),
      viewer,
    ),
  );
}

/**
 * A kind's TV: the featured game now, then each of its versions; when it ends, the next featured game
 * (a different id) and its versions (see TvService.watch). UNKNOWN_GAME_KIND fails the subscribe call.
 */
export function watchTv(tv: TvService, kind: string): Promise<AsyncIterableIterator<LiveGameView>> {
  return callbackIterator<LiveGameView>(async (push) =>
    tv.watch(kind, (message) => push(message.update.root)),
  );
}

/**
 * The caller's account feed after `cursor` (undefined: from now on), missed events first and each
 * exactly once (see FeedService.follow). Refusals (UNAUTHENTICATED, MISSING_SCOPE, EVENTS_EXPIRED,
 * INVALID_INPUT) fail the subscribe call; a store failure mid-stream ends the iterator with it.
 */
export function followFeed(
  feed: FeedService,
  credential: Credential,
  cursor: FeedCursor | undefined,
): Promise<AsyncIterableIterator<FeedEvent>> {
  return callbackIterator<FeedEvent>(async (push, fail) => {
    const handle = await feed.follow(credential, cursor, push, fail);
    return () => handle.stop();
  });
}
