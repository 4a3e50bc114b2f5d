import { kindOf } from '../../engines/kinds';
import type { MoveDetails as EngineMoveDetails } from '../../engines/move-details';
import type { StoredMoveDetails } from '../../store/store';
import type { BoardFamily, GameKind } from '../../vocabulary';
import { z } from './schema';

// What a move did, as clients see it: the engines' describeMove results (src/engines/move-details.ts),
// one shape per board family, told apart by `family`. REST serves the union with a discriminator
// on `family`; GraphQL's MoveDetails union resolves its member from it; the web board switches on it.

const Squares = z.array(z.string());
const family = <F extends BoardFamily>(name: F) =>
  z.literal(name).openapi({ description: 'The board family: which of the MoveDetails shapes this is' });

export const CongoMoveDetails = z
  .object({
    family: family('congo'),
    captured: Squares.openapi({ description: 'Squares whose pieces were captured' }),
    drowned: Squares.openapi({ description: 'Squares whose pieces drowned in the river' }),
    promoted: z.boolean().openapi({ description: 'A pawn became a superpawn' }),
  })
  .strict()
  .openapi('CongoMoveDetails', { description: 'Congo: what a move took, drowned in the river, or promoted' });

export const DraughtsMoveDetails = z
  .object({
    family: family('draughts'),
    captured: Squares.openapi({ description: 'Squares of the pieces taken, in order' }),
    promoted: z.boolean().openapi({ description: 'The man became a king' }),
    path: Squares.openapi({ description: 'Every square the piece stood on, from start to end' }),
  })
  .strict()
  .openapi('DraughtsMoveDetails', {
    description: 'Draughts (russian-draughts): the path of the move, the pieces it took, promotion',
  });

export const MancalaMoveDetails = z
  .object({
    family: family('mancala'),
    legal: z.literal(true).openapi({ description: 'Always true: only legal moves are described' }),
    house: z.number().int().openapi({ description: 'The house sown, 1 first' }),
    trace: Squares.openapi({ description: 'Every pit a seed was dropped in, in order' }),
    relays: Squares.openapi({ description: 'Congkak: pits whose seeds were picked up to sow on' }),
    capturedFrom: Squares.openapi({ description: 'Pits whose seeds were captured' }),
    captured: z.number().int().openapi({ description: 'Seeds captured' }),
    extraMove: z.boolean().openapi({ description: 'The same seat moves again' }),
    gameOver: z.boolean().openapi({ description: 'The move ended the game' }),
  })
  .strict()
  .openapi('MancalaMoveDetails', {
    description: 'Mancala (kalah, oware, congkak): the sowing of a move and what it captured',
  });

export const MoveDetails = z
  .discriminatedUnion('family', [CongoMoveDetails, DraughtsMoveDetails, MancalaMoveDetails])
  .openapi('MoveDetails', {
    description:
      'What a move did, facts a client can animate: one shape per board family, told apart by `family`',
  });

export type MoveDetailsView = z.infer<typeof MoveDetails>;

/** A kind's board family (its descriptor's), for move details stored before they carried `family`. */
export function familyOf(kind: GameKind): BoardFamily {
  const descriptor = kindOf(kind);
  if (!descriptor) throw new Error(`No kind ${kind} is hosted`);
  return descriptor.family;
}

/** Stored details with their family tag: the same object when it has one (every move since the tag). */
export function taggedDetails(kind: GameKind, details: StoredMoveDetails): EngineMoveDetails {
  if ('family' in details) return details;
  return { family: familyOf(kind), ...details } as EngineMoveDetails;
}
