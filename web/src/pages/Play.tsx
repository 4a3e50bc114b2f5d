// The game page: /play/<id>, a seat's with #seat=<token>&side=<seat> (see links.ts), or the seat of
// the account signed in in this browser (session.ts), a spectator's otherwise. The board, live over the game's stream; moves entered by clicking among the API's legal
// moves; clocks, the move list, the result, a seat's actions and the record to download.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, auth, type Board as BoardData, type Game, type Move } from '../api/client';
import { Board, Legend } from '../board/Board';
import type { BoardMarks } from '../board/types';
import { kindName } from './kinds';
import { gameLink, seatFromHash } from '../links';
import { Actions, idempotencyKey } from '../play/Actions';
import { Clocks } from '../play/Clocks';
import { GameChat, SocialActions } from '../play/GameSocial';
import { clickPit, clickSquare, gridChoices, moveSquares, pitId } from '../play/moves';
import { Players } from '../play/Players';
import { ProblemMessage } from '../play/ProblemMessage';
import { describeProblem, type ShownProblem } from '../play/problems';
import { resultText } from '../play/state';
import { useGame } from '../play/useGame';
import { useLocation } from '../router';
import { loadAccount } from '../session';

/** The squares a move visited and the ones it emptied by capture, for marking on the board. */
function moveMarks(grid: boolean, move: Move | undefined): Pick<BoardMarks, 'last' | 'captured' | 'relays'> {
  if (!move) return {};
  const d = move.details;
  switch (d?.family) {
    case 'mancala':
      return { last: [pitId(move.seat, d.house)], captured: d.capturedFrom, relays: d.relays };
    case 'draughts':
      return { last: d.path, captured: d.captured };
    case 'congo':
      return { last: moveSquares(move.notation), captured: [...d.captured, ...d.drowned] };
    default:
      // A move without details on a grid board: its notation names the squares it visited.
      return grid ? { last: moveSquares(move.notation) } : {};
  }
}

const reducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

/** The sowing of the last move, pit by pit over the board before it (mancala). */
function useSowing(game: Game | undefined): { board: BoardData; pulse: string } | undefined {
  const [frame, setFrame] = useState<{ board: BoardData; pulse: string }>();
  const before = useRef<{ board: BoardData; ply: number }>(undefined);
  useEffect(() => {
    if (!game) return;
    const previous = before.current;
    before.current = { board: game.board, ply: game.ply };
    const move = game.moves[game.moves.length - 1];
    const details = move?.details;
    if (
      !previous ||
      !move ||
      game.ply !== previous.ply + 1 ||
      details?.family !== 'mancala' ||
      reducedMotion()
    )
      return;
    if (previous.board.type !== 'mancala' || details.trace.length === 0) return;
    // The board before, with the sown house emptied; a marker walks the trace.
    const houses = previous.board.houses.map((row, seat) =>
      row.map((seeds, i) => (seat === move.seat && i + 1 === details.house ? 0 : seeds)),
    );
    const board = { ...previous.board, houses };
    const step = Math.max(20, Math.min(70, Math.floor(700 / details.trace.length)));
    let i = 0;
    setFrame({ board, pulse: details.trace[0] ?? '' });
    const timer = setInterval(() => {
      i += 1;
      if (i >= details.trace.length) {
        clearInterval(timer);
        setFrame(undefined);
      } else {
        setFrame({ board, pulse: details.trace[i] ?? '' });
      }
    }, step);
    return () => {
      clearInterval(timer);
      setFrame(undefined);
    };
  }, [game?.version]);
  return frame;
}

export function Play({ id }: { id: string }) {
  const { hash } = useLocation();
  // The stream follows the game as this page's seat (so that it carries the chat), once known.
  const [streamToken, setStreamToken] = useState(() => seatFromHash(hash)?.token);
  const { game, error, live, accept, onChat } = useGame(id, streamToken);
  const seatAccounts = game?.seats.map((s) => s.account).join(' ');
  const me = useMemo(() => {
    const fromLink = seatFromHash(hash);
    if (fromLink || !game) return fromLink;
    const account = loadAccount();
    const seat = account ? game.seats.find((s) => s.account === account.id) : undefined;
    return account && seat ? { token: account.token, seat: seat.seat } : undefined;
    // Recomputed when the link or the seats' accounts change, not on every version.
  }, [hash, seatAccounts]);
  useEffect(() => setStreamToken(me?.token), [me?.token]);
  const [path, setPath] = useState<readonly string[]>([]);
  // Until the person flips it, a seat sees its own side at the bottom.
  const [flipChoice, setFlipChoice] = useState<boolean>();
  const flipped = flipChoice ?? me?.seat === 1;
  const setFlipped = (value: boolean) => setFlipChoice(value);
  const [message, setMessage] = useState<ShownProblem>();
  const [busy, setBusy] = useState(false);
  const sowing = useSowing(game);

  // A new version clears a half-entered move (the legal moves changed).
  useEffect(() => setPath([]), [game?.version]);

  if (error && !game) {
    return (
      <section>
        <h1>Game {id}</h1>
        <ProblemMessage problem={error} />
      </section>
    );
  }
  if (!game) return <p>Loading game {id}…</p>;

  const seatNames = game.seats.map((s) => s.name);
  const grid = game.board.type === 'grid';
  const myTurn = Boolean(me) && game.status === 'ongoing' && game.toMove === me?.seat;
  const canMove = myTurn && !busy && !sowing;
  const choices = grid ? gridChoices(game.legalMoves, path) : undefined;
  const selectable = new Set<string>();
  if (canMove && me) {
    if (grid) {
      if (path.length <= 1) for (const s of choices?.starts ?? []) selectable.add(s);
    } else {
      for (const m of game.legalMoves) selectable.add(pitId(me.seat, m.trim()));
    }
  }
  const lastMove = game.moves[game.moves.length - 1];
  const marks: BoardMarks = {
    ...(sowing ? { pulse: sowing.pulse } : moveMarks(game.board.type === 'grid', lastMove)),
    selectable,
    ...(canMove && choices ? { targets: choices.targets, path } : {}),
  };

  const play = async (move: string) => {
    if (!me) return;
    setBusy(true);
    setMessage(undefined);
    try {
      const { data, error: problem } = await api.POST('/api/v1/games/{id}/moves', {
        params: {
          path: { id: game.id },
          header: {
            'if-match': `"${game.version}"`,
            'idempotency-key': idempotencyKey(),
            prefer: 'return=minimal',
          },
        },
        body: { move },
        headers: auth(me.token),
      });
      if (data) accept(data);
      else setMessage(describeProblem(problem));
    } catch (e) {
      setMessage(describeProblem(e));
    } finally {
      setBusy(false);
      setPath([]);
    }
  };
  const activate = (square: string) => {
    if (!canMove || !me) return;
    if (!grid) {
      const move = clickPit(game.legalMoves, me.seat, square);
      if (move !== undefined) void play(move);
      return;
    }
    const outcome = clickSquare(game.legalMoves, path, square);
    if ('play' in outcome) void play(outcome.play);
    else setPath(outcome.path);
  };

  const status =
    game.status === 'finished' && game.result
      ? resultText(game.result)
      : `${game.toMoveName ?? ''} to move${myTurn ? ' (your move)' : ''}${busy ? ' — sending…' : ''}`;
  const record = game.kind === 'russian-draughts' ? 'PDN' : 'text';

  return (
    <section class="play" onKeyDown={(e) => e.key === 'Escape' && setPath([])}>
      <h1>
        {kindName(game.kind)} <span class="game-id">{game.id}</span>
      </h1>
      <Players game={game} mySeat={me?.seat} />
      <p class="role">
        {me ? `You play ${seatNames[me.seat] ?? `seat ${me.seat}`}.` : 'You are watching.'}{' '}
        {live ? <span class="live">Live</span> : null}
      </p>
      <div class="play-layout">
        <div class="board-column">
          <div class="board-wrap">
            <Board
              kind={game.kind}
              board={sowing?.board ?? game.board}
              flipped={flipped}
              marks={marks}
              seatNames={seatNames}
              {...(me ? { onActivate: activate } : {})}
            />
          </div>
          <div class="board-tools">
            <button type="button" aria-pressed={flipped} onClick={() => setFlipped(!flipped)}>
              Flip board
            </button>
            {choices?.complete && canMove ? (
              <button type="button" onClick={() => void play(choices.complete ?? '')}>
                Stop here ({choices.complete})
              </button>
            ) : null}
            {path.length > 0 ? (
              <button type="button" onClick={() => setPath([])}>
                Cancel move
              </button>
            ) : null}
          </div>
          <Legend kind={game.kind} seatNames={seatNames} />
        </div>
        <aside class="side">
          <p
            id="status"
            class={game.status}
            aria-live="polite"
            data-winner={game.result ? String(game.result.winner) : undefined}
            data-reason={game.result?.reason}
          >
            {status}
          </p>
          {game.drawOffer !== null && game.status === 'ongoing' ? (
            <p class="draw-offer">{`${seatNames[game.drawOffer] ?? ''} offers a draw.`}</p>
          ) : null}
          {message ? <ProblemMessage problem={message} /> : null}
          <Clocks game={game} />
          {me ? (
            <Actions game={game} seat={me.seat} token={me.token} onGame={accept} onError={setMessage} />
          ) : null}
          <SocialActions game={game} me={me} live={live} onGame={accept} />
          <h2>Moves</h2>
          {game.moves.length === 0 ? <p>No moves yet.</p> : null}
          <ol class="moves" aria-label="Moves">
            {game.moves.map((m) => (
              <li key={m.ply} data-ply={m.ply}>
                <span class="seat">{m.seatName}</span> {m.notation}
              </li>
            ))}
          </ol>
          <p class="links">
            <a
              href={`/api/v1/games/${encodeURIComponent(game.id)}/export`}
              download={`${game.id}.${record === 'PDN' ? 'pdn' : 'txt'}`}
            >
              Download the record ({record})
            </a>
            <br />
            Spectator link: <a href={gameLink(game.id)}>{gameLink(game.id)}</a>
          </p>
          <GameChat game={game} me={me} live={live} onChat={onChat} />
        </aside>
      </div>
    </section>
  );
}
