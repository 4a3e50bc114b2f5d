import type { GameChange } from './games';

/**
 * Live updates of games, and revocations of API tokens, across every server node. Delivery is
 * best effort: when a node's connection to the bus drops, what is published until it is back is
 * lost. So each subscription takes an `onResync`, called once the connection is back (and
 * subscribed again), for the subscriber to compare what it has with the store. Its `flush`
 * resolves once everything published before the call has reached the listener (so that what the
 * store showed a moment earlier and is still on its way is not taken for lost).
 */
export interface GameEventBus {
  /**
   * Calls `listener` with every change of `gameId` from now on (the head and the move, never the
   * move list); returns the unsubscribe function. Each listener parses its own copy (the service
   * keeps one subscription per game per node).
   */
  subscribe(
    gameId: string,
    listener: (change: GameChange) => void,
    onResync?: (flush: () => Promise<void>) => void,
  ): Promise<() => Promise<void>>;
  /** Calls `listener` with the hash of each API token revoked from now on, on any node. */
  subscribeRevocations(
    listener: (tokenHash: string) => void,
    onResync?: () => void,
  ): Promise<() => Promise<void>>;
  /**
   * Tells every node's revocation listeners of `hash` when no store write publishes it itself (an
   * account banned: its marker, see TokenStreams).
   */
  announceRevocation(hash: string): Promise<void>;
  close(): Promise<void>;
}
