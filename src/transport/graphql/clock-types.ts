import { Field, Int, ObjectType } from 'type-graphql';
import { VACATION_DAYS_PER_YEAR } from '../../service/time/clocks';

// GraphQL shapes of an account's vacations (VacationView), plain objects as in types.ts.

@ObjectType({ description: 'A vacation: the clocks of the account stand still from `from` to `until`.' })
export class VacationWindow {
  @Field(() => String) from!: string;
  @Field(() => String) until!: string;
}

@ObjectType({
  description:
    `The account's vacation days: ${VACATION_DAYS_PER_YEAR} per calendar year (UTC), counted in the year a vacation ` +
    'starts. While one lasts, its correspondence clocks stand still whenever it is to move.',
})
export class Vacation {
  @Field(() => Int) allowanceDays!: number;
  @Field(() => Int, { description: 'The year the days are counted in (this year).' }) year!: number;
  @Field(() => Int) usedDays!: number;
  @Field(() => Int) remainingDays!: number;
  @Field(() => VacationWindow, { nullable: true, description: 'The vacation in progress, if any.' })
  current!: VacationWindow | null;
}
