#!/usr/bin/env node
// A complete Boardhost bot in one file (Node 20, no dependencies). It reads only its account's
// event feed (NDJSON) and answers with REST calls: accepts every challenge, plays a random legal
// move whenever an event shows it is its turn, and resumes after a disconnect without missing an
// event.
//
//   node examples/bot.mjs signup <server> <username>            # prints the bot's API token
//   node examples/bot.mjs play <server> <token> [--challenge <username> --kind <kind>] [--games N]
//
// --games N: exit after N games have finished (default: run forever).
//
// The races a bot meets, and how this one takes them (none is an error):
// - It sees one game version twice (its start-up scan and a feed event, or an event replayed
//   after a reconnect): it decides once per game version and sends that same move with the same
//   Idempotency-Key, which the server answers as it did the first time.
// - The game changed or ended before its move arrived (VERSION_CONFLICT, GAME_OVER, TIMEOUT), or a
//   previous run of the bot already played that version (IDEMPOTENCY_KEY_REUSED): it reads the game
//   again and decides on what it finds.
// - The connection drops or the server restarts: it reconnects, resuming after the last event
//   handled. Only a refusal it cannot fix (a revoked token, a bug) stops it.

const [command, server, arg, ...rest] = process.argv.slice(2);
const flags = Object.fromEntries(
  rest.flatMap((v, i, all) => (v.startsWith('--') ? [[v.slice(2), all[i + 1]]] : [])),
);
const RACES = ['VERSION_CONFLICT', 'GAME_OVER', 'TIMEOUT', 'IDEMPOTENCY_KEY_REUSED'];

/** A refusal as an Error carrying the problem+json body (`code`, `status`, details). */
const refused = (problem) => Object.assign(new Error(`${problem.code}: ${problem.detail}`), { problem });

async function api(path, token, init = {}) {
  const res = await fetch(`${server}/api/v1${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...init.headers },
  });
  const body = res.status === 204 ? null : await res.json();
  if (!res.ok) throw refused(body);
  return body;
}

async function signup() {
  const res = await fetch(`${server}/api/v1/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: arg, kind: 'bot' }),
  });
  const body = await res.json();
  if (!res.ok) throw refused(body);
  console.log(body.token.token);
}

async function play() {
  const token = arg;
  const me = (await api('/account', token)).id;
  const wanted = flags.games === undefined ? Infinity : Number(flags.games);
  let finished = 0;
  let after; // the last seq handled: the resume point after a disconnect
  let epoch; // the feed epoch of that seq
  let challenged = false;
  const decided = new Map(); // game id → { version, move }: one decision per game version

  /** Plays if it is our turn in this version of the game (or in a newer one a race reveals). */
  async function onGame(game) {
    while (game.status === 'ongoing' && game.seats[game.toMove].account === me) {
      const last = decided.get(game.id);
      if (last && last.version > game.version) return; // an old copy: a newer one was handled
      const move =
        last?.version === game.version
          ? last.move
          : game.legalMoves[Math.floor(Math.random() * game.legalMoves.length)];
      decided.set(game.id, { version: game.version, move });
      try {
        await api(`/games/${game.id}/moves`, token, {
          method: 'POST',
          // If-Match: never play on a position we have not seen. Idempotency-Key: a repeat plays once.
          headers: { 'if-match': `"${game.version}"`, 'idempotency-key': `${game.id}-${game.version}` },
          body: JSON.stringify({ move }),
        });
        return;
      } catch (error) {
        if (!RACES.includes(error.problem?.code)) throw error;
        const now = await api(`/games/${game.id}`, token); // it changed under us: look again
        if (now.version === game.version) return;
        game = now;
      }
    }
  }

  async function onEvent({ type, data }) {
    if (type === 'challenge.received') {
      await api(`/challenges/${data.challenge.id}/accept`, token, { method: 'POST' }).catch((error) => {
        if (error.problem?.code !== 'CHALLENGE_CLOSED') throw error; // canceled or expired meanwhile
      });
    } else if (type === 'game.finished') {
      decided.delete(data.game.id);
      const r = data.result;
      console.log(`${data.game.kind} ${data.game.id}: ${r.winnerName ?? 'draw'} (${r.reason})`);
      finished++;
    } else if (data.game) {
      await onGame(data.game); // game.started, game.moved, game.updated, draw offers…
    }
  }

  /** Follows the feed until the server ends it (false) or enough games have finished (true). */
  async function follow() {
    const query = after === undefined ? '' : `?after=${after}&epoch=${epoch}`;
    const res = await fetch(`${server}/api/v1/account/events${query}`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/x-ndjson' },
    });
    if (!res.ok) throw refused(await res.json());
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of res.body) {
      buffer += decoder.decode(chunk, { stream: true });
      let newline;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (line === '') continue; // keep-alive
        const event = JSON.parse(line);
        if (event.type === 'epoch_changed') {
          after = undefined; // as a 409 FEED_EPOCH_CHANGED above
          return false;
        }
        if (event.type === 'ready') {
          epoch = event.epoch;
          if (after === undefined) {
            // First start: answer what came before the feed was open (challenges, games on our
            // turn), then resume after this point on reconnects.
            for (const challenge of (await api('/challenges', token)).items ?? []) {
              if (challenge.destination === me)
                await onEvent({ type: 'challenge.received', data: { challenge } });
            }
            for (const game of (await api(`/games?account=${me}&status=ongoing&limit=100`, token)).items) {
              await onGame(game);
            }
            after = event.last;
          }
          // Challenge only once the feed is open, so the answer cannot be missed.
          if (flags.challenge && !challenged) {
            challenged = true;
            await api('/challenges', token, {
              method: 'POST',
              body: JSON.stringify({ to: flags.challenge, kind: flags.kind ?? 'kalah' }),
            });
          }
          continue;
        }
        if (event.type === 'revoked') throw new Error('feed: the token was revoked');
        if (typeof event.seq !== 'number') continue; // shutdown: the server is restarting
        await onEvent(event);
        after = event.seq;
        epoch = event.epoch;
        if (finished >= wanted) return true;
      }
    }
    return false; // the server closed the stream (e.g. it is restarting): resume
  }

  for (;;) {
    try {
      if (await follow()) return;
    } catch (error) {
      const problem = error.problem;
      // Events we saw are gone (away too long, or the store came back older): start afresh,
      // re-reading challenges and games as on a first start.
      if (problem?.code === 'EVENTS_EXPIRED' || problem?.code === 'FEED_EPOCH_CHANGED') after = undefined;
      else if (problem && problem.status < 500 && problem.status !== 429) throw error;
      console.error(`${error.message}; reconnecting`); // network, restart, overload: try again
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

(command === 'signup'
  ? signup()
  : command === 'play'
    ? play()
    : Promise.reject(new Error('usage: see the top of bot.mjs'))
).catch((error) => {
  console.error(error.message);
  process.exit(1);
});
