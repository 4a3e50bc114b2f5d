// A game's settings: what it allows, chosen at creation by every path that makes a game (POST /games,
// challenges, seeks, games against the AI; rematches copy them). Stored only where they differ from
// the defaults (StoredGameSettings); the view shows them all.
import type { StoredGame, StoredGameSettings } from '../../store/store';
import { CHAT_MODES, type ChatMode } from '../../vocabulary';
import { GameError } from '../errors';
import { takebackAllowed } from './takeback';

/** The settings input of a create, as every transport takes it (absent or null: the default). */
export interface GameSettingsInput {
  /** Seats may take moves back (default true; rated games never allow it). */
  readonly takeback?: boolean | null;
  /** Who may chat (CHAT_MODES; default seats). */
  readonly chat?: string | null;
}

/** What a game allows, as clients see it. */
export interface GameSettingsView {
  readonly takeback: boolean;
  readonly chat: ChatMode;
}

/**
 * The stored settings of a new game from its input (undefined: every default), refused with
 * INVALID_INPUT (`field`) when malformed or when a rated game asks for takebacks.
 */
export function settingsOf(input: unknown, rated = false): StoredGameSettings | undefined {
  if (input === undefined || input === null) return undefined;
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw new GameError('INVALID_INPUT', 'settings must be an object: { takeback?, chat? }', {
      field: 'settings',
    });
  }
  const { takeback, chat, ...unknown } = input as Record<string, unknown>;
  const extra = Object.keys(unknown)[0];
  if (extra !== undefined) {
    throw new GameError('INVALID_INPUT', `settings has no field ${extra}; it takes takeback and chat`, {
      field: `settings.${extra}`,
    });
  }
  if (takeback !== undefined && takeback !== null && typeof takeback !== 'boolean') {
    throw new GameError('INVALID_INPUT', 'settings.takeback must be true or false', {
      field: 'settings.takeback',
    });
  }
  if (takeback === true && rated) {
    throw new GameError('INVALID_INPUT', 'Rated games allow no takeback: leave settings.takeback out', {
      field: 'settings.takeback',
    });
  }
  if (chat !== undefined && chat !== null && !(CHAT_MODES as readonly unknown[]).includes(chat)) {
    throw new GameError('INVALID_INPUT', `settings.chat must be one of ${CHAT_MODES.join(', ')}`, {
      field: 'settings.chat',
    });
  }
  const settings: StoredGameSettings = {
    // A rated game allows none whatever its settings say: its flag is enough.
    ...(takeback === false && !rated ? { takeback: false as const } : {}),
    ...(chat === 'everyone' || chat === 'off' ? { chat } : {}),
  };
  return Object.keys(settings).length === 0 ? undefined : settings;
}

/** Chat modes from the most open to the strictest. */
const OPENNESS: readonly ChatMode[] = ['everyone', 'seats', 'off'];

/**
 * The settings of a game two seeks agreed on: the stricter of each (takebacks only if both allow
 * them, the stricter chat mode), as the game's visibility is the stricter of the two.
 */
export function stricterSettings(
  a: StoredGameSettings | undefined,
  b: StoredGameSettings | undefined,
): StoredGameSettings | undefined {
  const modes: ChatMode[] = [a?.chat ?? 'seats', b?.chat ?? 'seats'];
  const chat = OPENNESS[Math.max(...modes.map((mode) => OPENNESS.indexOf(mode)))] as ChatMode;
  const takeback = a?.takeback === false || b?.takeback === false;
  const settings: StoredGameSettings = {
    ...(takeback ? { takeback: false as const } : {}),
    ...(chat === 'seats' ? {} : { chat }),
  };
  return Object.keys(settings).length === 0 ? undefined : settings;
}

/** The fields a new game document records for `settings` (none for the defaults). */
export function settingsFields(settings: StoredGameSettings | undefined): { settings?: StoredGameSettings } {
  return settings === undefined ? {} : { settings };
}

/** What a game allows, every setting shown (rated games: no takeback). */
export function settingsView(game: Pick<StoredGame, 'rated' | 'settings'>): GameSettingsView {
  return { takeback: takebackAllowed(game), chat: game.settings?.chat ?? 'seats' };
}
