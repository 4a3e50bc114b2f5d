import { createRedisStorage } from '../../src/store/redis';
import { deletePrefix, REDIS_URL, uniquePrefix } from '../support/redis';
import { describeStoreContract } from './store-contract';

// Each open() gets its own key prefix, so that tests that need an empty keyspace can have one.
const prefixes: string[] = [];
afterAll(() => Promise.all(prefixes.map((p) => deletePrefix(p))));

describeStoreContract('redis', () => {
  const prefix = uniquePrefix('store');
  prefixes.push(prefix);
  return createRedisStorage(REDIS_URL, prefix);
});
