// Each game command's public names on the three transports, in one table they all read: the REST
// route (POST /api/v1 + path) and its OpenAPI operationId, the GraphQL mutation, the MCP tool. These
// are public contracts: renaming one breaks clients (test/api/command-names.test.ts checks the table
// against the published OpenAPI document and GraphQL schema).
import type { GameCommandType } from './commands';

export interface CommandNames {
  readonly type: GameCommandType;
  readonly path: string;
  readonly operationId: string;
  readonly mutation: string;
  /** The MCP tool; null for the commands not offered to agents. */
  readonly tool: string | null;
}

/** In the order of the OpenAPI document. */
export const COMMAND_NAMES: readonly CommandNames[] = [
  {
    type: 'move',
    path: '/games/{id}/moves',
    operationId: 'submitMove',
    mutation: 'submitMove',
    tool: 'play_move',
  },
  {
    type: 'resign',
    path: '/games/{id}/resign',
    operationId: 'resignGame',
    mutation: 'resign',
    tool: 'resign',
  },
  {
    type: 'draw.offer',
    path: '/games/{id}/draw/offer',
    operationId: 'offerDraw',
    mutation: 'offerDraw',
    tool: 'offer_draw',
  },
  {
    type: 'draw.accept',
    path: '/games/{id}/draw/accept',
    operationId: 'acceptDraw',
    mutation: 'acceptDraw',
    tool: 'accept_draw',
  },
  {
    type: 'draw.decline',
    path: '/games/{id}/draw/decline',
    operationId: 'declineDraw',
    mutation: 'declineDraw',
    tool: 'decline_draw',
  },
  {
    type: 'claim.draw',
    path: '/games/{id}/draw/claim',
    operationId: 'claimDraw',
    mutation: 'claimDraw',
    tool: null,
  },
  {
    type: 'claim.victory',
    path: '/games/{id}/victory/claim',
    operationId: 'claimVictory',
    mutation: 'claimVictory',
    tool: null,
  },
  { type: 'abort', path: '/games/{id}/abort', operationId: 'abortGame', mutation: 'abortGame', tool: null },
  {
    type: 'takeback.offer',
    path: '/games/{id}/takeback/offer',
    operationId: 'offerTakeback',
    mutation: 'offerTakeback',
    tool: 'offer_takeback',
  },
  {
    type: 'takeback.accept',
    path: '/games/{id}/takeback/accept',
    operationId: 'acceptTakeback',
    mutation: 'acceptTakeback',
    tool: 'accept_takeback',
  },
  {
    type: 'takeback.decline',
    path: '/games/{id}/takeback/decline',
    operationId: 'declineTakeback',
    mutation: 'declineTakeback',
    tool: 'decline_takeback',
  },
];

/** The names of one command. */
export function namesOf(type: GameCommandType): CommandNames {
  return COMMAND_NAMES.find((n) => n.type === type) as CommandNames;
}
