// The OpenAPI conformance scenario's step for an app's delivery (/app/webhooks, /app/events): an
// app made with the operator key, two of its accounts, a challenge between them (their events reach
// the app feed), the app's endpoint, its log and a redelivery; every answer checked by `api`.
import type { Running } from './app';
import { CONFORMANCE_OPERATOR_KEY } from './apps-scenario';
import type { CheckedClient } from './openapi-check';
import type { Receiver } from './webhook-receiver';

const NO_WEBHOOK = 'AAAAAAAAAAAA';
const NO_DELIVERY = '00000000-0000-4000-8000-000000000000';

export async function appDeliveryScenario(
  api: CheckedClient,
  run: Running,
  receiver: Receiver,
): Promise<void> {
  const { expectStatus: ok, stream } = api;
  const { key } = await ok(201, 'post', '/api/v1/admin/apps', {
    token: CONFORMANCE_OPERATOR_KEY,
    body: { name: 'Conformance delivery' },
  });
  const token = key.key as string;
  const one = await ok(201, 'put', '/api/v1/app/accounts/delivery-1', { token, body: {} });
  const two = await ok(201, 'put', '/api/v1/app/accounts/delivery-2', { token, body: {} });
  const hook = await ok(201, 'post', '/api/v1/app/webhooks', { token, body: { url: receiver.url('/app') } });
  await ok(400, 'post', '/api/v1/app/webhooks', { token, body: { url: 'nope' } });
  await ok(200, 'get', '/api/v1/app/webhooks', { token });
  await ok(200, 'get', `/api/v1/app/webhooks/${hook.id}`, { token });
  await ok(404, 'get', `/api/v1/app/webhooks/${NO_WEBHOOK}`, { token });
  // Events: a challenge between the app's accounts (each is told).
  await ok(201, 'post', '/api/v1/challenges', {
    token,
    headers: { 'boardhost-account': one.id },
    body: { to: two.id, kind: 'kalah' },
  });
  while ((await run.app.deliverWebhooks()) > 0);
  const log = await ok(200, 'get', `/api/v1/app/webhooks/${hook.id}/deliveries?limit=1`, { token });
  await ok(200, 'post', `/api/v1/app/webhooks/${hook.id}/deliveries/${log.items[0].deliveryId}/redeliver`, {
    token,
  });
  await ok(404, 'post', `/api/v1/app/webhooks/${hook.id}/deliveries/${NO_DELIVERY}/redeliver`, { token });
  const page = await ok(200, 'get', '/api/v1/app/events?after=0&limit=1', {
    token,
    headers: { accept: 'application/json' },
  });
  await ok(400, 'get', `/api/v1/app/events?after=${page.last + 1}`, {
    token,
    headers: { accept: 'application/json' },
  });
  await ok(401, 'get', '/api/v1/app/events', { headers: { accept: 'application/json' } });
  for (const accept of ['text/event-stream', 'application/x-ndjson']) {
    const events = await stream('/api/v1/app/events?after=0', accept, token);
    for (let seq = 0; seq <= page.last; seq++) await events.next();
    events.close();
  }
  await ok(204, 'delete', `/api/v1/app/webhooks/${hook.id}`, { token });
  await ok(404, 'delete', `/api/v1/app/webhooks/${hook.id}`, { token });
}
