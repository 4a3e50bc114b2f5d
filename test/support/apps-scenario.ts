// The OpenAPI conformance scenario's step for the app API (/app) and the operator API (/admin):
// each operation once or more, successes and refusals, every answer checked by `api`.
import type { CheckedClient } from './openapi-check';

/** The operator key the conformance servers are started with. */
export const CONFORMANCE_OPERATOR_KEY = 'conformance-operator-key-0123456789';

export async function appsScenario(api: CheckedClient): Promise<void> {
  const { expectStatus: ok } = api;
  const operator = CONFORMANCE_OPERATOR_KEY;
  // The operator: an app and its first key, the listing, a change, keys, usage.
  const { app, key } = await ok(201, 'post', '/api/v1/admin/apps', {
    token: operator,
    body: { name: 'Conformance', settings: { quotas: { accountsPerDay: 100 } } },
  });
  await ok(403, 'post', '/api/v1/admin/apps', { token: key.key, body: { name: 'Nope' } });
  await ok(200, 'get', '/api/v1/admin/apps', { token: operator });
  await ok(200, 'get', `/api/v1/admin/apps/${app.id}`, { token: operator });
  await ok(404, 'get', '/api/v1/admin/apps/app_0000000000000000', { token: operator });
  await ok(200, 'patch', `/api/v1/admin/apps/${app.id}`, {
    token: operator,
    body: { name: 'Conformance 2' },
  });
  await ok(400, 'patch', `/api/v1/admin/apps/${app.id}`, { token: operator, body: { name: '' } });
  const second = await ok(201, 'post', `/api/v1/admin/apps/${app.id}/keys`, {
    token: operator,
    body: { label: 'reader', scopes: ['game:read'] },
  });
  await ok(200, 'get', `/api/v1/admin/apps/${app.id}/keys`, { token: operator });
  await ok(200, 'delete', `/api/v1/admin/apps/${app.id}/keys/${second.id}`, { token: operator });
  await ok(404, 'delete', `/api/v1/admin/apps/${app.id}/keys/key_0000000000000000`, { token: operator });

  // The app: itself, its accounts by external id.
  await ok(200, 'get', '/api/v1/app', { token: key.key });
  await ok(401, 'get', '/api/v1/app', { token: second.key });
  const made = await ok(201, 'put', '/api/v1/app/accounts/user-1', {
    token: key.key,
    body: { username: 'conformer', displayName: 'Con', metadata: { tier: 'gold' } },
  });
  await ok(200, 'put', '/api/v1/app/accounts/user-1', { token: key.key });
  await ok(409, 'put', '/api/v1/app/accounts/user-2', { token: key.key, body: { username: 'Conformer' } });
  await ok(400, 'put', '/api/v1/app/accounts/user-2', {
    token: key.key,
    body: { metadata: { 'no spaces': 'x' } },
  });
  await ok(200, 'get', '/api/v1/app/accounts/user-1', { token: key.key });
  await ok(404, 'get', '/api/v1/app/accounts/nobody', { token: key.key });
  await ok(200, 'patch', '/api/v1/app/accounts/user-1', {
    token: key.key,
    body: { username: 'conformer-2', displayName: null },
  });
  await ok(200, 'get', '/api/v1/app/accounts?limit=10', { token: key.key });
  // An island app's account is seen in its pool only (anonymous callers are in the open pool).
  await ok(200, 'get', `/api/v1/accounts/${made.id}`, { token: key.key });
  await ok(404, 'get', `/api/v1/accounts/${made.id}`);
  await ok(200, 'get', `/api/v1/admin/apps/${app.id}/usage`, { token: operator });
}
