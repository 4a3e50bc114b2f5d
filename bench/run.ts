// npm run bench -- <perft|api> [args]: benchmarks, never part of `npm test`.
import { runPerftBench } from './perft';

const [which, ...rest] = process.argv.slice(2);
switch (which) {
  case 'perft':
    runPerftBench(rest);
    break;
  default:
    console.error('usage: npm run bench -- <perft [kind]|api>');
    process.exit(2);
}
