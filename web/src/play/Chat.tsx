// A game's chat (docs/chat.md): the seats talk (and, in a game whose chat is `everyone`, spectators
// with an account too). Messages arrive live while the game's stream is open (its `chat` events,
// passed in by the page; a seat's page keeps it open after the game, and the chat goes on) and are
// read again every few seconds without it (a spectator's page of a finished game in mode
// `everyone`). A seat may mute the other: its messages are then hidden here.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, auth, type Game, type Schemas } from '../api/client';
import { SOCIAL_POLL_MS, socialProblem, usePoll } from './social';

export type ChatMessage = Schemas['ChatMessage'];

/** The longest message the server takes (characters, after trimming). */
export const CHAT_MAX_LENGTH = 280;

/** Adds messages not seen yet, in order, keeping the newest `keep`. */
function merge(old: readonly ChatMessage[], added: readonly ChatMessage[], keep = 200): ChatMessage[] {
  const seen = new Set(old.map((m) => m.id));
  const next = [...old, ...added.filter((m) => !seen.has(m.id))];
  return next.slice(-keep);
}

export function Chat(props: {
  game: Game;
  /** The seat this page acts for; undefined for a spectator. */
  me: { seat: number; token: string } | undefined;
  /** A spectator's account token, if signed in (may write when the game's chat is `everyone`). */
  viewerToken: string | undefined;
  /** True while the game's stream is open and brings `chat` events to `subscribe`. */
  live: boolean;
  subscribe: (listener: (message: ChatMessage) => void) => () => void;
}) {
  const { game, me, viewerToken, live, subscribe } = props;
  const mode = game.settings.chat;
  const token = me?.token ?? viewerToken;
  const readable = mode === 'everyone' || (mode === 'seats' && me !== undefined);
  const writable = readable && (me !== undefined || (mode === 'everyone' && viewerToken !== undefined));
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const [muted, setMuted] = useState(false);
  const last = useRef<string | undefined>(undefined);
  last.current = messages[messages.length - 1]?.id;

  /** What came after the last message shown; `all`: the whole chat again (after a mute changed). */
  const load = async (all = false) => {
    const after = all ? undefined : last.current;
    const { data, error } = await api.GET('/api/v1/games/{id}/chat', {
      params: { path: { id: game.id }, query: after ? { after } : {} },
      headers: auth(token),
    });
    if (data) {
      setMessages((old) => (all ? data.items : merge(old, data.items)));
      setMuted(data.muted);
    } else if (error) setProblem(socialProblem(error));
  };
  useEffect(() => subscribe((message) => setMessages((old) => merge(old, [message]))), [subscribe]);
  // Everything so far, and again whenever the stream (re)opens (what came while it was closed);
  // then the stream, or without one a poll.
  useEffect(() => {
    if (readable) void load();
  }, [readable, game.id, live]);
  usePoll(() => load(), SOCIAL_POLL_MS, readable && !live);

  if (!readable) return null;
  const send = async (event: Event) => {
    event.preventDefault();
    const trimmed = text.trim();
    if (!trimmed || !token) return;
    setBusy(true);
    setProblem('');
    try {
      const { data, error } = await api.POST('/api/v1/games/{id}/chat', {
        params: { path: { id: game.id } },
        body: { text: trimmed },
        headers: auth(token),
      });
      if (!data) return setProblem(socialProblem(error));
      setMessages((old) => merge(old, [data]));
      setText('');
    } catch (e) {
      setProblem(String(e));
    } finally {
      setBusy(false);
    }
  };
  const toggleMute = async () => {
    if (!me) return;
    const params = { params: { path: { id: game.id } }, headers: auth(me.token) };
    const { response, error } = muted
      ? await api.DELETE('/api/v1/games/{id}/chat/mute', params)
      : await api.PUT('/api/v1/games/{id}/chat/mute', params);
    if (!response.ok) return setProblem(socialProblem(error));
    // Muting hides the others' messages from the muter (unmuting shows them): read the chat again,
    // with the mute as the server now has it.
    await load(true);
  };

  return (
    <section class="chat" aria-labelledby="chat-heading">
      <h2 id="chat-heading">Chat</h2>
      {messages.length === 0 ? <p class="hint">No messages yet.</p> : null}
      <ol class="chat-messages" aria-live="polite" aria-relevant="additions" aria-label="Chat messages">
        {messages.map((m) => (
          <li key={m.id} data-seat={m.seat === null ? 'spectator' : String(m.seat)}>
            <strong>{m.seat !== null && m.seat === me?.seat ? 'You' : m.name}</strong>:{' '}
            <span class="chat-text">{m.text}</span>
          </li>
        ))}
      </ol>
      {writable ? (
        <form class="chat-form row" onSubmit={(e) => void send(e)}>
          <label for="chat-text" class="visually-hidden">
            Your message
          </label>
          <input
            id="chat-text"
            type="text"
            autoComplete="off"
            maxLength={CHAT_MAX_LENGTH}
            value={text}
            placeholder="Say something"
            onInput={(e) => setText((e.currentTarget as HTMLInputElement).value)}
          />
          <button type="submit" disabled={busy || !text.trim()}>
            Send
          </button>
        </form>
      ) : (
        <p class="hint">Sign in with an account to write here.</p>
      )}
      {me ? (
        <button type="button" class="secondary" aria-pressed={muted} onClick={() => void toggleMute()}>
          {`Mute ${game.seats[1 - me.seat]?.name ?? 'the opponent'}`}
        </button>
      ) : null}
      {problem ? (
        <p role="alert" class="error">
          {problem}
        </p>
      ) : null}
    </section>
  );
}
