// npm run perft -- <kind> --depth N [--position P] [--options JSON] [--divide]
// Prints one node count per depth 1..N (or `move count` per root move with --divide).
import { parseArgs } from 'node:util';
import { divide, fastPerft } from '../src/engines/perft';
import { getEngine, kindIds } from '../src/engines/kinds';

function fail(message: string): never {
  process.stderr.write(`perft: ${message}\n`);
  process.exit(2);
}

function main(argv: string[]): void {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      depth: { type: 'string', short: 'd' },
      position: { type: 'string', short: 'p' },
      options: { type: 'string', short: 'o' },
      divide: { type: 'boolean', default: false },
    },
  });
  const kind = positionals[0];
  const engine = kind ? getEngine(kind) : undefined;
  if (!engine)
    fail(`usage: perft <${kindIds().join('|')}> --depth N [--position P] [--options JSON] [--divide]`);
  const depth = Number(values.depth ?? '1');
  if (!Number.isInteger(depth) || depth < 0) fail(`--depth must be a whole number, got ${values.depth}`);
  let rawOptions: unknown = {};
  if (values.options) {
    try {
      rawOptions = JSON.parse(values.options);
    } catch {
      fail(`--options is not JSON: ${values.options}`);
    }
  }
  const options = engine.parseOptions(rawOptions);
  if (!options.ok) fail(options.error.message);
  let state = engine.setup(options.value);
  if (values.position) {
    // Without --options, a mancala position gives its own houses and seeds per house.
    const parsed = engine.parseState(values.position, values.options ? options.value : undefined);
    if (!parsed.ok) fail(parsed.error.message);
    state = parsed.value;
  }
  if (values.divide) {
    let total = 0;
    for (const [move, count] of divide(engine, state, depth)) {
      process.stdout.write(`${move} ${count}\n`);
      total += count;
    }
    process.stdout.write(`total ${total}\n`);
    return;
  }
  for (let d = 1; d <= depth; d++) process.stdout.write(`${fastPerft(engine, state, d)}\n`);
}

main(process.argv.slice(2));
