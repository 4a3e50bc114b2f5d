#!/usr/bin/env node
// boardhost-bot: plays an engine program as a Boardhost bot account (see docs/bridge.md).
import { parseArgs } from 'node:util';
import { ChallengeDeclined, runBridge } from './bridge';
import { challengeTarget } from './challenge';
import type { GameKind } from '../index';

const USAGE = `usage: boardhost-bot --engine "<command>" [--server <url>] [--token <bhp_…>]
  [--kinds <kind,…>] [--time-controls <unlimited,realtime,correspondence>] [--max-games <n>]
  [--challenge <username | ai-level-N> --challenge-kinds <kind,…> [--challenge-clock <seconds>+<increment>]
   [--challenge-color <seat>]] [--games <n>] [--move-timeout <ms>]
The token may come from BOARDHOST_TOKEN, the server from BOARDHOST_URL (default http://localhost:4000).
--kinds, --time-controls and --max-games declare the account's bot policy (PUT /account/bot);
the server declines challenges outside it, and the bridge accepts every other one.
--challenge ai-level-N (N 1–8) plays the built-in AI of level N (POST /challenges/ai; --challenge-color:
your seat, default random). A declined challenge is logged with its reason; once nothing is left to
play the bridge exits with status 3.`;

const list = (value: string | undefined) => value?.split(',').filter(Boolean);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      engine: { type: 'string' },
      server: { type: 'string' },
      token: { type: 'string' },
      kinds: { type: 'string' },
      'time-controls': { type: 'string' },
      'max-games': { type: 'string' },
      challenge: { type: 'string' },
      'challenge-kinds': { type: 'string' },
      'challenge-clock': { type: 'string' },
      'challenge-color': { type: 'string' },
      games: { type: 'string' },
      'move-timeout': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  const token = values.token ?? process.env.BOARDHOST_TOKEN;
  if (values.help || !values.engine || !token) {
    console.error(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  if (values.challenge) {
    try {
      challengeTarget(values.challenge);
    } catch (error) {
      console.error((error as Error).message);
      process.exit(2);
    }
  }
  const policyGiven = values.kinds || values['time-controls'] || values['max-games'];
  // Without --kinds the policy names none, and the server takes every kind it hosts.
  const kinds = list(values.kinds) as GameKind[] | undefined;
  const [initial, increment] = (values['challenge-clock'] ?? '').split('+').map(Number);
  const clock = values['challenge-clock']
    ? { type: 'realtime' as const, initialSeconds: initial ?? 0, incrementSeconds: increment || 0 }
    : undefined;
  await runBridge({
    server: values.server ?? process.env.BOARDHOST_URL ?? 'http://localhost:4000',
    token,
    engine: values.engine,
    ...(policyGiven
      ? {
          policy: {
            ...(kinds ? { kinds } : {}),
            timeControls: (list(values['time-controls']) ?? [
              'unlimited',
              'realtime',
              'correspondence',
            ]) as never,
            options: {},
            maxGames: Number(values['max-games'] ?? 8),
          },
        }
      : {}),
    ...(values.challenge
      ? {
          challenge: {
            to: values.challenge,
            kinds: (list(values['challenge-kinds']) ?? ['kalah']) as GameKind[],
            ...(clock ? { timeControl: clock } : {}),
            ...(values['challenge-color'] ? { color: values['challenge-color'] } : {}),
          },
        }
      : {}),
    ...(values.games ? { games: Number(values.games) } : {}),
    ...(values['move-timeout'] ? { moveTimeoutMs: Number(values['move-timeout']) } : {}),
    onResult: (line) => console.log(line),
  });
}

main().catch((error: Error) => {
  console.error(error.message);
  // A declined challenge (already logged line by line): 3; anything else: 1.
  process.exit(error instanceof ChallengeDeclined ? 3 : 1);
});
