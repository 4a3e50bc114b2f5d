#!/usr/bin/env node
// A company's own backend that makes Boardhost its game backend (issue #30), on @boardhost/client:
//
//   POST /login {user}          a stand-in for the company's own login: provisions the user's Boardhost
//                               account by the company's user id (ensureAccount) and answers a fresh
//                               session for the browser (the app key never leaves this server)
//   GET  /players/:user         the Boardhost account id of another user, to challenge them
//   GET  /                      a small page that logs in, keeps the session, challenges, accepts and
//                               plays directly against Boardhost with the session token (CORS: the
//                               app's corsOrigins must list this server's origin)
//   POST /webhooks/boardhost    app webhooks, signature verified
//
//   BOARDHOST_URL=http://localhost:4000 BOARDHOST_APP_KEY=bha_… PORT=8080 node examples/app-backend/server.mjs
//
// Optional: ORIGIN (this server's origin as browsers see it; default http://localhost:PORT),
// BOARDHOST_PUBLIC_URL (Boardhost as browsers reach it; default BOARDHOST_URL),
// WEBHOOK_URL (where Boardhost reaches the receiver; default ORIGIN/webhooks/boardhost),
// BOARDHOST_WEBHOOK_SECRET (the receiver's signing secret, 16–200 visible ASCII characters; default:
// one made per run).
import express from 'express';
import { Buffer } from 'node:buffer';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createBoardhostApp, isBoardhostError, ok } from '@boardhost/client';
import { page } from './page.mjs';

const BOARDHOST_URL = process.env.BOARDHOST_URL ?? 'http://localhost:4000';
const PUBLIC_URL = process.env.BOARDHOST_PUBLIC_URL ?? BOARDHOST_URL;
const APP_KEY = process.env.BOARDHOST_APP_KEY;
const PORT = Number(process.env.PORT ?? 8080);
const ORIGIN = process.env.ORIGIN ?? `http://localhost:${PORT}`;
const WEBHOOK_SECRET = process.env.BOARDHOST_WEBHOOK_SECRET;
if (!APP_KEY) {
  console.error('BOARDHOST_APP_KEY is required (an app key, bha_…: npm run admin -- app create <name>)');
  process.exit(2);
}

const boardhost = createBoardhostApp({ baseUrl: BOARDHOST_URL, appKey: APP_KEY });

// The browser calls Boardhost itself, cross-origin: Boardhost allows it when the app lists this origin.
const me = await boardhost.app();
if (!me.settings.corsOrigins.includes(ORIGIN)) {
  console.error(
    `warning: app ${me.id} does not list ${ORIGIN} in settings.corsOrigins; browsers will be refused`,
  );
}

// Every event of every user of the app comes to one endpoint: this server's receiver, registered
// at start with our secret. With BOARDHOST_WEBHOOK_SECRET set (keep it: events wait for the endpoint
// while this server is down), an endpoint already registered for the url is kept; without it, a
// secret is made for this run and the endpoint registered anew (events from now on only).
const WEBHOOK_URL = process.env.WEBHOOK_URL ?? `${ORIGIN}/webhooks/boardhost`;
const webhookSecret = WEBHOOK_SECRET ?? `whsec_${randomBytes(24).toString('hex')}`;
try {
  const { items } = await ok(boardhost.api.GET('/api/v1/app/webhooks'));
  const registered = items.find((w) => w.url === WEBHOOK_URL);
  if (registered && !WEBHOOK_SECRET) {
    await ok(boardhost.api.DELETE('/api/v1/app/webhooks/{id}', { params: { path: { id: registered.id } } }));
  }
  if (!registered || !WEBHOOK_SECRET) {
    await ok(
      boardhost.api.POST('/api/v1/app/webhooks', { body: { url: WEBHOOK_URL, secret: webhookSecret } }),
    );
  }
} catch (error) {
  // e.g. UNSAFE_WEBHOOK_URL: Boardhost delivers to public addresses only (set WEBHOOK_URL)
  console.error(`warning: webhooks not registered for ${WEBHOOK_URL}: ${error.message}`);
}

const USER = /^[A-Za-z0-9_-]{1,64}$/;
const app = express();

app.get('/', (_req, res) => {
  res.type('html').send(page({ boardhostUrl: PUBLIC_URL }));
});

app.post('/login', express.json(), async (req, res, next) => {
  try {
    // Your real login goes here; this demo believes whoever you say you are.
    const user = req.body?.user;
    if (typeof user !== 'string' || !USER.test(user)) {
      return res.status(400).json({ error: 'user: 1–64 letters, digits, _ or -' });
    }
    const { account } = await boardhost.ensureAccount(user, { displayName: user });
    const session = await newSession(user);
    res.json({
      account: { id: account.id, username: account.username, displayName: account.displayName },
      accessToken: session.accessToken,
      accessTokenExpiresAt: session.accessTokenExpiresAt,
      refreshToken: session.refreshToken,
      refreshTokenExpiresAt: session.refreshTokenExpiresAt,
    });
  } catch (error) {
    next(error);
  }
});

/** A session for the user; at the per-account cap, the oldest active one is signed out first. */
async function newSession(user) {
  try {
    return await boardhost.createSession(user, { label: 'browser' });
  } catch (error) {
    if (!isBoardhostError(error, 'APP_LIMIT_REACHED')) throw error;
    const oldest = (await boardhost.listSessions(user)).find((s) => s.active);
    if (oldest) await boardhost.revokeSession(oldest.id);
    return boardhost.createSession(user, { label: 'browser' });
  }
}

app.get('/players/:user', async (req, res, next) => {
  try {
    const account = await boardhost.getAccount(req.params.user);
    res.json({ id: account.id, username: account.username, displayName: account.displayName });
  } catch (error) {
    if (isBoardhostError(error, 'ACCOUNT_NOT_FOUND'))
      return res.status(404).json({ error: 'no such player' });
    next(error);
  }
});

/** True when Boardhost signed this body with `secret` less than 5 minutes ago (docs/correspondence.md). */
function verify(secret, rawBody, timestamp, signatureHeader, now = Date.now()) {
  if (!/^\d+$/.test(timestamp ?? '') || Math.abs(now / 1000 - Number(timestamp)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  return (signatureHeader ?? '').split(',').some((part) => {
    const hex = /^\s*v1=([0-9a-f]{64})\s*$/.exec(part)?.[1];
    return hex !== undefined && timingSafeEqual(Buffer.from(hex, 'hex'), expected);
  });
}

const delivered = new Set(); // Boardhost-Delivery ids handled (use your database)
app.post('/webhooks/boardhost', express.raw({ type: 'application/json' }), (req, res) => {
  const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  if (!verify(webhookSecret, body, req.get('Boardhost-Timestamp'), req.get('Boardhost-Signature'))) {
    return res.status(401).end();
  }
  const delivery = req.get('Boardhost-Delivery');
  if (!delivered.has(delivery)) {
    delivered.add(delivery);
    const event = JSON.parse(body.toString('utf8')); // { account, epoch, seq, type, at, data }
    // Your reaction goes here (notify the user, update your records…); answer fast, work later.
    console.log(`webhook ${event.type} for ${event.account} (seq ${event.seq})`);
  }
  res.status(204).end();
});

app.use((error, _req, res, _next) => {
  console.error(error);
  const status = isBoardhostError(error) ? 502 : 500;
  res.status(status).json({ error: isBoardhostError(error) ? error.code : 'internal error' });
});

const server = app.listen(PORT, () => console.log(`app backend on ${ORIGIN} (Boardhost ${BOARDHOST_URL})`));
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
