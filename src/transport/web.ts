import express, { type Request, type RequestHandler, type Router } from 'express';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The browser playground (web/, built by scripts/build-web.mjs into dist/web/): its hashed assets
// under /assets/ (cached for a year: a new build has new names), and index.html for every page path
// a browser navigates to (`/`, `/play/<id>`, …; the page routes itself), never cached. API clients
// keep their answers: `/` with a JSON preference is still the JSON index, and nothing under the API
// prefixes is ever the page.

/** Where `npm run build` puts the playground (dist/web, next to the compiled server or beside src/). */
export const DEFAULT_WEB_DIR = join(__dirname, '..', '..', 'dist', 'web');

/** Paths that belong to the API and its tools: never answered with the page. */
const NOT_PAGES = /^\/(api|graphql|mcp|docs|rules|openapi\.json|assets|livez|healthz|readyz|metrics)(\/|$)/;

/**
 * The page's policy: scripts, styles and fetch/EventSource to this origin only, no inline script
 * or style element (the page sets styles through the CSSOM only), no plugins, no framing.
 */
export const PLAYGROUND_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** A browser's navigation: GET, preferring HTML to JSON, to a path with no file extension. */
export function wantsPage(req: Request): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (NOT_PAGES.test(req.path) || /\.[A-Za-z0-9]+$/.test(req.path)) return false;
  return req.accepts(['application/json', 'text/html']) === 'text/html';
}

/** The playground's routes; an unbuilt playground (no index.html) leaves every request to the API. */
export function playgroundRouter(webDir: string = DEFAULT_WEB_DIR): Router {
  const router = express.Router();
  const indexFile = join(webDir, 'index.html');
  // Read on each navigation while `npm run dev` rebuilds; it is a few hundred bytes.
  const index = (): string | undefined =>
    existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : undefined;
  router.use(
    '/assets',
    express.static(join(webDir, 'assets'), {
      immutable: true,
      maxAge: '365d',
      index: false,
      fallthrough: true,
    }),
  );
  const page: RequestHandler = (req, res, next) => {
    if (!wantsPage(req)) return next();
    const html = index();
    if (html === undefined) return next();
    res
      .status(200)
      .type('html')
      .setHeader('Content-Security-Policy', PLAYGROUND_CSP)
      .setHeader('Cache-Control', 'no-cache')
      .setHeader('Vary', 'Accept')
      .send(html);
  };
  router.use(page);
  return router;
}
