// A search worker for tests that takes all the time it is given: it waits `timeMs`, then answers
// the real search's quickest move (depth 1). Tests of clocks and of a busy pool use it, so that
// they hold whatever search the AI has.
import { search } from '../../../src/ai/index';
import type { SearchRequest, SearchResult } from '../../../src/ai/types';

export function run(request: SearchRequest): SearchResult {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, request.timeMs ?? 0);
  return search({ ...request, depth: 1, timeMs: 1 });
}
