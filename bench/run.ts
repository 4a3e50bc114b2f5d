// npm run bench -- <perft|api> [args]: benchmarks, never part of `npm test`.
import { runApiBench } from './api';
import { runPerftBench } from './perft';

const [which, ...rest] = process.argv.slice(2);
switch (which) {
  case 'perft':
    runPerftBench(rest);
    break;
  case 'api':
    runApiBench(rest).then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`api bench failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
    break;
  default:
    console.error('usage: npm run bench -- <perft [kind]|api>');
    process.exit(2);
}
