import type { Express } from 'express';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { GameError } from '../../service/errors';
import { sendProblem } from './problem';

/** The repository's docs/rules, from src/ (development) and dist/ (build) alike. */
export const DEFAULT_RULES_DIR = resolve(__dirname, '..', '..', '..', 'docs', 'rules');

/** Page names: one path segment ending in .md, nothing that could leave the directory. */
const PAGE = /^[A-Za-z0-9][A-Za-z0-9_-]*\.md$/;

/** A rules page's markdown (e.g. `kalah.md`), read from `dir`; undefined for no such page. */
export async function readRulesPage(dir: string, page: string): Promise<string | undefined> {
  if (!PAGE.test(page)) return undefined;
  try {
    return await readFile(join(dir, page), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Serves the rules pages (docs/rules/*.md) as text/markdown at /rules/<page>.md, read from `dir` on
 * each request; /rules itself is the index (README.md). Unknown pages are 404 problems.
 */
export function mountRules(app: Express, dir: string = DEFAULT_RULES_DIR): void {
  app.get(['/rules', '/rules/', '/rules/:page'], async (req, res) => {
    const page = (req.params as { page?: string }).page ?? 'README.md';
    const notFound = () => sendProblem(res, new GameError('NOT_FOUND', `No rules page ${page}`));
    const text = await readRulesPage(dir, page);
    if (text === undefined) return notFound();
    res.type('text/markdown; charset=utf-8').setHeader('Cache-Control', 'public, max-age=300').send(text);
  });
}
