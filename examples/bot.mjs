#!/usr/bin/env node
// A complete Boardhost bot in one file (Node 20, no dependencies). It reads only its account's
// event feed (NDJSON) and answers with REST calls: accepts every challenge, plays a random legal
// move whenever a game event says it is its turn, and resumes after a disconnect without missing
// or repeating an event.
//
//   node examples/bot.mjs signup <server> <username>            # prints the bot's API token
//   node examples/bot.mjs play <server> <token> [--challenge <username> --kind <kind>] [--games N]
//
// --games N: exit after N games have finished (default: run forever).

const [command, server, arg, ...rest] = process.argv.slice(2);
const flags = Object.fromEntries(
  rest.flatMap((v, i, all) => (v.startsWith('--') ? [[v.slice(2), all[i + 1]]] : [])),
);

async function api(path, token, init = {}) {
  const res = await fetch(`${server}/api/v1${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...init.headers },
  });
  const body = res.status === 204 ? null : await res.json();
  if (!res.ok) throw Object.assign(new Error(`${body.code}: ${body.detail}`), { problem: body });
  return body;
}

async function signup() {
  const res = await fetch(`${server}/api/v1/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: arg, kind: 'bot' }),
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`${body.code}: ${body.detail}`);
  console.log(body.token.token);
}

async function play() {
  const token = arg;
  const me = (await api('/account', token)).id;
  const wanted = flags.games === undefined ? Infinity : Number(flags.games);
  let finished = 0;
  let after; // the last seq handled: the resume point after a disconnect

  async function onEvent(event) {
    const { type, data } = event;
    if (type === 'challenge.received') {
      await api(`/challenges/${data.challenge.id}/accept`, token, { method: 'POST' }).catch((error) => {
        if (error.problem?.code !== 'CHALLENGE_CLOSED') throw error; // canceled or expired meanwhile
      });
    } else if (type === 'game.started' || type === 'game.moved') {
      const game = data.game;
      if (game.status !== 'ongoing' || game.seats[game.toMove].account !== me) return;
      const move = game.legalMoves[Math.floor(Math.random() * game.legalMoves.length)];
      try {
        await api(`/games/${game.id}/moves`, token, {
          method: 'POST',
          // If-Match: never play on a position we have not seen. Idempotency-Key: a retry plays once.
          headers: { 'if-match': `"${game.version}"`, 'idempotency-key': `${game.id}-${game.version}` },
          body: JSON.stringify({ move }),
        });
      } catch (error) {
        // A newer event is already on its way (the game moved on, or ended); it decides. The key was
        // used for another move: this version was already played (seen twice, listed and in the feed).
        const settled = ['VERSION_CONFLICT', 'GAME_OVER', 'IDEMPOTENCY_KEY_REUSED'];
        if (!settled.includes(error.problem?.code)) throw error;
      }
    } else if (type === 'game.finished') {
      const r = data.result;
      console.log(`${data.game.kind} ${data.game.id}: ${r.winnerName ?? 'draw'} (${r.reason})`);
      finished++;
    }
  }

  async function follow() {
    const query = after === undefined ? '' : `?after=${after}`;
    const res = await fetch(`${server}/api/v1/account/events${query}`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/x-ndjson' },
    });
    if (!res.ok) throw new Error(`feed: ${(await res.json()).code}`);
    const decoder = new TextDecoder();
    let buffer = '';
    let challenged = false;
    for await (const chunk of res.body) {
      buffer += decoder.decode(chunk, { stream: true });
      let newline;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (line === '') continue; // keep-alive
        const event = JSON.parse(line);
        if (event.type === 'ready') {
          if (after === undefined) {
            after = event.last;
            // First start: answer what came before the feed was open (challenges, games on our turn).
            for (const challenge of (await api('/challenges', token)).items ?? []) {
              if (challenge.destination === me)
                await onEvent({ type: 'challenge.received', data: { challenge } });
            }
            for (const game of (await api(`/games?account=${me}&status=ongoing&limit=100`, token)).items) {
              await onEvent({ type: 'game.moved', data: { game } });
            }
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
        await onEvent(event);
        after = event.seq;
        if (finished >= wanted) return true;
      }
    }
    return false; // the server closed the stream (e.g. it is restarting): resume
  }

  while (!(await follow())) {
    await new Promise((r) => setTimeout(r, 1000));
    flags.challenge = undefined; // resuming: the challenge was already sent
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
