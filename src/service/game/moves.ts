import type { AnyEngine } from '../../engines/engine';
import type { GameKind } from '../../engines/types';
import type { GameHead, Storage, StoredGame } from '../../store/store';
import { GameError } from '../errors';
import { checkMovePage, toMoveView, type MoveView } from './view';
import { lacksDetails } from './rules';

/** How many games' kinds a node remembers (to view pages of moves, which carry no kind). */
const KNOWN_KINDS = 100_000;

/** Pages of a game's moves for GameService, read a page at a time from the store. */
export class GameMoves {
  /** The kinds of games this node has read (a game's kind never changes); oldest evicted. */
  private readonly kinds = new Map<string, GameKind>();

  constructor(
    private readonly storage: Storage,
    /** Reads a game, every move with its details; GAME_NOT_FOUND for an unknown id (GameService.load). */
    private readonly load: (id: string) => Promise<StoredGame>,
    private readonly engineFor: (kind: string) => AnyEngine,
  ) {}

  /** Notes the kind of a game this node read. */
  remember(game: GameHead): void {
    this.kinds.delete(game.id);
    this.kinds.set(game.id, game.kind);
    if (this.kinds.size > KNOWN_KINDS) this.kinds.delete(this.kinds.keys().next().value as string);
  }

  /**
   * A page of a game's moves, oldest first: those after ply `after` (default 0), at most `limit`
   * (1–500, default 100). `next` is the `after` of the next page; null on the last one. O(limit),
   * whatever the length of the game (but a game whose stored moves lost their details is replayed).
   * The id is checked by the caller.
   */
  async page(
    id: string,
    input: { readonly after?: number; readonly limit?: number },
  ): Promise<{ items: MoveView[]; next: number | null }> {
    checkMovePage(input.after, input.limit);
    const after = input.after ?? 0;
    const limit = input.limit ?? 100;
    const page = await this.storage.games.moves(id, after, limit);
    if (!page) throw new GameError('GAME_NOT_FOUND', `No game with id ${id}`);
    // A page has no head: the kind (for seat names) is one this node has seen, or read once.
    const kind = this.kinds.get(id) ?? (await this.load(id)).kind;
    const engine = this.engineFor(kind);
    if (!lacksDetails(engine, page.items)) {
      return { items: page.items.map((m) => toMoveView(engine, m)), next: page.next };
    }
    // A store compacted the moves of this finished game: the details come back by replaying it.
    const game = await this.load(id);
    const items = game.moves.slice(after, after + limit).map((m) => toMoveView(engine, m));
    const end = after + items.length;
    return { items, next: end < game.moves.length ? end : null };
  }
}
