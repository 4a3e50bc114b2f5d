import type { GameWriter, WriteAnswer, WriteOptions } from './writer';

/**
 * The in-game actions other than moves, by name, for callers that want them so (the transports map
 * commands to the writer directly): each is one command of game/commands.ts, decided in
 * game/decide.ts and applied by the writer with the same If-Match and Idempotency-Key semantics as
 * a move. Each answers the new head (its `move` is null) with the whole game on demand.
 */
export class GameActions {
  constructor(private readonly writer: GameWriter) {}

  resign(id: string, write: WriteOptions): Promise<WriteAnswer> {
    return this.writer.apply(id, { type: 'resign' }, write);
  }

  abort(id: string, write: WriteOptions): Promise<WriteAnswer> {
    return this.writer.apply(id, { type: 'abort' }, write);
  }

  offerDraw(id: string, write: WriteOptions): Promise<WriteAnswer> {
    return this.writer.apply(id, { type: 'draw.offer' }, write);
  }

  acceptDraw(id: string, write: WriteOptions): Promise<WriteAnswer> {
    return this.writer.apply(id, { type: 'draw.accept' }, write);
  }

  declineDraw(id: string, write: WriteOptions): Promise<WriteAnswer> {
    return this.writer.apply(id, { type: 'draw.decline' }, write);
  }

  claimDraw(id: string, write: WriteOptions): Promise<WriteAnswer> {
    return this.writer.apply(id, { type: 'claim.draw' }, write);
  }

  claimVictory(id: string, write: WriteOptions): Promise<WriteAnswer> {
    return this.writer.apply(id, { type: 'claim.victory' }, write);
  }
}
