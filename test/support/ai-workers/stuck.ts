// A search worker that never answers (a node that died mid-thought): tests of the turn driver's
// take-over by another node use it.
import type { SearchRequest } from '../../../src/ai/types';

export function run(_request: SearchRequest): never {
  for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
}
