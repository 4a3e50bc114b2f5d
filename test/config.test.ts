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
});
