import type { Express, RequestHandler } from 'express';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { Storage } from './store/store';

/** Prometheus metrics on a private registry (no global state shared between app instances). */
export function createMetrics(): { registry: Registry; middleware: RequestHandler } {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const middleware: RequestHandler = (req, res, next) => {
    const end = duration.startTimer();
    res.on('finish', () => {
      // The matched route pattern, not the URL, keeps label cardinality bounded.
      const route = (req.route as { path?: string } | undefined)?.path;
      end({
        method: req.method,
        route: route ? `${req.baseUrl}${route}` : 'unmatched',
        status: res.statusCode,
      });
    });
    next();
  };
  return { registry, middleware };
}

/** /healthz (process up), /readyz (store answers within a second), /metrics. */
export function mountOperations(app: Express, storage: Storage, registry: Registry): void {
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    try {
      await Promise.race([
        storage.games.ping(),
        new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 1000).unref()),
      ]);
      res.json({ status: 'ready', store: storage.name });
    } catch {
      res.status(503).setHeader('Retry-After', '2').json({ status: 'unavailable', store: storage.name });
    }
  });
  app.get('/metrics', async (_req, res) => {
    res.type(registry.contentType).send(await registry.metrics());
  });
}
