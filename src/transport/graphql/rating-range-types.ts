import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { RATING_RANGE_BOUNDS } from '../../service/challenges/rating-range';

const { lowest, highest } = RATING_RANGE_BOUNDS;

@ObjectType({ description: 'The opponent ratings a seeker admits (a null bound: open on that side).' })
export class RatingRange {
  @Field(() => Int, { nullable: true }) min!: number | null;
  @Field(() => Int, { nullable: true }) max!: number | null;
}

@InputType({ description: `The opponent ratings a seek admits: integers ${lowest}–${highest}, min ≤ max.` })
export class RatingRangeInput {
  @Field(() => Int, { nullable: true }) min?: number | null;
  @Field(() => Int, { nullable: true }) max?: number | null;
}
