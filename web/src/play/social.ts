// What the social parts (rematch, takeback, chat, the lobby) share: the sentences for their refusals
// and a poll for what no open stream tells the page (when a page has no stream, a rematch offer or
// a chat message is read again every few seconds).
import { useEffect, useRef } from 'preact/hooks';
import { problemText } from '../api/client';

/** How often a page asks again for what its stream cannot bring (a finished game's rematch, chat). */
export const SOCIAL_POLL_MS = 2000;

/** Refusals of the social actions, as a player reads them; any other problem keeps its own text. */
const SENTENCES: Record<string, string | ((p: Record<string, unknown>) => string)> = {
  TAKEBACK_NOT_ALLOWED: (p) =>
    p.reason === 'rated'
      ? 'Rated games allow no takebacks.'
      : p.reason === 'forbidden'
        ? 'This game was created without takebacks.'
        : p.reason === 'nothing'
          ? 'You have no move to take back yet.'
          : p.reason === 'offered'
            ? 'Your takeback request is already waiting for an answer.'
            : 'A takeback is not possible now.',
  NO_TAKEBACK_OFFER: 'There is no takeback request to answer (a move or the end of the game cleared it).',
  REMATCH_NOT_ALLOWED: (p) =>
    p.reason === 'ongoing'
      ? 'A rematch can be offered once the game is over.'
      : p.reason === 'source'
        ? 'Tournament and bulk games have no rematch.'
        : p.reason === 'blocked'
          ? 'A rematch between these players is not possible.'
          : 'A rematch is not possible for this game.',
  NO_REMATCH_OFFER: 'There is no rematch offer to answer.',
  CHAT_DISABLED: (p) =>
    p.by === 'spectators'
      ? 'Spectators cannot chat in this game.'
      : p.by === 'game'
        ? 'Chat is off in this game.'
        : 'Chat is turned off here.',
  RATE_LIMITED: 'Too many messages at once: wait a few seconds.',
  SEEK_NOT_FOUND: 'That seek is gone: someone else took it, or it was withdrawn or expired.',
  RATING_OUT_OF_RANGE: 'Your rating is outside the range this seek admits.',
};

/** A problem from a social action as a sentence, with its code kept for the curious. */
export function socialProblem(error: unknown): string {
  if (error && typeof error === 'object') {
    const p = error as Record<string, unknown>;
    const sentence = typeof p.code === 'string' ? SENTENCES[p.code] : undefined;
    if (sentence) return `${typeof sentence === 'function' ? sentence(p) : sentence} (${String(p.code)})`;
  }
  return problemText(error);
}

/** Runs `tick` every `ms` while `active` (and now, when it becomes active); the latest `tick` runs. */
export function usePoll(tick: () => unknown, ms: number, active: boolean): void {
  const latest = useRef(tick);
  latest.current = tick;
  useEffect(() => {
    if (!active) return;
    void latest.current();
    const timer = setInterval(() => {
      if (document.visibilityState !== 'hidden') void latest.current();
    }, ms);
    return () => clearInterval(timer);
  }, [active, ms]);
}
