// The SSRF guard's address table and URL checks, without any network traffic (DNS is injected).
import { GameError } from '../../src/service/errors';
import { checkWebhookTarget, nonPublicRange, parseWebhookUrl } from '../../src/service/webhook-address';

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
    expect(mixed.details).toEqual({ host: 'hooks.example.com', address: '10.0.0.5', range: 'private' });
    const v6 = await refusal(checkWebhookTarget(url, false, resolver(['2606:4700::1', '::1'])));
    expect(v6.details.range).toBe('loopback');
  });

  it('checks literal addresses without DNS, and calls a host that does not resolve invalid', async () => {
    const noDns = async () => {
      throw new Error('DNS must not be asked');
    };
    const literal = await refusal(checkWebhookTarget(new URL('http://[::1]:9/'), false, noDns));
    expect(literal.details).toEqual({ host: '::1', address: '::1', range: 'loopback' });
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
});
