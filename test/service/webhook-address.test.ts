// The SSRF guard's address table and URL checks, without any network traffic (DNS is injected).
import { GameError } from '../../src/service/errors';
import {
  checkWebhookTarget,
  nonPublicRange,
  onTargetRefused,
  parsePorts,
  parseWebhookUrl,
  type TargetRefusal,
} from '../../src/service/delivery/webhook-address';
import { WebhookSender } from '../../src/service/delivery/webhook-sender';

/** What the server log was told of refused targets during the test. */
const logged: TargetRefusal[] = [];
beforeAll(() => onTargetRefused((refusal) => logged.push(refusal)));
afterAll(() => onTargetRefused(undefined));
beforeEach(() => {
  logged.length = 0;
});

describe('which addresses webhooks may reach', () => {
  it.each([
    ['0.0.0.0', 'this network'],
    ['0.1.2.3', 'this network'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['224.0.0.251', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['203.0.113.7', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'not global unicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:8.8.8.8', 'not global unicast'],
    ['::127.0.0.1', 'not global unicast'],
    ['64:ff9b::a00:1', 'not global unicast'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['[fe80::1]', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['2002:a00:1::1', 'reserved'],
    ['2001:0:4136:e378::1', 'reserved'],
    ['localhost', 'not an IP address'],
  ])('%s is not public (%s)', (address, range) => {
    expect(nonPublicRange(address)).toBe(range);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2a00:1450::1',
  ])('%s is public', (address) => {
    expect(nonPublicRange(address)).toBeUndefined();
  });
});

describe('webhook URLs', () => {
  const refusal = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (error) {
      return error as GameError;
    }
    throw new Error('not refused');
  };
  const resolver = (addresses: string[]) => async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('takes http and https URLs without credentials or fragments', () => {
    expect(parseWebhookUrl('https://hooks.example.com:8443/in?x=1').href).toBe(
      'https://hooks.example.com:8443/in?x=1',
    );
    for (const url of [
      'ftp://a.example/',
      'file:///etc/passwd',
      'http://u:p@a.example/',
      'http://a.example/#f',
      '/relative',
    ]) {
      expect(() => parseWebhookUrl(url)).toThrow(GameError);
    }
    expect(() => parseWebhookUrl(`http://a.example/${'x'.repeat(2000)}`)).toThrow(/too long/);
  });

  it('refuses a host when any of its addresses is not public', async () => {
    const url = new URL('https://hooks.example.com/in');
    await expect(checkWebhookTarget(url, false, resolver(['93.184.215.14']))).resolves.toBeUndefined();
    const mixed = await refusal(checkWebhookTarget(url, false, resolver(['93.184.215.14', '10.0.0.5'])));
    expect(mixed.code).toBe('UNSAFE_WEBHOOK_URL');
    // The answer does not say what the host resolved to; the server log does.
    expect(mixed.details).toEqual({ host: 'hooks.example.com' });
    expect(mixed.message).toBe('The webhook URL is not allowed: webhooks go to public addresses only');
    expect(mixed.message).not.toMatch(/10\.0\.0\.5|private/);
    const v6 = await refusal(checkWebhookTarget(url, false, resolver(['2606:4700::1', '::1'])));
    expect(v6.details).toEqual({ host: 'hooks.example.com' });
    expect(logged).toEqual([
      { host: 'hooks.example.com', address: '10.0.0.5', range: 'private' },
      { host: 'hooks.example.com', address: '::1', range: 'loopback' },
    ]);
  });

  it('checks literal addresses without DNS, and calls a host that does not resolve invalid', async () => {
    const noDns = async () => {
      throw new Error('DNS must not be asked');
    };
    const literal = await refusal(checkWebhookTarget(new URL('http://[::1]:8080/'), false, noDns));
    expect(literal.details).toEqual({ host: '::1' });
    expect(logged).toEqual([{ host: '::1', address: '::1', range: 'loopback' }]);
    await expect(checkWebhookTarget(new URL('http://8.8.8.8/'), false, noDns)).resolves.toBeUndefined();
    const missing = await refusal(
      checkWebhookTarget(new URL('http://nowhere.invalid/'), false, async () => {
        throw new Error('getaddrinfo ENOTFOUND nowhere.invalid');
      }),
    );
    expect(missing.code).toBe('INVALID_INPUT');
    expect(missing.message).toMatch(/does not resolve/);
  });

  it('checks nothing when private targets are allowed', async () => {
    const noDns = async () => {
      throw new Error('DNS must not be asked');
    };
    await expect(checkWebhookTarget(new URL('http://10.0.0.1/'), true, noDns)).resolves.toBeUndefined();
  });

  it('limits ports: 80, 443, 8080 and 8443 by default, any when private targets are allowed, else the list', async () => {
    const noDns = async () => [{ address: '93.184.215.14', family: 4 }];
    for (const ok of [
      'http://8.8.8.8/',
      'https://8.8.8.8/',
      'http://h.example:8080/',
      'https://h.example:8443/x',
    ]) {
      await expect(checkWebhookTarget(new URL(ok), false, noDns)).resolves.toBeUndefined();
    }
    for (const port of [22, 25, 6379, 8081, 65535]) {
      const refused = await refusal(checkWebhookTarget(new URL(`http://h.example:${port}/`), false, noDns));
      expect(refused.code).toBe('UNSAFE_WEBHOOK_URL');
      expect(refused.details).toEqual({ host: 'h.example', port });
      expect(refused.message).toBe(
        'The webhook URL is not allowed: webhooks go to ports 80, 443, 8080, 8443 only',
      );
    }
    // Private targets allowed (tests, closed networks), no list: any port.
    await expect(
      checkWebhookTarget(new URL('http://127.0.0.1:41234/'), true, noDns),
    ).resolves.toBeUndefined();
    // A list applies either way.
    const ports = parsePorts('443, 9000-9100');
    expect(ports).toEqual([
      [443, 443],
      [9000, 9100],
    ]);
    await expect(
      checkWebhookTarget(new URL('http://127.0.0.1:9050/'), { allowPrivate: true, ports }, noDns),
    ).resolves.toBeUndefined();
    const outside = await refusal(
      checkWebhookTarget(new URL('http://127.0.0.1:41234/'), { allowPrivate: true, ports }, noDns),
    );
    expect(outside.message).toMatch(/ports 443, 9000-9100 only/);
    for (const bad of ['', '0', '65536', '80-22', 'http', '1,,x']) expect(() => parsePorts(bad)).toThrow();
  });

  it('the delivery log gets the same generic refusals, at delivery time', async () => {
    const sender = new WebhookSender({ allowPrivate: false, timeoutMs: 1000 });
    try {
      const literal = await sender.post('http://10.0.0.7:8080/in', '{}', {});
      expect(literal.error).toBe(
        'refused: The webhook URL is not allowed: webhooks go to public addresses only',
      );
      const port = await sender.post('http://8.8.8.8:22/', '{}', {});
      expect(port.error).toBe(
        'refused: The webhook URL is not allowed: webhooks go to ports 80, 443, 8080, 8443 only',
      );
      const named = await sender.post('http://localhost:8080/in', '{}', {});
      expect(named.error).toBe('The webhook URL is not allowed: webhooks go to public addresses only');
      expect(logged).toEqual([
        { host: '10.0.0.7', address: '10.0.0.7', range: 'private' },
        { host: '8.8.8.8', port: 22 },
        { host: 'localhost', address: expect.stringMatching(/^(127\.|::1)/), range: 'loopback' },
      ]);
    } finally {
      sender.stop();
    }
  });
});
