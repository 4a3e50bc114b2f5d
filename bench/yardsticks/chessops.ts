// Yardstick: chessops (niklasf, v0.15.1) chess perft from the standard start position, depth 5
// (4 865 609 nodes), with chessops' own bulk-counting `perft` from its debug module.
// Its CommonJS build is unusable on Node 20 (dist/cjs/*.js sit under "type": "module", so Node
// loads them as ES modules and their `require('./fen.js')` calls fail). Node ≥ 20.19 can
// require() an ES module synchronously, so we load the ESM build by file path instead.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { BenchCase } from '../perft';

interface ChessopsPosition {
  readonly turn: string;
}
interface ChessopsChess {
  readonly Chess: { default(): ChessopsPosition };
}
interface ChessopsDebug {
  readonly perft: (pos: ChessopsPosition, depth: number, log?: boolean) => number;
}

const DEPTH = 5;

function loadChessops(): { chess: ChessopsChess; debug: ChessopsDebug } {
  const load = createRequire(__filename);
  const esm = join(dirname(load.resolve('chessops')), '..', 'esm');
  return {
    chess: load(join(esm, 'chess.js')) as ChessopsChess,
    debug: load(join(esm, 'debug.js')) as ChessopsDebug,
  };
}

export const chessopsPerft: BenchCase = {
  name: `chessops perft(${DEPTH}) (congo yardstick)`,
  run: () => {
    const { chess, debug } = loadChessops(); // cached by the module loader after the first run
    return debug.perft(chess.Chess.default(), DEPTH);
  },
};
