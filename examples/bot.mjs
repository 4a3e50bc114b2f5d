#!/usr/bin/env node
// A complete Boardhost bot on @boardhost/client: it reads only its account's event feed, accepts
// every challenge, plays a random legal move whenever an event shows it is its turn, and resumes
// after a disconnect or a server restart without missing an event (the SDK's feed does that).
//
//   node examples/bot.mjs signup <server> <username>            # prints the bot's API token
//   node examples/bot.mjs play <server> <token> [--challenge <username> --kind <kind>] [--games N]
//                                                [--tournament <id>]
//
// --games N: exit after N games have finished (default: run forever).
// --tournament <id>: join that tournament, play its games as they come, exit once it is over.
//
// Races are normal: the SDK sends each move with If-Match (the version decided on) and an
// Idempotency-Key, so a version seen twice (the start-up scan and the feed) cannot be played twice;
// a game that changed before the move arrived (VERSION_CONFLICT, GAME_OVER, TIMEOUT) is read again.
import { createBoardhost, isBoardhostError, ok } from '@boardhost/client';

const [command, baseUrl, arg, ...rest] = process.argv.slice(2);
const flags = Object.fromEntries(
  rest.flatMap((v, i, all) => (v.startsWith('--') ? [[v.slice(2), all[i + 1]]] : [])),
);

async function signup() {
  const { api } = createBoardhost({ baseUrl });
  const signedUp = await ok(api.POST('/api/v1/accounts', { body: { username: arg, kind: 'bot' } }));
  console.log(signedUp.token.token);
}

async function play() {
  const { api, consume, move } = createBoardhost({ baseUrl, token: arg });
  const me = (await ok(api.GET('/api/v1/account'))).id;
  const wanted = flags.games === undefined ? Infinity : Number(flags.games);
  let finished = 0;
  let challenged = false;
  let joined = false;

  async function onGame(game) {
    while (game.status === 'ongoing' && game.seats[game.toMove].account === me) {
      const choice = game.legalMoves[Math.floor(Math.random() * game.legalMoves.length)];
      try {
        return void (await move(game, choice)); // If-Match: this version; Idempotency-Key: plays once
      } catch (error) {
        if (!isBoardhostError(error, 'VERSION_CONFLICT', 'GAME_OVER', 'TIMEOUT')) throw error;
        const now = await ok(api.GET('/api/v1/games/{id}', { params: { path: { id: game.id } } }));
        if (now.version === game.version) return;
        game = now; // it changed under us: look again
      }
    }
  }

  async function accept(challenge) {
    await ok(api.POST('/api/v1/challenges/{id}/accept', { params: { path: { id: challenge.id } } })).catch(
      (error) => {
        if (!isBoardhostError(error, 'CHALLENGE_CLOSED')) throw error; // canceled or expired meanwhile
      },
    );
  }

  const onReconnect = (error) => console.error(`${error.message}; reconnecting`);
  // The SDK reopens the feed after the last event handled, also when handling one failed on a lost
  // connection or a 5xx (then that event comes again): nothing is missed across a server restart.
  await consume(
    async (event) => {
      if (event.type === 'ready') {
        if (event.resync) {
          // What came before the feed was open: challenges waiting for us, games on our turn.
          const challenges = await ok(api.GET('/api/v1/challenges'));
          for (const c of challenges.items ?? []) if (c.destination === me) await accept(c);
          const query = { account: me, status: 'ongoing', limit: 100 };
          for (const game of (await ok(api.GET('/api/v1/games', { params: { query } }))).items)
            await onGame(game);
        }
        if (flags.tournament && !joined) {
          // Joining twice changes nothing; the server pairs each round and starts its games.
          const path = { id: flags.tournament };
          await ok(api.POST('/api/v1/tournaments/{id}/join', { params: { path } }));
          joined = true;
        }
        if (flags.challenge && !challenged) {
          // Only once the feed is open, so that the answer cannot be missed.
          const body = { to: flags.challenge, kind: flags.kind ?? 'kalah' };
          await ok(api.POST('/api/v1/challenges', { body }));
          challenged = true;
        }
      } else if (event.type === 'challenge.received') {
        await accept(event.data.challenge);
      } else if (event.type === 'game.finished') {
        const { winnerName, reason } = event.data.result;
        console.log(`${event.data.game.kind} ${event.data.game.id}: ${winnerName ?? 'draw'} (${reason})`);
        return ++finished >= wanted;
      } else if (
        (event.type === 'tournament.finished' || event.type === 'tournament.cancelled') &&
        event.data.tournament.id === flags.tournament
      ) {
        const { name, status } = event.data.tournament;
        console.log(`tournament ${flags.tournament} (${name}): ${status}`);
        return true;
      } else if ('game' in event.data) {
        await onGame(event.data.game); // game.started, game.moved, game.updated, draw offers…
      }
    },
    { onReconnect, onRetry: onReconnect },
  );
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
