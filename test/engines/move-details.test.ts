// Every engine's describeMove: tagged with its kind's board family, and exactly the public
// MoveDetails schema (REST validates answers against it; GraphQL resolves the union from `family`).
import type { z } from 'zod';
import type { MoveDetails as EngineMoveDetails } from '../../src/engines/move-details';
import { KINDS } from '../../src/engines/kinds';
import { toMoveView } from '../../src/service/game/view';
import { familyOf, MoveDetails } from '../../src/service/views/move-details';
import type { DeepReadonly } from '../../src/service/views/schema';
import { randomPlayout } from './contract';

// Compile-time: the engines' MoveDetails type and the view schema's declare the same shapes.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const sameShapes: Equal<DeepReadonly<z.infer<typeof MoveDetails>>, EngineMoveDetails> = true;

describe.each(KINDS.map(({ engine }) => [engine.kind, engine] as const))(
  '%s describeMove',
  (kind, engine) => {
    const parsed = engine.parseOptions({});
    if (!parsed.ok) throw new Error(parsed.error.message);
    const options = parsed.value;

    it("tags every legal move's details with the kind's family, in the MoveDetails schema", () => {
      expect(sameShapes).toBe(true);
      let described = 0;
      for (const seed of [1, 2, 3]) {
        for (const state of randomPlayout(engine, options, seed, 60)) {
          for (const move of engine.moves(state)) {
            const details = engine.describeMove?.(state, move);
            expect(details?.family).toBe(familyOf(kind));
            const checked = MoveDetails.safeParse(details);
            if (!checked.success)
              throw new Error(`${kind}: ${JSON.stringify(details)}: ${checked.error.message}`);
            described += 1;
          }
        }
      }
      expect(described).toBeGreaterThan(100);
    });

    it('gets its family back when stored before the tag, and keeps a tagged one as it is', () => {
      const state = engine.setup(options);
      const move = engine.moves(state)[0];
      const details = engine.describeMove?.(state, move) as EngineMoveDetails;
      const { family: _family, ...untagged } = details;
      const record = { ply: 1, notation: 'x', seat: 0 as const, at: new Date(0).toISOString() };
      expect(toMoveView(engine, { ...record, details: untagged }).details).toEqual(details);
      expect(toMoveView(engine, { ...record, details }).details).toBe(details);
      expect(toMoveView(engine, record).details).toBeNull();
    });
  },
);
