// docker-compose.yml cannot be run here (no Docker engine): it is parsed and checked for what the
// `cluster` profile relies on, and the Boardhost nodes' environment goes through the real config.
import { accessSync, constants, readFileSync } from 'node:fs';
import { join } from 'node:path';
// A YAML parser already installed (a dependency of @asteasolutions/zod-to-openapi).
import { parse } from 'yaml';
import { loadConfig } from '../src/config';

interface Service {
  image?: string;
  build?: string;
  profiles?: string[];
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: string[] | Record<string, { condition: string }>;
  networks?: string[] | Record<string, { ipv4_address?: string } | null>;
  deploy?: { replicas?: number };
}
interface Compose {
  services: Record<string, Service>;
  networks: Record<string, { ipam: { config: { subnet: string }[] } }>;
  volumes: Record<string, unknown>;
}

const root = join(__dirname, '..');
const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as Compose;
const { services } = compose;
const service = (name: string): Service => {
  const found = services[name];
  if (!found) throw new Error(`no service ${name}`);
  return found;
};
const inCluster = Object.keys(services).filter((name) => service(name).profiles?.includes('cluster'));
const nodes = inCluster.filter((name) => /^redis-node-\d$/.test(name));
const address = (s: Service) =>
  (s.networks as Record<string, { ipv4_address?: string }>).cluster?.ipv4_address;
const dependencies = (s: Service) =>
  Array.isArray(s.depends_on) ? s.depends_on : Object.keys(s.depends_on ?? {});
/** A bind mount `./x:/y` as the host file it mounts. */
const mountedFile = (s: Service, target: string) => {
  const mount = s.volumes?.find((v) => v.split(':')[1] === target);
  return join(root, mount?.split(':')[0] ?? 'missing');
};

describe('docker-compose.yml', () => {
  it('keeps plain `docker compose up` as it was: one Redis and one app, no profile', () => {
    expect(service('redis').profiles).toBeUndefined();
    expect(service('app').profiles).toBeUndefined();
    expect(service('app').environment?.REDIS_URL).toBe('redis://redis:6379');
    expect(Object.keys(services).filter((name) => !service(name).profiles)).toEqual(['redis', 'app']);
  });

  it('has six cluster-enabled Redis nodes with their own volume and fixed address', () => {
    expect(nodes).toHaveLength(6);
    const [subnet] = compose.networks.cluster?.ipam.config ?? [];
    const addresses = nodes.map((name) => address(service(name)));
    expect(new Set(addresses).size).toBe(6);
    for (const name of nodes) {
      const node = service(name);
      expect(node.image).toMatch(/^redis:7/);
      expect(node.command?.join(' ')).toMatch(/^redis-server .*--cluster-enabled yes/);
      expect(node.volumes).toEqual([`${name}:/data`]);
      expect(name in compose.volumes).toBe(true);
      expect(address(node)?.startsWith(subnet?.subnet.split('.').slice(0, 3).join('.') ?? '-')).toBe(true);
    }
  });

  it('creates the cluster once every node is healthy, with one replica per master', () => {
    const init = service('redis-cluster-init');
    expect(init.command).toEqual(nodes.map((name) => `${name}:6379`));
    expect(init.depends_on).toEqual(
      Object.fromEntries(nodes.map((name) => [name, { condition: 'service_healthy' }])),
    );
    const script = mountedFile(init, '/redis-cluster-init.sh');
    expect(init.entrypoint).toEqual(['sh', '/redis-cluster-init.sh']);
    const text = readFileSync(script, 'utf8');
    expect(text).toContain('redis-cli --cluster create "$@" --cluster-replicas 1 --cluster-yes');
    expect(text).toContain('cluster_state:ok');
  });

  // The image sets NODE_ENV=production, where the server refuses to start without SECRET_KEY: compose
  // asks for it (`${SECRET_KEY:?…}` fails `docker compose up` with that message when unset).
  const production = (s: Service) => {
    const given = s.environment?.SECRET_KEY ?? '';
    expect(given).toMatch(/^\$\{SECRET_KEY:\?.+\}$/);
    expect(readFileSync(join(root, 'Dockerfile'), 'utf8')).toMatch(/ENV NODE_ENV=production/);
    expect(() => loadConfig({ ...s.environment, SECRET_KEY: undefined, NODE_ENV: 'production' })).toThrow(
      /SECRET_KEY/,
    );
    return { ...s.environment, NODE_ENV: 'production', SECRET_KEY: 'k'.repeat(48) };
  };

  it('asks for the server key the production image needs, on every Boardhost service', () => {
    for (const name of ['app', 'cluster-app'])
      expect(loadConfig(production(service(name))).SECRET_KEY).toHaveLength(48);
  });

  it('runs two Boardhost nodes on the cluster, with a configuration the server accepts', () => {
    const app = service('cluster-app');
    expect(app.deploy?.replicas).toBe(2);
    expect(app.ports).toBeUndefined(); // scaled: only the load balancer has a host port
    expect(app.depends_on).toEqual({ 'redis-cluster-init': { condition: 'service_completed_successfully' } });
    const config = loadConfig(production(app));
    expect(config.REDIS_URL).toBeUndefined();
    for (const seed of config.REDIS_CLUSTER_NODES ?? []) expect(nodes).toContain(seed.split(':')[0]);
    expect(config.TRUST_PROXY).toBe(address(service('cluster-lb')));
  });

  it('puts HAProxy in front of every node, checking readiness', () => {
    const lb = service('cluster-lb');
    const cfg = readFileSync(mountedFile(lb, '/usr/local/etc/haproxy/haproxy.cfg'), 'utf8');
    const port = loadConfig(service('cluster-app').environment).PORT;
    expect(cfg).toMatch(new RegExp(`server-template \\S+ \\S+ cluster-app:${port} check resolvers docker`));
    expect(cfg).toContain('uri /readyz');
    const [published] = lb.ports ?? [];
    expect(cfg).toContain(`bind :${published?.split(':')[1]}`);
  });

  it('depends only on services of the same profile, or of none', () => {
    for (const name of Object.keys(services)) {
      for (const dependency of dependencies(service(name))) {
        const theirs = service(dependency).profiles;
        if (theirs) expect(service(name).profiles).toEqual(theirs);
      }
    }
  });

  it('mounts files that exist', () => {
    for (const s of Object.values(services)) {
      for (const volume of s.volumes ?? []) {
        if (volume.startsWith('./')) accessSync(join(root, volume.split(':')[0] as string), constants.R_OK);
      }
    }
  });
});
