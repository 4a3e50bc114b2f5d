import { search } from './index';
import type { SearchRequest, SearchResult } from './types';

// The worker thread's task (piscina calls the export named `run`): one search, JSON in and out.
export function run(request: SearchRequest): SearchResult {
  return search(request);
}
