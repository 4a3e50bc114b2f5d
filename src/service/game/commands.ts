// Every write a seat can make to a game, as data: REST actions, GraphQL mutations and MCP tools each
// map one command; one `decide` (./decide.ts) holds every refusal, one writer (./writer.ts) applies
// them; the idempotency fingerprint derives from the command.
import type { Side } from '../../vocabulary';

export const GAME_COMMAND_TYPES = [
  'move',
  'resign',
  'abort',
  'draw.offer',
  'draw.accept',
  'draw.decline',
  'claim.draw',
  'claim.victory',
  'takeback.offer',
  'takeback.accept',
  'takeback.decline',
] as const;
export type GameCommandType = (typeof GAME_COMMAND_TYPES)[number];

export type GameCommand =
  { readonly type: 'move'; readonly move: string } | { readonly type: Exclude<GameCommandType, 'move'> };

/**
 * What a command is called in idempotency records. These are the strings the service wrote before
 * commands existed ('move:c2-e4', 'draw:offer', 'victory:claim'), so a retry across a deploy is
 * still recognised as the same request.
 */
const RECORDED: Readonly<Record<Exclude<GameCommandType, 'move'>, string>> = {
  resign: 'resign',
  abort: 'abort',
  'draw.offer': 'draw:offer',
  'draw.accept': 'draw:accept',
  'draw.decline': 'draw:decline',
  'claim.draw': 'draw:claim',
  'claim.victory': 'victory:claim',
  'takeback.offer': 'takeback:offer',
  'takeback.accept': 'takeback:accept',
  'takeback.decline': 'takeback:decline',
};

/** The fingerprint an idempotency key is stored with: the seat and the command. */
export function fingerprintOf(seat: Side, command: GameCommand): string {
  return `${seat}:${command.type === 'move' ? `move:${command.move}` : RECORDED[command.type]}`;
}
