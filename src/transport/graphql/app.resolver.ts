import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Ctx, Field, ID, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { AppAccountView } from '../../service/apps/accounts';
import type { AppView } from '../../service/apps/service';
import { ACCOUNT_KINDS, ACCOUNT_STATUSES } from '../../vocabulary';
import { credentialOf, withoutNulls, type GraphQLContext } from './context';

// The app's own API (an app key without Boardhost-Account): the calling app and the accounts it
// makes for its users by its own ids. The REST twins are under /api/v1/app (apps.routes.ts).

@ObjectType({ description: 'How much an app may create and ask (past them: QUOTA_EXCEEDED, RATE_LIMITED).' })
export class AppQuotas {
  @Field(() => Int, { description: 'Accounts it may create per day.' }) accountsPerDay!: number;
  @Field(() => Int, { description: 'Games its accounts may start per day.' }) gamesPerDay!: number;
  @Field(() => Int, { description: 'Requests per second of its keys and sessions together.' })
  requestsPerSecond!: number;
}

@ObjectType({ description: 'An app’s settings (the operator sets them).' })
export class AppSettings {
  @Field(() => Boolean, { description: 'In the shared pool: its accounts see and play the open accounts.' })
  sharedPool!: boolean;
  @Field(() => [String], { description: 'Origins whose browsers may call with its session tokens.' })
  corsOrigins!: string[];
  @Field(() => AppQuotas) quotas!: AppQuotas;
  @Field(() => Int, { description: 'Session token lifetime in seconds.' }) sessionSeconds!: number;
  @Field(() => Int, { description: 'Refresh token lifetime in seconds.' }) refreshSeconds!: number;
  @Field(() => Boolean, { description: 'Its games have chat (false: CHAT_DISABLED, by app).' })
  chat!: boolean;
}

@ObjectType({ description: 'An app: a product that puts Boardhost behind its own users.' })
export class App {
  @Field(() => ID, { description: 'app_ and 16 letters or digits.' }) id!: string;
  @Field(() => String) name!: string;
  @Field(() => AppSettings) settings!: AppSettings;
  @Field(() => String) createdAt!: string;
  @Field(() => String, { nullable: true, description: 'Set: its keys and sessions are refused.' })
  disabledAt!: string | null;
}

@ObjectType({ description: 'An account an app made for one of its users, as the app sees it.' })
export class AppAccount {
  @Field(() => ID, { description: 'The account id: the app id, a dot and 16 hex digits; never changes.' })
  id!: string;
  @Field(() => String) app!: string;
  @Field(() => String, { description: 'The app’s own id for its user.' }) externalId!: string;
  @Field(() => String, { description: 'Unique in the app ignoring case; may change.' }) username!: string;
  @Field(() => String, { nullable: true }) displayName!: string | null;
  @Field(() => GraphQLJSONObject, { description: 'The app’s string pairs about its user.' })
  metadata!: Record<string, string>;
  @Field(() => String, { description: ACCOUNT_KINDS.join(', ') }) kind!: string;
  @Field(() => String, { description: ACCOUNT_STATUSES.join(', ') }) status!: string;
  @Field(() => String, { nullable: true }) statusReason!: string | null;
  @Field(() => String) createdAt!: string;
}

@ObjectType({ description: 'A page of an app’s accounts, by id.' })
export class AppAccountPage {
  @Field(() => [AppAccount]) items!: AppAccount[];
  @Field(() => String, {
    nullable: true,
    description: 'Pass as `after` for the next page; null on the last.',
  })
  next!: string | null;
}

@ObjectType({ description: 'The answer of ensureAppAccount.' })
export class EnsuredAppAccount {
  @Field(() => Boolean, { description: 'true: made now; false: it existed (returned unchanged).' })
  created!: boolean;
  @Field(() => AppAccount) account!: AppAccount;
}

@InputType({ description: 'An app account’s fields (each omitted one: the default, or unchanged).' })
export class AppAccountInput {
  @Field(() => String, {
    nullable: true,
    description: '2–30 letters, digits, _ or -; unique in the app ignoring case (default player-<8 hex>).',
  })
  username?: string | null;
  @Field(() => String, { nullable: true, description: '1–50 characters.' }) displayName?: string | null;
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description:
      'At most 20 string pairs (keys 1–40 of A-Z a-z 0-9 _ . -, values ≤ 256 characters, 4 kB in all).',
  })
  metadata?: Record<string, unknown> | null;
  @Field(() => String, { nullable: true, description: 'human (default) or bot; at creation only.' })
  kind?: string | null;
}

@Resolver()
export class AppResolver {
  @Query(() => App, { description: 'The calling app (an app key without Boardhost-Account).' })
  app(@Ctx() ctx: GraphQLContext): Promise<AppView> {
    return ctx.services.appAccounts.app(credentialOf(ctx));
  }

  @Query(() => AppAccount, { description: 'The app’s account of an external id (scope app:accounts).' })
  appAccount(
    @Arg('externalId', () => String) externalId: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<AppAccountView> {
    return ctx.services.appAccounts.get(credentialOf(ctx), externalId);
  }

  @Query(() => AppAccountPage, {
    description: 'The app’s accounts by id, a page at a time (scope app:accounts).',
  })
  appAccounts(
    @Ctx() ctx: GraphQLContext,
    @Arg('after', () => String, { nullable: true, description: 'A previous page’s `next`.' })
    after?: string | null,
    @Arg('limit', () => Int, { nullable: true, description: '1–100, default 50.' }) limit?: number | null,
  ): Promise<{ items: AppAccountView[]; next: string | null }> {
    return ctx.services.appAccounts.list(credentialOf(ctx), withoutNulls({ after, limit }));
  }

  @Mutation(() => EnsuredAppAccount, {
    description:
      'Get or create the app’s account of an external id (scope app:accounts): an existing one is returned ' +
      'unchanged (updateAppAccount changes it); a creation counts against the app’s accountsPerDay.',
  })
  ensureAppAccount(
    @Arg('externalId', () => String) externalId: string,
    @Ctx() ctx: GraphQLContext,
    @Arg('input', () => AppAccountInput, { nullable: true }) input?: AppAccountInput | null,
  ): Promise<{ created: boolean; account: AppAccountView }> {
    return ctx.services.appAccounts.ensure(credentialOf(ctx), externalId, withoutNulls(input ?? {}));
  }

  @Mutation(() => AppAccount, {
    description:
      'Change an app account’s username, display name or metadata (scope app:accounts); its id never changes. ' +
      'To remove the display name or the metadata, use the REST PATCH with null.',
  })
  updateAppAccount(
    @Arg('externalId', () => String) externalId: string,
    @Arg('input', () => AppAccountInput) input: AppAccountInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<AppAccountView> {
    const { kind: _kind, ...fields } = withoutNulls(input);
    return ctx.services.appAccounts.update(credentialOf(ctx), externalId, fields);
  }
}
