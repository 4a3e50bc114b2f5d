// npm run bench -- <perft|ai|ai-load|api|api-cost|listings|fanout|connections|webhooks|events|delivery|migrate> [args]: benchmarks, never part of `npm test`.
import { runAiBench } from './ai';
import { runAiLoadBench } from './ai-load';
import { runApiBench } from './api';
import { runApiCostBench } from './api-cost';
import { runConnectionsBench } from './connections';
import { runDeliveryBench } from './delivery';
import { runEventsBench } from './events';
import { runFanoutBench } from './fanout';
import { runListingsBench } from './listings';
import { runMigrateBench } from './migrate';
import { runPerftBench } from './perft';
import { runWebhooksBench } from './webhooks';

/** Runs an async bench and exits with its outcome. */
function run(name: string, bench: Promise<void>): void {
  bench.then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`${name} bench failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}

const [which, ...rest] = process.argv.slice(2);
switch (which) {
  case 'perft':
    runPerftBench(rest);
    break;
  case 'ai':
    run('ai', runAiBench(rest));
    break;
  case 'api':
    run('api', runApiBench(rest));
    break;
  case 'api-cost':
    run('api-cost', runApiCostBench());
    break;
  case 'listings':
    run('listings', runListingsBench(rest));
    break;
  case 'fanout':
    run('fanout', runFanoutBench(rest));
    break;
  case 'connections':
    run('connections', runConnectionsBench(rest));
    break;
  case 'migrate':
    run('migrate', runMigrateBench(rest));
    break;
  case 'webhooks':
    run('webhooks', runWebhooksBench());
    break;
  case 'events':
    run('events', runEventsBench());
    break;
  case 'delivery':
    run('delivery', runDeliveryBench());
    break;
  case 'ai-load':
    run('ai-load', runAiLoadBench(rest));
    break;
  default:
    console.error(
      'usage: npm run bench -- <perft [kind]|ai [speed|ladder|kalah]|ai-load [seconds]|api|api-cost|listings [games…]|fanout [watchers…]|connections [counts…]|webhooks|events|delivery|migrate [games…]>',
    );
    process.exit(2);
}
