import { createRedisStorage } from '../../src/store/redis';
import { deletePrefix, REDIS_URL, uniquePrefix } from '../support/redis';
import { describeStoreContract } from './store-contract';

const prefix = uniquePrefix('store');
afterAll(() => deletePrefix(prefix));

describeStoreContract('redis', () => createRedisStorage(REDIS_URL, prefix));
