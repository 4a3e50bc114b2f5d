// Runs every perft fixture in test/fixtures/perft/*.perft against the registered engines.
// Format (one block per position, blocks separated by blank lines):
//   # Source: where the numbers come from (required: never bless numbers only our engine produced)
//   id <name>
//   kind <game kind>
//   options <JSON>            (optional)
//   position <position>       (optional; default: the start position)
//   perft <depth> <nodes>     (one line per depth)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fastPerft, perft } from '../../src/engines/perft';
import { getEngine } from '../../src/engines/kinds';

/** Depths whose expected count exceeds this run through the engine's fast path only. */
const GENERIC_NODE_CAP = 300_000;

interface PerftBlock {
  file: string;
  id: string;
  kind: string;
  options: unknown;
  position?: string;
  source: string;
  counts: Array<[number, number]>;
}

function readFixtures(): PerftBlock[] {
  const dir = join(__dirname, '..', 'fixtures', 'perft');
  const blocks: PerftBlock[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.perft'))) {
    let source = '';
    for (const chunk of readFileSync(join(dir, file), 'utf8').split(/\n\s*\n/)) {
      const block: Partial<PerftBlock> & { counts: Array<[number, number]> } = { file, counts: [] };
      for (const line of chunk.split('\n').map((l) => l.trim())) {
        if (line.startsWith('# Source:')) source = line.slice('# Source:'.length).trim();
        else if (line.startsWith('#') || line === '') continue;
        else {
          const [key, ...rest] = line.split(' ');
          const value = rest.join(' ');
          if (key === 'id') block.id = value;
          else if (key === 'kind') block.kind = value;
          else if (key === 'options') block.options = JSON.parse(value);
          else if (key === 'position') block.position = value;
          else if (key === 'perft') block.counts.push([Number(rest[0]), Number(rest[1])]);
          else throw new Error(`${file}: unknown line ${line}`);
        }
      }
      if (!block.id) continue;
      blocks.push({ ...block, source, options: block.options ?? {} } as PerftBlock);
    }
  }
  return blocks;
}

const fixtures = readFixtures();

describe('perft fixtures', () => {
  it('every fixture names its source and a registered game kind', () => {
    for (const block of fixtures) {
      expect(block.source).toMatch(/\S/);
      expect(getEngine(block.kind)).toBeDefined();
    }
  });

  describe.each(fixtures.map((b) => [`${b.file} ${b.id}`, b] as const))('%s', (_name, block) => {
    it.each(block.counts)('perft(%i) = %i', (depth, nodes) => {
      const engine = getEngine(block.kind);
      if (!engine) throw new Error(`no engine for ${block.kind}`);
      const options = engine.parseOptions(block.options);
      if (!options.ok) throw new Error(options.error.message);
      let state = engine.setup(options.value);
      if (block.position) {
        const parsed = engine.parseState(block.position, options.value);
        if (!parsed.ok) throw new Error(parsed.error.message);
        state = parsed.value;
      }
      expect(fastPerft(engine, state, depth)).toBe(nodes);
      if (nodes <= GENERIC_NODE_CAP) expect(perft(engine, state, depth)).toBe(nodes);
    });
  });
});
