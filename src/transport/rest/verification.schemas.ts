import { z } from 'zod';
import { DEFAULT_VERIFICATION_COUNT, MAX_VERIFICATION_COUNT } from '../../service/game/verification';
import './schemas';

// Rules verification (GET / POST /kinds/{kind}/verification): a seeded set of positions and moves,
// and the score of a program's answers.

export const KindParams = z.object({
  kind: z.string().openapi({ example: 'kalah', description: 'A hosted kind (GET /kinds)' }),
});

const Seed = z.string().openapi({
  example: 'my-bot-1',
  description: 'Any 1–64 of A-Z a-z 0-9 . _ -: the same seed poses the same set',
});
const Count = z
  .number()
  .int()
  .openapi({
    description: `Positions in the set: 1–${MAX_VERIFICATION_COUNT}, default ${DEFAULT_VERIFICATION_COUNT}`,
  });
const Options = z
  .record(z.string(), z.unknown())
  .openapi({ description: 'The kind’s options (as when creating a game); default: the defaults' });

export const VerificationQuery = z
  .object({
    seed: Seed,
    count: z.coerce
      .number()
      .int()
      .optional()
      .openapi({
        type: 'integer',
        description: `1–${MAX_VERIFICATION_COUNT}, default ${DEFAULT_VERIFICATION_COUNT}`,
      }),
    options: z.string().optional().openapi({
      description: 'The kind’s options as JSON, e.g. {"houses":4,"seeds":3}',
      example: '{"seeds":3}',
    }),
  })
  .strict();

const Item = z.object({
  index: z.number().int().openapi({ description: 'The answer to this item goes at this index' }),
  position: z.string().openapi({ description: 'A position, in the kind’s position notation' }),
  move: z.string().openapi({ description: 'A legal move of that position, in canonical notation' }),
});

const Header = {
  kind: z.string(),
  rulesVersion: z.string().openapi({ description: 'The rules version the set was computed with' }),
  options: z.record(z.string(), z.unknown()).openapi({ description: 'The options, defaults filled in' }),
  seed: z.string(),
  count: z.number().int(),
};

export const VerificationSet = z.object({ ...Header, items: z.array(Item) }).openapi('VerificationSet', {
  description: 'Positions and moves; answer, per item, the position after the move.',
});

export const VerificationAnswers = z
  .object({
    seed: Seed,
    count: Count.optional(),
    options: Options.optional(),
    answers: z
      .array(z.string())
      .max(MAX_VERIFICATION_COUNT)
      .openapi({ description: 'Per item, by index: the position after its move (a missing one is wrong)' }),
  })
  .strict()
  .openapi('VerificationAnswers', {
    // Answers are scored, right or wrong: these two are positions of Kalah, not necessarily the right ones.
    example: {
      seed: 'my-bot-1',
      count: 2,
      answers: ['4,4,0,5,5,5/1/4,4,4,4,4,4/0 S', '0,5,5,5,5,4/0/4,4,4,4,4,4/0 N'],
    },
  });

export const VerificationScore = z
  .object({
    ...Header,
    correct: z.number().int(),
    score: z.number().openapi({ description: 'Percentage of correct answers, 0–100' }),
    wrong: z.array(z.number().int()).openapi({ description: 'The indexes of the wrong answers' }),
    items: z.array(
      Item.extend({
        correct: z.boolean(),
        answer: z.string().nullable(),
        expected: z
          .string()
          .optional()
          .openapi({ description: 'Wrong answers: the position after the move' }),
        legalMoves: z
          .array(z.string())
          .optional()
          .openapi({ description: 'Wrong answers: the legal moves of the posed position' }),
        reason: z.string().optional().openapi({ description: 'Wrong answers: why' }),
      }),
    ),
  })
  .openapi('VerificationScore');
