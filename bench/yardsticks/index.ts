import type { BenchCase } from '../perft';
import { chessopsPerft } from './chessops';

// Other JavaScript move generators, measured in the same run as ours (see each file's header).
export const YARDSTICKS: readonly BenchCase[] = [chessopsPerft];
