// The README documents what the code does: every error code with its HTTP status, every
// environment variable the configuration reads, every reason a game can end for, GraphQL snippets
// the schema accepts, and an SDK snippet that runs.
import 'reflect-metadata';
import { Kind, parse, validate } from 'graphql';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { OUTCOME_REASONS } from '../src/engines/types';
import { GAME_ERROR_CODES } from '../src/vocabulary';
import { loadConfig } from '../src/config';
import { buildGameSchema } from '../src/transport/graphql/server';
import { appHarness } from './support/app';

const readme = readFileSync('README.md', 'utf8');
const section = (title: string) => readme.split(/^## /m).find((s) => s.startsWith(title)) ?? '';

it.each(Object.entries(GAME_ERROR_CODES))('the Errors table lists %s with HTTP %i', (code, status) => {
  const row = section('Errors')
    .split('\n')
    .find((line) => line.startsWith('|') && line.includes(`\`${code}\``));
  expect(row).toBeDefined();
  expect(row).toContain(`| ${status} `);
});

it.each(Object.keys(loadConfig({})))('the Configuration table lists %s', (variable) => {
  expect(section('Configuration')).toContain(`\`${variable}\``);
});

it.each(OUTCOME_REASONS)('the list of end reasons names %s', (reason) => {
  const games = section('Games, notation and options');
  const list = games.slice(games.indexOf('says why it ended'), games.indexOf('**House rules**'));
  expect(list).toContain(`\`${reason}\``);
});

// Every GraphQL snippet is valid against the schema the server serves (placeholders are strings).
const graphqlSnippets = [...readme.matchAll(/```graphql\n([\s\S]*?)```/g)].map((m) => m[1] as string);
it.each(graphqlSnippets.map((snippet, i) => [i + 1, snippet]))(
  'GraphQL snippet %i of the README is valid against the schema',
  async (_i, snippet) => {
    const schema = await buildGameSchema();
    const document = parse(snippet as string);
    // Snippets list several operations side by side: validate each on its own.
    for (const definition of document.definitions) {
      const errors = validate(schema, { kind: Kind.DOCUMENT, definitions: [definition] });
      expect(errors.map((e) => e.message)).toEqual([]);
    }
  },
);

// The SDK snippet runs as pasted: saved as a file in the repository, with the server running.
it('the SDK snippet of the README plays a whole game and shows a typed refusal', async () => {
  const harness = appHarness();
  try {
    const { url, app } = await harness.start('redis');
    const snippet = /```js\n([\s\S]*?)```/.exec(section('SDK: @boardhost/client'))?.[1];
    expect(snippet).toBeDefined();
    const file = `tour-${randomBytes(4).toString('hex')}.mjs`;
    writeFileSync(file, snippet as string);
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [file], {
        env: { ...process.env, BOARDHOST_URL: url },
        timeout: 20_000,
      });
      const [result, refusal] = stdout.trim().split('\n');
      const id = /^(\S{12}): /.exec(result ?? '')?.[1] as string;
      const game = await app.service.getGame(id);
      expect(game.status).toBe('finished');
      expect(result).toBe(
        `${id}: ${game.result?.winnerName ?? 'draw'} (${game.result?.reason}), ${game.ply} plies`,
      );
      expect(refusal).toMatch(/^(VERSION_CONFLICT|GAME_OVER) \(409\)$/);
    } finally {
      rmSync(file, { force: true });
    }
  } finally {
    await harness.stopAll();
  }
});
