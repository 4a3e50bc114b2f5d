// The README documents what the code does: every error code with its HTTP status, every
// environment variable the configuration reads, and every reason a game can end for.
import { readFileSync } from 'node:fs';
import { OUTCOME_REASONS } from '../src/engines/types';
import { GAME_ERROR_CODES } from '../src/service/errors';
import { loadConfig } from '../src/config';

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
