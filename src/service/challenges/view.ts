// A challenge as clients see it (REST, GraphQL, MCP, feed events, exports).
import type { StoredChallenge } from '../../store/store';
import type { GameVisibility } from '../../vocabulary';
import { settingsView, type GameSettingsView } from '../game/settings';

export type ChallengeView = Omit<
  StoredChallenge,
  'players' | 'initialPosition' | 'rated' | 'visibility' | 'settings'
> & {
  /** The game it makes is rated. */
  readonly rated: boolean;
  /** Who may read the game it makes. */
  readonly visibility: GameVisibility;
  readonly players: readonly string[] | null;
  /** A challenge to a game from a position: that position; null for the standard start. */
  readonly initialPosition: string | null;
  /** What the game it makes allows. */
  readonly settings: GameSettingsView;
};

export function challengeView(c: StoredChallenge): ChallengeView {
  return {
    ...c,
    players: c.players ? [...c.players] : null,
    initialPosition: c.initialPosition ?? null,
    rated: c.rated === true,
    visibility: c.visibility ?? 'public',
    settings: settingsView(c),
  };
}
