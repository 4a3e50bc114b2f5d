import type { BenchCase } from '../perft';

// Other JavaScript move generators, measured in the same run as ours (see each file's header).
export const YARDSTICKS: readonly BenchCase[] = [];
