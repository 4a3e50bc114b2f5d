// npm run bench -- <perft|api|webhooks> [args]: benchmarks, never part of `npm test`.
import { runApiBench } from './api';
import { runPerftBench } from './perft';
import { runWebhooksBench } from './webhooks';

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
  case 'webhooks':
    runWebhooksBench().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`webhooks bench failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
    break;
  default:
    console.error('usage: npm run bench -- <perft [kind]|api|webhooks>');
    process.exit(2);
}
