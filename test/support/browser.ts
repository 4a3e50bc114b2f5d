// Browser tests of the playground: Debian's Chromium driven by playwright-core (no browser
// downloads), against an app started on a free port that serves a playground built for this test
// file (esbuild, into a temporary folder: the tests never read a stale dist/web).
//
//   const pg = playground();                      // in a describe: starts before, stops after
//   const page = await pg.page('south');          // a new browser context; console errors collected
//   await page.goto(`${pg.url}/play/${id}#seat=…`);
//   await pg.screenshot(page, 'kalah-start');     // test-output/playground/kalah-start.png
//   expect(await pg.axe(page)).toEqual([]);       // serious and critical axe-core violations
//   pg.expectNoErrors();                          // also checked after every test
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { appHarness, type Running, type StoreKind } from './app';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROOT = join(__dirname, '..', '..');
/** Where screenshots go (gitignored). */
export const SCREENSHOTS = join(ROOT, 'test-output', 'playground');

/** Builds the playground into a new temporary folder; returns the folder. */
export function buildPlayground(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bh-web-'));
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-web.mjs'), '--outdir', dir], {
    stdio: 'pipe',
  });
  return dir;
}

export interface AxeViolation {
  readonly id: string;
  readonly impact: string;
  readonly help: string;
  readonly targets: readonly string[];
}

export interface Playground {
  /** The app's base URL, e.g. http://127.0.0.1:40123. */
  readonly url: string;
  /** The running app (services for setting games up directly). */
  readonly run: Running;
  readonly browser: Browser;
  /** A page in a new browser context (a separate person: own storage), named in error messages. */
  page(name: string, options?: { viewport?: { width: number; height: number } }): Promise<Page>;
  /** Saves a PNG under test-output/playground/<name>.png; returns its path. */
  screenshot(page: Page, name: string): Promise<string>;
  /** Runs axe-core in the page; the serious and critical violations. */
  axe(page: Page): Promise<AxeViolation[]>;
  /** Console errors and page errors seen so far, as "<page name>: <text>". */
  readonly errors: string[];
  /** Fails (and clears) if any page logged an error. */
  expectNoErrors(): void;
}

/**
 * Sets up a playground for the enclosing describe block: builds the page, starts an app (memory
 * store by default) and Chromium before all tests, checks for console errors after each, and
 * closes everything after all. Read its fields inside tests (they are set in beforeAll).
 */
export function playground(store: StoreKind = 'memory'): Playground {
  const harness = appHarness();
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];
  let webDir: string | undefined;
  let run: Running | undefined;
  let browser: Browser | undefined;
  const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

  beforeAll(async () => {
    webDir = buildPlayground();
    run = await harness.start(store, { app: { webDir } });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 60_000);
  afterEach(() => {
    const seen = errors.splice(0);
    expect(seen).toEqual([]);
  });
  afterAll(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close().catch(() => undefined)));
    await browser?.close();
    await harness.stopAll();
    if (webDir) rmSync(webDir, { recursive: true, force: true });
  }, 30_000);

  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`playground: ${what} is not ready (use it inside a test)`);
    return value;
  };
  return {
    get url() {
      return need(run, 'the app').url;
    },
    get run() {
      return need(run, 'the app');
    },
    get browser() {
      return need(browser, 'the browser');
    },
    errors,
    async page(name, options) {
      const context = await need(browser, 'the browser').newContext({
        viewport: options?.viewport ?? { width: 1000, height: 800 },
      });
      contexts.push(context);
      const page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`${name}: ${message.text()}`);
      });
      page.on('pageerror', (error) => errors.push(`${name}: ${error.message}`));
      return page;
    },
    async screenshot(page, name) {
      const path = join(SCREENSHOTS, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    async axe(page) {
      // Evaluated over the DevTools protocol, so the page's CSP (no inline scripts) does not apply.
      await page.evaluate(axeSource);
      const violations = await page.evaluate(async () => {
        const axe = (globalThis as any).axe;
        const result = await axe.run(document, { resultTypes: ['violations'] });
        return (result.violations as any[]).map((v) => ({
          id: v.id as string,
          impact: String(v.impact),
          help: v.help as string,
          targets: (v.nodes as any[]).map((n) => String(n.target)),
        }));
      });
      return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    },
    expectNoErrors() {
      const seen = errors.splice(0);
      expect(seen).toEqual([]);
    },
  };
}

/** The page's document inside page.evaluate (the tests compile without DOM types). */
declare const document: unknown;
