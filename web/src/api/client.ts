// The playground talks to Boardhost only through the public API, with a client typed from the
// committed OpenAPI document (the SDK's generated types, written by `npm run openapi`): a contract change that
// breaks a page breaks `npm run typecheck`.
import createClient from 'openapi-fetch';
import { describeProblem } from '../play/problems';
import type { components, paths } from '../../../packages/client/src/generated/openapi';

export type Schemas = components['schemas'];
export type Game = Schemas['Game'];
export type GameHead = Schemas['GameHead'];
export type Move = Schemas['Move'];
export type Board = Schemas['Board'];
export type GridBoard = Extract<Board, { type: 'grid' }>;
export type MancalaBoard = Extract<Board, { type: 'mancala' }>;
export type Kind = Game['kind'];
export type Problem = Schemas['Problem'];
export type GameStreamUpdate = Schemas['GameStreamUpdate'];
export type MancalaMoveDetails = Schemas['MancalaMoveDetails'];
export type DraughtsMoveDetails = Schemas['DraughtsMoveDetails'];
export type CongoMoveDetails = Schemas['CongoMoveDetails'];

/** Same-origin client; pass a bearer (seat token or personal API token) per call via `auth`. */
export const api = createClient<paths>({ baseUrl: window.location.origin });

/** Headers that act as a seat or an account. */
export function auth(token: string | undefined): Record<string, string> {
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** A problem document (or any failure) as a sentence for a person (play/problems.ts). */
export function problemText(error: unknown): string {
  return describeProblem(error).sentence;
}
