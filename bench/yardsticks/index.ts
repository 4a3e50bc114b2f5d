import type { BenchCase } from '../perft';
import { chessopsPerft } from './chessops';
import { rapidDraughtsPerft } from './rapid-draughts';

// Other JavaScript move generators, measured in the same run as ours (see each file's header).
export const YARDSTICKS: readonly BenchCase[] = [rapidDraughtsPerft, chessopsPerft];
