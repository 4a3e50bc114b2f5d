import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { GameError } from '../errors';

// Where webhooks may be sent (SSRF guard). An endpoint must be http(s) and every address its host
// resolves to must be public: not loopback, private, link-local, unique-local, CGNAT, multicast,
// documentation, benchmarking or otherwise reserved. Unless private targets are allowed (tests,
// private deployments), the check runs when an endpoint is registered and again for each
// delivery, on the addresses the connection then uses (so DNS that changes its answer later,
// "DNS rebinding", is caught too).
//
// The matching is node:net's BlockList (maintained with Node, no dependency); the table below is
// the IANA IPv4 and IPv6 special-purpose address registries. ipaddr.js was the alternative: its
// current 2.x would need an install, and the 1.9.1 that express brings along (from 2019) lacks
// ranges such as 198.18.0.0/15. IPv6 must also be global unicast
// (2000::/3), which leaves out ::, ::1, IPv4-mapped and -compatible forms, NAT64, fc00::/7,
// fe80::/10 and ff00::/8.
//
// Ports are limited too (WEBHOOK_ALLOWED_PORTS, default 80, 443, 8080 and 8443; any port when
// private targets are allowed and no list is set), so that endpoints cannot probe the other
// services of a public host. A refusal does not say what a host resolved to (that would map
// internal DNS for the caller): the answer and the delivery log say the target is not allowed,
// and the details (host, address, range) go to the server log (`onTargetRefused`).

const SPECIAL_RANGES: ReadonlyArray<readonly [label: string, ranges: ReadonlyArray<string>]> = [
  ['this network', ['0.0.0.0/8']],
  ['private', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16']],
  ['carrier-grade NAT', ['100.64.0.0/10']],
  ['loopback', ['127.0.0.0/8', '::1/128']],
  ['link-local', ['169.254.0.0/16', 'fe80::/10']],
  ['unique-local', ['fc00::/7']],
  ['multicast', ['224.0.0.0/4', 'ff00::/8']],
  [
    'reserved',
    [
      '192.0.0.0/24',
      '192.0.2.0/24',
      '192.88.99.0/24',
      '198.18.0.0/15',
      '198.51.100.0/24',
      '203.0.113.0/24',
      '240.0.0.0/4',
      '2001::/23',
      '2001:db8::/32',
      '2002::/16',
    ],
  ],
];

const BLOCKS = SPECIAL_RANGES.map(([label, ranges]) => {
  const list = new BlockList();
  for (const range of ranges) {
    const [network, prefix] = range.split('/') as [string, string];
    list.addSubnet(network, Number(prefix), network.includes(':') ? 'ipv6' : 'ipv4');
  }
  return { label, list };
});

const GLOBAL_UNICAST = new BlockList();
GLOBAL_UNICAST.addSubnet('2000::', 3, 'ipv6');

/** Why an IP address is not a public one (loopback, private…), or undefined when it is public. */
export function nonPublicRange(address: string): string | undefined {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(ip);
  if (family === 0) return 'not an IP address';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  // IPv4 rules also match IPv4-mapped IPv6 addresses (::ffff:10.0.0.1): the label is the IPv4 one.
  for (const { label, list } of BLOCKS) if (list.check(ip, type)) return label;
  if (type === 'ipv6' && !GLOBAL_UNICAST.check(ip, 'ipv6')) return 'not global unicast';
  return undefined;
}

/** What the server log gets of a refused target (the answer leaves out the address and range). */
export interface TargetRefusal {
  readonly host: string;
  readonly address?: string;
  readonly range?: string;
  readonly port?: number;
}

let refusalLog: ((refusal: TargetRefusal) => void) | undefined;

/** Sets where refused targets are reported in full (the app's logger); one per process. */
export function onTargetRefused(log: ((refusal: TargetRefusal) => void) | undefined): void {
  refusalLog = log;
}

/** The generic text of a refused address, in answers and in the delivery log. */
export const UNSAFE_ADDRESS_MESSAGE = 'The webhook URL is not allowed: webhooks go to public addresses only';

/** The refusal for an address the guard does not allow: generic, the details logged. */
export function unsafeAddress(host: string, address: string, range: string): GameError {
  refusalLog?.({ host, address, range });
  return new GameError('UNSAFE_WEBHOOK_URL', UNSAFE_ADDRESS_MESSAGE, { host });
}

/** Ports allowed by default when private targets are not (WEBHOOK_ALLOWED_PORTS). */
export const DEFAULT_ALLOWED_PORTS = '80,443,8080,8443';

/** Allowed ports: ranges [from, to], inclusive. */
export type PortRanges = ReadonlyArray<readonly [number, number]>;

/** `80,443,8000-8999` as ranges; throws on anything else. */
export function parsePorts(spec: string): PortRanges {
  const ranges = spec
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(part);
      const [from, to] = [Number(m?.[1]), Number(m?.[2] ?? m?.[1])];
      if (!m || from < 1 || to > 65535 || from > to) throw new Error(`"${part}" is not a port or range`);
      return [from, to] as const;
    });
  if (ranges.length === 0) throw new Error('must list ports');
  return ranges;
}

/** Where webhooks may go: private addresses or not, and which ports (undefined: see portsOf). */
export interface TargetPolicy {
  readonly allowPrivate: boolean;
  readonly ports?: PortRanges;
}

/** The ports a policy allows: its list, else the defaults, or any when private targets are allowed. */
export function portsOf(policy: TargetPolicy): PortRanges | undefined {
  return policy.ports ?? (policy.allowPrivate ? undefined : parsePorts(DEFAULT_ALLOWED_PORTS));
}

/** The URL's port (the scheme's when none is written). */
export function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/** The refusal of a URL whose port the policy does not allow, or undefined. */
export function portRefusal(url: URL, policy: TargetPolicy): GameError | undefined {
  const ports = portsOf(policy);
  const port = portOf(url);
  if (!ports || ports.some(([from, to]) => port >= from && port <= to)) return undefined;
  refusalLog?.({ host: hostOf(url), port });
  const allowed = ports.map(([from, to]) => (from === to ? `${from}` : `${from}-${to}`)).join(', ');
  return new GameError(
    'UNSAFE_WEBHOOK_URL',
    `The webhook URL is not allowed: webhooks go to ports ${allowed} only`,
    {
      host: hostOf(url),
      port,
    },
  );
}

/** A webhook URL, checked for shape (http or https, no credentials, no fragment). */
export function parseWebhookUrl(input: string): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new GameError('INVALID_INPUT', 'url must be an absolute http or https URL', { field: 'url' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new GameError('INVALID_INPUT', 'url must use http or https', { field: 'url' });
  }
  if (url.username || url.password) {
    throw new GameError('INVALID_INPUT', 'url must not carry credentials; deliveries are signed instead', {
      field: 'url',
    });
  }
  if (url.hash) throw new GameError('INVALID_INPUT', 'url must not have a #fragment', { field: 'url' });
  if (input.length > 2000) throw new GameError('INVALID_INPUT', 'url is too long', { field: 'url' });
  return url;
}

/** The URL's host as DNS and sockets want it (IPv6 literals without brackets). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

type Resolve = (host: string) => Promise<readonly LookupAddress[]>;

/** Every address the system resolver gives for `host` (the ones a connection may use). */
export const resolveAll: Resolve = (host) =>
  new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    );
  });

/**
 * Refuses (UNSAFE_WEBHOOK_URL) a URL whose port is not allowed, or whose host is, or resolves to,
 * any non-public address; a host that does not resolve is INVALID_INPUT. Addresses are not checked
 * when private targets are allowed.
 */
export async function checkWebhookTarget(
  url: URL,
  target: boolean | TargetPolicy,
  resolve = resolveAll,
): Promise<void> {
  const policy = typeof target === 'boolean' ? { allowPrivate: target } : target;
  const refused = portRefusal(url, policy);
  if (refused) throw refused;
  if (policy.allowPrivate) return;
  const host = hostOf(url);
  let addresses: readonly string[];
  if (isIP(host) !== 0) {
    addresses = [host];
  } else {
    try {
      addresses = (await resolve(host)).map((a) => a.address);
    } catch (error) {
      throw new GameError(
        'INVALID_INPUT',
        `The host ${host} does not resolve (${(error as Error).message})`,
        {
          field: 'url',
        },
      );
    }
  }
  for (const address of addresses) {
    const range = nonPublicRange(address);
    if (range) throw unsafeAddress(host, address, range);
  }
}

/**
 * A `lookup` for http.request that resolves like the system resolver and fails the connection
 * when any address is not public, so a delivery connects only to addresses that were checked.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    const all: LookupAllOptions = { ...options, all: true };
    dnsLookup(hostname, all, (error, addresses) => {
      if (error) return callback(error, '', 0);
      if (!allowPrivate) {
        for (const { address } of addresses) {
          const range = nonPublicRange(address);
          if (range) return callback(unsafeAddress(hostname, address, range), '', 0);
        }
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(new Error(`${hostname} resolves to no address`), '', 0);
      callback(null, first.address, first.family);
    });
  };
}
