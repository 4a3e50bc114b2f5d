import { loadConfig } from '../src/config';

describe('configuration', () => {
  it('uses the embedded store and port 4000 by default', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(4000);
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.REDIS_KEY_PREFIX).toBe('boardhost:');
  });

  it('reads PORT and REDIS_URL from the environment', () => {
    const config = loadConfig({ PORT: '8080', REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(config.PORT).toBe(8080);
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379');
  });

  it('names every bad variable in one message', () => {
    expect(() => loadConfig({ PORT: 'eighty', REDIS_URL: 'localhost:6379', LOG_LEVEL: 'loud' })).toThrow(
      /PORT[\s\S]*REDIS_URL[\s\S]*LOG_LEVEL|PORT[\s\S]*LOG_LEVEL[\s\S]*REDIS_URL/,
    );
  });

  it('reads ABANDON_CLAIM_DAYS: 3 by default, any positive number of days', () => {
    expect(loadConfig({}).ABANDON_CLAIM_DAYS).toBe(3);
    expect(loadConfig({ ABANDON_CLAIM_DAYS: '0.5' }).ABANDON_CLAIM_DAYS).toBe(0.5);
    expect(() => loadConfig({ ABANDON_CLAIM_DAYS: '0' })).toThrow(/ABANDON_CLAIM_DAYS/);
  });

  it('reads the Redis command timeout (default 2000 ms) and refuses one out of range', () => {
    expect(loadConfig({}).REDIS_COMMAND_TIMEOUT_MS).toBe(2000);
    expect(loadConfig({ REDIS_COMMAND_TIMEOUT_MS: '500' }).REDIS_COMMAND_TIMEOUT_MS).toBe(500);
    expect(() => loadConfig({ REDIS_COMMAND_TIMEOUT_MS: '10' })).toThrow(/REDIS_COMMAND_TIMEOUT_MS/);
    expect(() => loadConfig({ REDIS_COMMAND_TIMEOUT_MS: 'soon' })).toThrow(/REDIS_COMMAND_TIMEOUT_MS/);
  });

  it('reads REDIS_CLUSTER_NODES as a list of host:port seeds, and refuses anything else', () => {
    expect(loadConfig({}).REDIS_CLUSTER_NODES).toBeUndefined();
    expect(
      loadConfig({ REDIS_CLUSTER_NODES: 'redis-1:6379, 10.0.0.2:7000,[::1]:7001' }).REDIS_CLUSTER_NODES,
    ).toEqual(['redis-1:6379', '10.0.0.2:7000', '[::1]:7001']);
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'redis-1:6379,redis-2' })).toThrow(
      /REDIS_CLUSTER_NODES: "redis-2" is not host:port/,
    );
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'redis://redis-1:6379' })).toThrow(/REDIS_CLUSTER_NODES/);
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: ' , ' })).toThrow(
      /REDIS_CLUSTER_NODES: must list host:port nodes/,
    );
  });

  it('refuses REDIS_URL and REDIS_CLUSTER_NODES together, naming both', () => {
    expect(() =>
      loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_CLUSTER_NODES: '127.0.0.1:7000' }),
    ).toThrow(
      /REDIS_CLUSTER_NODES: set REDIS_URL \(one Redis\) or REDIS_CLUSTER_NODES \(a Redis Cluster\), not both/,
    );
  });

  it('reads REDIS_WAIT_REPLICAS: 0 by default, any whole number of replicas', () => {
    expect(loadConfig({}).REDIS_WAIT_REPLICAS).toBe(0);
    expect(loadConfig({ REDIS_WAIT_REPLICAS: '1' }).REDIS_WAIT_REPLICAS).toBe(1);
    for (const bad of ['-1', '1.5', 'all']) {
      expect(() => loadConfig({ REDIS_WAIT_REPLICAS: bad })).toThrow(/REDIS_WAIT_REPLICAS/);
    }
  });

  it('reads the webhook settings: private targets off unless WEBHOOK_ALLOW_PRIVATE=true', () => {
    expect(loadConfig({})).toMatchObject({
      WEBHOOK_ALLOW_PRIVATE: false,
      WEBHOOK_TIMEOUT_SECONDS: 10,
      WEBHOOK_INTERVAL_SECONDS: 1,
      WEBHOOK_CONCURRENCY: 32,
    });
    const config = loadConfig({
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_TIMEOUT_SECONDS: '3',
      WEBHOOK_INTERVAL_SECONDS: '0',
    });
    expect(config).toMatchObject({
      WEBHOOK_ALLOW_PRIVATE: true,
      WEBHOOK_TIMEOUT_SECONDS: 3,
      WEBHOOK_INTERVAL_SECONDS: 0,
    });
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'yes' })).toThrow(
      /WEBHOOK_ALLOW_PRIVATE: must be true or false/,
    );
    expect(() => loadConfig({ WEBHOOK_TIMEOUT_SECONDS: '0' })).toThrow(/WEBHOOK_TIMEOUT_SECONDS/);
    expect(loadConfig({ WEBHOOK_CONCURRENCY: '64' }).WEBHOOK_CONCURRENCY).toBe(64);
    expect(() => loadConfig({ WEBHOOK_CONCURRENCY: '0' })).toThrow(/WEBHOOK_CONCURRENCY/);
    // Slots per account and demotion (issue #28, item 8); allowed ports (item 12).
    expect(loadConfig({})).toMatchObject({ WEBHOOK_MAX_CONCURRENT_PER_ACCOUNT: 4, WEBHOOK_DEMOTE_AFTER: 3 });
    expect(loadConfig({}).WEBHOOK_ALLOWED_PORTS).toBeUndefined();
    expect(loadConfig({ WEBHOOK_ALLOWED_PORTS: '443,8000-8999' }).WEBHOOK_ALLOWED_PORTS).toEqual([
      [443, 443],
      [8000, 8999],
    ]);
    expect(() => loadConfig({ WEBHOOK_ALLOWED_PORTS: '70000' })).toThrow(/WEBHOOK_ALLOWED_PORTS/);
    expect(() => loadConfig({ WEBHOOK_MAX_CONCURRENT_PER_ACCOUNT: '0' })).toThrow(
      /WEBHOOK_MAX_CONCURRENT_PER_ACCOUNT/,
    );
  });

  it('keeps feed events 21 days unless told otherwise, and never less than the longest correspondence period and a day', () => {
    expect(loadConfig({}).FEED_RETENTION_DAYS).toBe(21);
    expect(loadConfig({ FEED_RETENTION_DAYS: '15' }).FEED_RETENTION_DAYS).toBe(15);
    expect(() => loadConfig({ FEED_RETENTION_DAYS: '14' })).toThrow(/FEED_RETENTION_DAYS/);
    expect(() => loadConfig({ FEED_RETENTION_DAYS: '7' })).toThrow(/FEED_RETENTION_DAYS/);
  });

  it('reads the edge settings: trust proxy, CORS origins, readiness grace, metrics token, server limits', () => {
    expect(loadConfig({})).toMatchObject({
      TRUST_PROXY: false,
      CORS_ORIGINS: [],
      READY_GRACE_SECONDS: 5,
      HTTP_HEADERS_TIMEOUT_SECONDS: 20,
      HTTP_REQUEST_TIMEOUT_SECONDS: 60,
      HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: 65,
      HTTP_MAX_CONNECTIONS: 10000,
    });
    expect(loadConfig({}).METRICS_TOKEN).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8, fd00::/8' }).TRUST_PROXY).toBe(
      'loopback,10.0.0.0/8,fd00::/8',
    );
    expect(
      loadConfig({ CORS_ORIGINS: 'https://app.example.com, http://localhost:3000' }).CORS_ORIGINS,
    ).toEqual(['https://app.example.com', 'http://localhost:3000']);
    expect(() => loadConfig({ TRUST_PROXY: 'yes please' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ CORS_ORIGINS: 'app.example.com' })).toThrow(/CORS_ORIGINS/);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  });

  it('reads the GraphQL query budgets: 2000 ms and 4 MiB by default, refused out of range', () => {
    expect(loadConfig({})).toMatchObject({
      GRAPHQL_MAX_OPERATION_MS: 2000,
      GRAPHQL_MAX_RESPONSE_BYTES: 4 * 1024 * 1024,
    });
    expect(
      loadConfig({ GRAPHQL_MAX_OPERATION_MS: '500', GRAPHQL_MAX_RESPONSE_BYTES: '100000' }),
    ).toMatchObject({ GRAPHQL_MAX_OPERATION_MS: 500, GRAPHQL_MAX_RESPONSE_BYTES: 100_000 });
    expect(() => loadConfig({ GRAPHQL_MAX_OPERATION_MS: '0' })).toThrow(/GRAPHQL_MAX_OPERATION_MS/);
    expect(() => loadConfig({ GRAPHQL_MAX_RESPONSE_BYTES: '10' })).toThrow(/GRAPHQL_MAX_RESPONSE_BYTES/);
  });

  it('reads the quotas', () => {
    expect(loadConfig({})).toMatchObject({
      MAX_ONGOING_GAMES_PER_ACCOUNT: 200,
      MAX_TOKENS_PER_ACCOUNT: 50,
      MAX_ACCOUNTS_PER_IP_PER_DAY: 50,
      MAX_GAMES_PER_IP_PER_DAY: 1000,
      MAX_OPEN_TOURNAMENTS_PER_ACCOUNT: 10,
      TOURNAMENT_OPEN_HOURS: 48,
      MAX_OPEN_CHALLENGES_PER_ACCOUNT: 50,
      MAX_OPEN_CHALLENGES_PER_PAIR: 3,
      MAX_BLOCKS_PER_ACCOUNT: 1000,
      FEED_MAX_EVENTS: 10_000,
      MAX_AI_GAMES_PER_IP_PER_DAY: 100,
      MAX_ANON_AI_GAMES_PER_IP: 5,
      AI_MAX_TURNS_PER_OWNER: 2,
    });
    expect(loadConfig({ MAX_TOKENS_PER_ACCOUNT: '5' }).MAX_TOKENS_PER_ACCOUNT).toBe(5);
    expect(() => loadConfig({ MAX_ONGOING_GAMES_PER_ACCOUNT: '0' })).toThrow(/MAX_ONGOING_GAMES_PER_ACCOUNT/);
  });

  it('reads the stream caps and the stalled-reader bound', () => {
    expect(loadConfig({})).toMatchObject({
      MAX_STREAMS_PER_IP: 100,
      MAX_STREAMS_PER_TOKEN: 50,
      STREAM_MAX_BUFFER_BYTES: 1024 * 1024,
    });
    expect(loadConfig({ MAX_STREAMS_PER_IP: '7' }).MAX_STREAMS_PER_IP).toBe(7);
    expect(() => loadConfig({ MAX_STREAMS_PER_TOKEN: '0' })).toThrow(/MAX_STREAMS_PER_TOKEN/);
    expect(() => loadConfig({ STREAM_MAX_BUFFER_BYTES: '10' })).toThrow(/STREAM_MAX_BUFFER_BYTES/);
  });
});
