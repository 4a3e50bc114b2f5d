// The README and the guides in docs/ document what the code does: every error code with its HTTP
// status (docs/errors-and-limits.md), every environment variable the configuration reads
// (docs/operations.md), every reason a game can end for (docs/games.md), GraphQL snippets the schema
// accepts (every page), and an SDK snippet that runs (docs/integrating.md).
import 'reflect-metadata';
import { Kind, parse, validate } from 'graphql';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { OUTCOME_REASONS } from '../src/engines/types';
import { GAME_ERROR_CODES } from '../src/vocabulary';
import { loadConfig } from '../src/config';
import { buildGameSchema } from '../src/transport/graphql/server';
import { appHarness } from './support/app';

/** The `## title` section of a page. */
const section = (file: string, title: string) =>
  readFileSync(file, 'utf8')
    .split(/^## /m)
    .find((s) => s.startsWith(title)) ?? '';
/** The README and every guide, whose GraphQL snippets are checked. */
const pages = [
  'README.md',
  ...readdirSync('docs', { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f)),
];

it.each(Object.entries(GAME_ERROR_CODES))('the Errors table lists %s with HTTP %i', (code, status) => {
  const row = section('docs/errors-and-limits.md', 'Errors')
    .split('\n')
    .find((line) => line.startsWith('|') && line.includes(`\`${code}\``));
  expect(row).toBeDefined();
  expect(row).toContain(`| ${status} `);
});

it.each(Object.keys(loadConfig({})))('the Configuration table lists %s', (variable) => {
  expect(section('docs/operations.md', 'Configuration')).toContain(`\`${variable}\``);
});

it.each(OUTCOME_REASONS)('the list of end reasons names %s', (reason) => {
  const games = section('docs/games.md', 'The five kinds');
  const list = games.slice(games.indexOf('says why it ended'), games.indexOf('**House rules**'));
  expect(list).toContain(`\`${reason}\``);
});

// Every GraphQL snippet is valid against the schema the server serves (placeholders are strings).
const graphqlSnippets = pages.flatMap((page) =>
  [...readFileSync(page, 'utf8').matchAll(/```graphql\n([\s\S]*?)```/g)].map((m, i) => [
    `${page} #${i + 1}`,
    m[1] as string,
  ]),
);
it('the pages hold GraphQL snippets', () => expect(graphqlSnippets.length).toBeGreaterThanOrEqual(7));
it.each(graphqlSnippets)('GraphQL snippet %s is valid against the schema', async (_name, snippet) => {
  const schema = await buildGameSchema();
  const document = parse(snippet as string);
  // Snippets list several operations side by side: validate each on its own.
  for (const definition of document.definitions) {
    const errors = validate(schema, { kind: Kind.DOCUMENT, definitions: [definition] });
    expect(errors.map((e) => e.message)).toEqual([]);
  }
});

// The SDK snippet runs as pasted: saved as a file in the repository, with the server running.
it('the SDK snippet of docs/integrating.md plays a whole game and shows a typed refusal', async () => {
  const harness = appHarness();
  try {
    const { url, app } = await harness.start('redis');
    const snippet = /```js\n([\s\S]*?)```/.exec(
      section('docs/integrating.md', 'SDK: @boardhost/client'),
    )?.[1];
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
