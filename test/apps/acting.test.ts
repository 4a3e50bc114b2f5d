// An app key acts for its own accounts only (Boardhost-Account), and for no account without one.
import request from 'supertest';
import { appHarness, type Running } from '../support/app';
import { appAccount, newApp } from '../support/apps';

const harness = appHarness();
let running: Running;
afterAll(() => harness.stopAll());

beforeAll(async () => {
  running = await harness.start('memory');
});

test('an app key plays as its account, and not as another app’s', async () => {
  const a = await newApp(running.app);
  const b = await newApp(running.app);
  const alice = await appAccount(running.storage, a, 'alice-1');
  const me = await request(running.url).get('/api/v1/account').set(a.as(alice.id));
  expect(me.status).toBe(200);
  expect(me.body.id).toBe(alice.id);
  const other = await request(running.url).get('/api/v1/account').set(b.as(alice.id));
  expect(other.status).toBe(404);
  expect(other.body.code).toBe('ACCOUNT_NOT_FOUND');
  const none = await request(running.url).get('/api/v1/account').set(a.auth);
  expect(none.status).toBe(400);
  expect(none.body.code).toBe('ACCOUNT_REQUIRED');
});
