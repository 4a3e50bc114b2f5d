// The playground is served by the app itself: the page to browsers at / and at every page path
// (the page routes itself), hashed assets cached for good, a strict CSP the page runs under, and
// the JSON index still answered to API clients at /.
import { playground } from '../support/browser';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('the playground', () => {
  const pg = playground();

  it('answers a browser at / and at page paths with the page, API clients with JSON', async () => {
    const page = await fetch(`${pg.url}/`, { headers: HTML });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('vary')).toMatch(/accept/i);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe');
    const html = await page.text();
    // Nothing from elsewhere, no inline script.
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);

    for (const accept of [{}, { accept: 'application/json' }, { accept: '*/*' }]) {
      const json = await fetch(`${pg.url}/`, { headers: accept });
      expect(json.headers.get('content-type')).toMatch(/application\/json/);
      expect(((await json.json()) as { rest: string }).rest).toBe('/api/v1');
    }

    const deep = await fetch(`${pg.url}/play/abcdefghijkl`, { headers: HTML });
    expect(deep.status).toBe(200);
    expect(await deep.text()).toBe(html);
    // API paths and files are never the page.
    for (const path of ['/api/v1/nothing', '/graphql/ide/nothing.js', '/assets/nothing.js', '/favicon.ico']) {
      const res = await fetch(`${pg.url}${path}`, { headers: HTML });
      expect([path, res.status]).toEqual([path, 404]);
    }
  });

  it('serves the hashed bundles with long-lived caching', async () => {
    const html = await (await fetch(`${pg.url}/`, { headers: HTML })).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.some((a) => /\.js$/.test(a))).toBe(true);
    expect(assets.some((a) => /\.css$/.test(a))).toBe(true);
    for (const asset of assets) {
      const res = await fetch(`${pg.url}${asset}`);
      expect([asset, res.status]).toEqual([asset, 200]);
      expect(res.headers.get('cache-control')).toMatch(/max-age=31536000.*immutable/);
    }
  });

  it('runs under its CSP in Chromium with no console errors, and axe finds no serious violations', async () => {
    const page = await pg.page('home');
    await page.goto(`${pg.url}/`);
    await page.getByRole('heading', { name: 'Boardhost playground' }).waitFor();
    expect(await pg.axe(page)).toEqual([]);
    await page.goto(`${pg.url}/no/such/page`);
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
    pg.expectNoErrors();
  });
});
