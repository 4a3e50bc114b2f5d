// GraphQL can be explored: GET /graphql in a browser is GraphiQL, served entirely from this server
// (queries over HTTP, subscriptions over graphql-ws), and introspection gives the committed schema,
// so code generators can work from the URL.
import {
  buildClientSchema,
  buildSchema,
  getIntrospectionQuery,
  lexicographicSortSchema,
  printSchema,
  type IntrospectionQuery,
} from 'graphql';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { chromium, type Browser } from 'playwright-core';
import { appHarness, gql, type Running } from '../support/app';

/** The page's document, inside page.evaluate / waitForFunction (the tests compile without DOM types). */
declare const document: { querySelector(selector: string): { textContent: string | null } | null };

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('GraphiQL and introspection', () => {
  const harness = appHarness();
  let run: Running;
  beforeAll(async () => {
    run = await harness.start('memory');
  });
  afterAll(() => harness.stopAll());

  it('serves GraphiQL to a browser on GET /graphql, every asset from this server', async () => {
    const res = await fetch(`${run.url}/graphql`, { headers: HTML });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    const page = await res.text();
    expect(page).not.toMatch(/https?:\/\/|\/\/[a-z]/i);
    const assets = [...page.matchAll(/(?:src|href)="([^"]+)"/g)]
      .map((m) => m[1] as string)
      .filter((a) => !a.startsWith('data:'));
    expect(assets.sort()).toEqual([
      '/graphql/ide/graphiql.min.css',
      '/graphql/ide/graphiql.min.js',
      '/graphql/ide/react-dom.production.min.js',
      '/graphql/ide/react.production.min.js',
      '/graphql/ide/start.js',
    ]);
    for (const asset of assets) {
      const served = await fetch(`${run.url}${asset}`);
      expect([asset, served.status]).toEqual([asset, 200]);
      expect(served.headers.get('content-type')).toMatch(asset.endsWith('.css') ? /text\/css/ : /javascript/);
      const text = await served.text();
      expect(text.length).toBeGreaterThan(100);
      // Nothing the page loads pulls more from elsewhere (CSS url()s are data: URIs).
      if (asset.endsWith('.css')) expect(text).not.toMatch(/url\((?!["']?data:)/);
    }
    expect((await fetch(`${run.url}/graphql/ide/nothing.js`)).status).toBe(404);
  });

  it('keeps the other GETs as Apollo answers them', async () => {
    // A GET query with the CSRF-prevention header Apollo asks for.
    const get = await fetch(`${run.url}/graphql?query=${encodeURIComponent('{ kinds { kind } }')}`, {
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(get.status).toBe(200);
    expect(((await get.json()) as { data: { kinds: { kind: string }[] } }).data.kinds).toContainEqual({
      kind: 'congo',
    });
    // A browser navigation that carries a query is a query, not the IDE.
    const withQuery = await fetch(`${run.url}/graphql?query=${encodeURIComponent('{ kinds { kind } }')}`, {
      headers: { ...HTML, 'apollo-require-preflight': 'true' },
    });
    expect(withQuery.headers.get('content-type')).toMatch(/json/);
  });

  it('answers the standard introspection query with the committed schema (code generation from the URL)', async () => {
    const { status, body } = await gql(
      run.url,
      getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true }),
    );
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const served = buildClientSchema(body.data as unknown as IntrospectionQuery);
    const committed = buildSchema(readFileSync(join(__dirname, '../../schema/schema.graphql'), 'utf8'));
    expect(printSchema(lexicographicSortSchema(served))).toBe(
      printSchema(lexicographicSortSchema(committed)),
    );
  });

  it('sends a subscription over graphql-ws even before GraphiQL has re-parsed the editor', async () => {
    // start.js run with stand-ins for the browser, React and GraphiQL: what reaches GraphiQL's fetcher.
    const source = await (await fetch(`${run.url}/graphql/ide/start.js`)).text();
    let props: { fetcher: (params: object, options?: object) => any } | undefined;
    const sandbox = {
      window: { location: { href: `${run.url}/graphql` } },
      URL,
      Object,
      document: { getElementById: () => ({}) },
      React: { createElement: (_type: unknown, p: typeof props) => p },
      ReactDOM: { createRoot: () => ({ render: (p: typeof props) => (props = p) }) },
      GraphiQL: { createFetcher: () => (_params: object, options: object) => options },
    };
    runInNewContext(source, sandbox);
    const stale = { kind: 'Document', definitions: [], loc: { source: { body: '{ kinds }' } } };
    const kinds = (options: any) =>
      options.documentAST.definitions.map((d: { operation: string }) => d.operation);
    const subscription = 'subscription { gameUpdated(id: "x") { id } }';
    expect(kinds(props!.fetcher({ query: subscription }, { documentAST: stale }))).toEqual(['subscription']);
    expect(kinds(props!.fetcher({ query: `# subscription\n${subscription}` }, {}))).toEqual(['subscription']);
    expect(
      kinds(
        props!.fetcher(
          { query: `query A { kinds } subscription B { gameUpdated(id: "{") { id } }`, operationName: 'B' },
          { documentAST: stale },
        ),
      ),
    ).toEqual(['subscription']);
    expect(kinds(props!.fetcher({ query: '{ kinds }' }, {}))).toEqual([]);
    expect(kinds(props!.fetcher({ query: 'mutation { resign(id: "x") { id } }' }, {}))).toEqual([]);
    // A parse that matches the text is used as it is.
    const fresh = { ...stale, loc: { source: { body: '{ kinds }' } } };
    expect(props!.fetcher({ query: '{ kinds }' }, { documentAST: fresh }).documentAST).toBe(fresh);
  });

  describe('in Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    }, 60_000);
    afterAll(() => browser?.close());

    it('renders, runs a query, and runs a subscription over graphql-ws, reaching nothing but this server', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const origin = new URL(run.url);
      const foreign: string[] = [];
      const failures: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.protocol !== 'data:' && url.host !== origin.host) foreign.push(request.url());
      });
      page.on('websocket', (socket) => {
        if (new URL(socket.url()).host !== origin.host) foreign.push(socket.url());
      });
      page.on('pageerror', (error) => failures.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') failures.push(message.text());
      });

      await page.goto(`${run.url}/graphql`);
      await page.waitForSelector('.graphiql-container .graphiql-query-editor .CodeMirror');
      const result = () => page.locator('.graphiql-response').innerText();
      const responseMatches = (pattern: RegExp) =>
        page
          .waitForFunction(
            (source) =>
              new RegExp(source).test(document.querySelector('.graphiql-response')?.textContent ?? ''),
            pattern.source,
            { timeout: 20_000 },
          )
          .catch(async () => {
            throw new Error(`the response pane never showed ${pattern}; it shows: ${await result()}`);
          });

      // The default query ({ kinds { kind seatNames } }).
      await page.click('.graphiql-execute-button');
      await responseMatches(/"congo"/);
      expect(await result()).toContain('russian-draughts');

      // A subscription: the game now, then the move made meanwhile.
      const { game, seatTokens } = await run.app.services.games.createGame({ kind: 'kalah' });
      await page.evaluate((query) => {
        const editor = document.querySelector('.graphiql-query-editor .CodeMirror') as unknown as {
          CodeMirror: { setValue(value: string): void };
        };
        editor.CodeMirror.setValue(query);
      }, `subscription { gameUpdated(id: "${game.id}") { version ply } }`);
      await page.click('.graphiql-execute-button');
      await responseMatches(/"version": 0/);
      await run.app.services.games.submitMove(game.id, '3', { credential: { token: seatTokens[0]!.token } });
      await responseMatches(/"version": 1/);

      expect(foreign).toEqual([]);
      expect(failures).toEqual([]);
      await context.close();
    }, 90_000);
  });
});
