import { z } from 'zod';
import type { Services } from '../../service';
import { requireOperator } from './admin';
import * as P from './apps.schemas';
import { json, operatorKey, parse, problems, type RestRoute } from './route';

// The operator API under /api/v1/admin: apps, their keys and their usage. REST only; every route
// needs the operator key (requireOperator).

const appParams = z.object({ appId: P.AppId });
const keyParams = z.object({ appId: P.AppId, keyId: P.AppKeyId });

const OPERATOR_ONLY =
  'Needs `Authorization: Bearer <OPERATOR_KEY>` (403 OPERATOR_ONLY otherwise, and always when the server has no ' +
  'OPERATOR_KEY).';

export function adminRoutes(services: Services): RestRoute[] {
  const apps = services.apps;
  return [
    {
      spec: {
        method: 'post',
        path: '/admin/apps',
        operationId: 'adminCreateApp',
        tags: ['admin'],
        summary: 'Create an app and its first key',
        description: `The app and a first key with every scope (the secret only in this answer). ${OPERATOR_ONLY}`,
        security: operatorKey,
        request: { body: { content: { 'application/json': { schema: P.CreateAppBody } } } },
        responses: { 201: json(P.CreatedApp, 'The app and its first key'), ...problems(400, 403) },
      },
      handle: async (req, res) => {
        requireOperator(req);
        const body = parse(P.CreateAppBody, req.body, 'body');
        const app = await apps.createApp(body);
        const key = await apps.createKey(app.id, { label: 'first key' });
        res.status(201).json({ app, key });
      },
    },
    {
      spec: {
        method: 'get',
        path: '/admin/apps',
        operationId: 'adminListApps',
        tags: ['admin'],
        summary: 'Every app',
        description: `Oldest first. ${OPERATOR_ONLY}`,
        security: operatorKey,
        responses: { 200: json(P.AppList, 'The apps'), ...problems(403) },
      },
      handle: async (req, res) => {
        requireOperator(req);
        res.json({ items: await apps.listApps() });
      },
    },
    {
      spec: {
        method: 'get',
        path: '/admin/apps/{appId}',
        operationId: 'adminGetApp',
        tags: ['admin'],
        summary: 'An app',
        description: OPERATOR_ONLY,
        security: operatorKey,
        request: { params: appParams },
        responses: { 200: json(P.App, 'The app'), ...problems(400, 403, 404) },
      },
      handle: async (req, res) => {
        requireOperator(req);
        const { appId } = parse(appParams, req.params, 'path');
        res.json(await apps.getApp(appId));
      },
    },
    {
      spec: {
        method: 'patch',
        path: '/admin/apps/{appId}',
        operationId: 'adminUpdateApp',
        tags: ['admin'],
        summary: 'Rename an app, change its settings, disable or enable it',
        description: `Each field given changes. A disabled app’s keys and sessions are refused (401). ${OPERATOR_ONLY}`,
        security: operatorKey,
        request: {
          params: appParams,
          body: { content: { 'application/json': { schema: P.UpdateAppBody } } },
        },
        responses: { 200: json(P.App, 'The app as changed'), ...problems(400, 403, 404) },
      },
      handle: async (req, res) => {
        requireOperator(req);
        const { appId } = parse(appParams, req.params, 'path');
        const body = parse(P.UpdateAppBody, req.body, 'body');
        const app = await apps.updateApp(appId, body);
        services.pools.forget(appId);
        res.json(app);
      },
    },
    {
      spec: {
        method: 'post',
        path: '/admin/apps/{appId}/keys',
        operationId: 'adminCreateAppKey',
        tags: ['admin'],
        summary: 'Create an app key',
        description: `The secret is shown only in this answer. At most 20 active keys per app (409 APP_LIMIT_REACHED). ${OPERATOR_ONLY}`,
        security: operatorKey,
        request: {
          params: appParams,
          body: { required: false, content: { 'application/json': { schema: P.CreateAppKeyBody } } },
        },
        responses: { 201: json(P.IssuedAppKey, 'The new key'), ...problems(400, 403, 404, 409) },
      },
      handle: async (req, res) => {
        requireOperator(req);
        const { appId } = parse(appParams, req.params, 'path');
        const body = parse(P.CreateAppKeyBody, req.body, 'body');
        res.status(201).json(await apps.createKey(appId, body));
      },
    },
    {
      spec: {
        method: 'get',
        path: '/admin/apps/{appId}/keys',
        operationId: 'adminListAppKeys',
        tags: ['admin'],
        summary: 'An app’s keys',
        description: `Oldest first, revoked ones included; never secrets. ${OPERATOR_ONLY}`,
        security: operatorKey,
        request: { params: appParams },
        responses: { 200: json(P.AppKeyList, 'The keys'), ...problems(400, 403, 404) },
      },
      handle: async (req, res) => {
        requireOperator(req);
        const { appId } = parse(appParams, req.params, 'path');
        res.json({ items: await apps.listKeys(appId) });
      },
    },
    {
      spec: {
        method: 'delete',
        path: '/admin/apps/{appId}/keys/{keyId}',
        operationId: 'adminRevokeAppKey',
        tags: ['admin'],
        summary: 'Revoke an app key',
        description:
          'At once: requests with it are refused, and the streams it and its sessions opened end within a second ' +
          `on every node. ${OPERATOR_ONLY}`,
        security: operatorKey,
        request: { params: keyParams },
        responses: { 200: json(P.AppKey, 'The revoked key'), ...problems(400, 403, 404) },
      },
      handle: async (req, res) => {
        requireOperator(req);
        const { appId, keyId } = parse(keyParams, req.params, 'path');
        res.json(await apps.revokeKey(appId, keyId));
      },
    },
    {
      spec: {
        method: 'get',
        path: '/admin/apps/{appId}/usage',
        operationId: 'adminGetAppUsage',
        tags: ['admin'],
        summary: 'An app’s usage and quotas',
        description: `Requests, games and accounts in the app’s current day window, beside its quotas. ${OPERATOR_ONLY}`,
        security: operatorKey,
        request: { params: appParams },
        responses: { 200: json(P.AppUsage, 'The usage'), ...problems(400, 403, 404) },
      },
      handle: async (req, res) => {
        requireOperator(req);
        const { appId } = parse(appParams, req.params, 'path');
        res.json(await services.appUsage.usage(appId));
      },
    },
  ];
}
