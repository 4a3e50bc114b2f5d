import type { GameView } from '../../service/game-view';
import type { GameService } from '../../service/games';

/**
 * The service's callback feed of a game as an async iterator for graphql-ws. The subscription is
 * made before this resolves, so a bad id fails the subscribe call itself with its GameError; the
 * feed unsubscribes when the client stops (return()), even if it never read a value.
 */
export async function watchGame(service: GameService, id: string): Promise<AsyncIterableIterator<GameView>> {
  const queue: GameView[] = [];
  let wake: (() => void) | undefined;
  let closed = false;
  const unsubscribe = await service.watch(id, (game) => {
    queue.push(game);
    wake?.();
  });
  const iterator: AsyncIterableIterator<GameView> = {
    async next() {
      while (queue.length === 0 && !closed) await new Promise<void>((resolve) => (wake = resolve));
      const value = queue.shift();
      return value && !closed ? { done: false, value } : { done: true, value: undefined };
    },
    async return() {
      if (!closed) {
        closed = true;
        wake?.();
        await unsubscribe();
      }
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
