// Playing the computer (the built-in AI, levels 1–8; docs/bots.md): without an account a game with
// one seat link (POST /games/ai, the AI in the other seat), with the browser's account a game of the
// account against the AI account of that level (POST /challenges/ai). Either way the page goes
// straight to the game, as the player's seat. The home page's short form is here; the new-game page
// offers the same with every option.
import { useState } from 'preact/hooks';
import { api, auth, type Schemas } from '../api/client';
import { accountToken } from '../account/storage';
import { accountSeatLink, seatLink } from '../links';
import { aiLevel } from '../play/Players';
import { ProblemMessage } from '../play/ProblemMessage';
import { describeProblem, type ShownProblem } from '../play/problems';
import { navigate } from '../router';
import type { KindInfo } from './kinds';

export const AI_LEVELS = [1, 2, 3, 4, 5, 6, 7, 8] as const;

export interface AiStart {
  readonly kind: string;
  readonly level: number;
  /** The player's seat: a seat name of the kind or "random". */
  readonly color: string;
  readonly options?: Record<string, unknown>;
  readonly position?: string;
  readonly timeControl?: Schemas['TimeControlInput'];
}

/** Starts a game against the computer; the link to play it, or the problem. */
export async function startAiGame(start: AiStart): Promise<{ link: string } | { problem: ShownProblem }> {
  const token = accountToken();
  const { color, ...common } = start;
  try {
    if (token) {
      const { data, error } = await api.POST('/api/v1/challenges/ai', {
        headers: auth(token),
        body: { ...common, color },
      });
      if (!data) return { problem: describeProblem(error) };
      // The account's seat is the one the AI does not hold.
      const mine = data.seats.find((s) => aiLevel(s.account) === undefined) ?? data.seats[0];
      return { link: accountSeatLink(data.id, mine?.seat ?? 0) };
    }
    const { data, error } = await api.POST('/api/v1/games/ai', { body: { ...common, seat: color } });
    if (!data) return { problem: describeProblem(error) };
    const [mine] = data.seatTokens;
    if (!mine) return { problem: { sentence: 'The server answered no seat for you.' } };
    return { link: seatLink(data.game.id, mine.seat, mine.token) };
  } catch (e) {
    return { problem: describeProblem(e) };
  }
}

/** The level and side fields (ids prefixed, so that two forms may share a page). */
export function AiFields(props: {
  readonly prefix: string;
  readonly seatNames: readonly string[];
  readonly level: number;
  readonly color: string;
  readonly onLevel: (level: number) => void;
  readonly onColor: (color: string) => void;
}) {
  const { prefix, seatNames, level, color, onLevel, onColor } = props;
  return (
    <>
      <div class="field">
        <label for={`${prefix}-level`}>Computer level</label>
        <select
          id={`${prefix}-level`}
          value={String(level)}
          aria-describedby={`${prefix}-level-hint`}
          onChange={(e) => onLevel(Number((e.currentTarget as HTMLSelectElement).value))}
        >
          {AI_LEVELS.map((n) => (
            <option key={n} value={String(n)}>
              {n === 1 ? '1 (easiest)' : n === 8 ? '8 (strongest)' : String(n)}
            </option>
          ))}
        </select>
        <small id={`${prefix}-level-hint`}>Level 1 plays almost at random, level 8 as well as it can.</small>
      </div>
      <div class="field">
        <label for={`${prefix}-color`}>You play</label>
        <select
          id={`${prefix}-color`}
          value={color}
          onChange={(e) => onColor((e.currentTarget as HTMLSelectElement).value)}
        >
          <option value="random">either side (random)</option>
          {seatNames.map((name, i) => (
            <option key={name} value={name}>
              {i === 0 ? `${name} (moves first)` : name}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}

/** The home page's form: a game, a level, a side, and off to the board. */
export function PlayComputerForm({ kinds }: { readonly kinds: readonly KindInfo[] }) {
  const [kind, setKind] = useState<string>(kinds[0]?.kind ?? 'kalah');
  const [level, setLevel] = useState(1);
  const [color, setColor] = useState('random');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ShownProblem>();
  const info = kinds.find((k) => k.kind === kind);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    const started = await startAiGame({ kind, level, color });
    setBusy(false);
    if ('link' in started) navigate(started.link);
    else setProblem(started.problem);
  };
  return (
    <section aria-labelledby="computer-heading" class="computer">
      <h2 id="computer-heading">Play the computer</h2>
      <form class="new-game computer-form" onSubmit={(e) => void submit(e)}>
        <div class="field">
          <label for="computer-kind">Game</label>
          <select
            id="computer-kind"
            value={kind}
            onChange={(e) => {
              setKind((e.currentTarget as HTMLSelectElement).value);
              setColor('random');
            }}
          >
            {kinds.map((k) => (
              <option key={k.kind} value={k.kind}>
                {k.name}
              </option>
            ))}
          </select>
        </div>
        <AiFields
          prefix="computer"
          seatNames={info?.seatNames ?? []}
          level={level}
          color={color}
          onLevel={setLevel}
          onColor={setColor}
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Starting…' : 'Play the computer'}
        </button>
        {problem ? <ProblemMessage problem={problem} /> : null}
      </form>
    </section>
  );
}
