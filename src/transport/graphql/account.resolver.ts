import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { AccountView, IssuedToken as IssuedTokenView, TokenView } from '../../service/accounts/service';
import { Account, ApiToken, BotPolicyInput, CreatedAccount, IssuedToken } from './account-types';
import {
  credentialOf,
  IDEMPOTENCY_KEY_DESCRIPTION,
  keyOf,
  withoutNulls,
  type GraphQLContext,
} from './context';

/** Accounts, API tokens and bot policies. Thin: each field is one service call. */
@Resolver(() => Account)
export class AccountResolver {
  @Query(() => Account, { description: 'The account of the API token sent (scope game:read).' })
  me(@Ctx() ctx: GraphQLContext): Promise<AccountView> {
    return ctx.services.accounts.me(credentialOf(ctx));
  }

  @Query(() => Account, { description: "Any account's public profile, by username or account id." })
  account(
    @Arg('username', () => String, {
      description: 'A username (open accounts) or an account id (any account).',
    })
    username: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<AccountView> {
    return ctx.services.accounts.getAccount(username, credentialOf(ctx));
  }

  @Query(() => [ApiToken], { description: "The caller's API tokens, revoked ones included (no secrets)." })
  myTokens(@Ctx() ctx: GraphQLContext): Promise<TokenView[]> {
    return ctx.services.accounts.listTokens(credentialOf(ctx));
  }

  @Mutation(() => CreatedAccount, {
    description: 'Sign up: a new account and its first API token (the secret is shown only here).',
  })
  createAccount(
    @Arg('username', () => String, { description: '2–30 letters, digits, _ or -; unique ignoring case.' })
    username: string,
    @Ctx() ctx: GraphQLContext,
    @Arg('kind', () => String, { nullable: true, description: 'human (default) or bot' })
    kind?: string | null,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY_KEY_DESCRIPTION })
    idempotencyKey?: string | null,
  ): Promise<{ account: AccountView; token: IssuedTokenView }> {
    return ctx.services.accounts.createAccount(
      { username, ...(kind != null ? { kind } : {}) },
      { ...keyOf(idempotencyKey), ...(ctx.ip ? { ip: ctx.ip } : {}) },
    );
  }

  @Mutation(() => IssuedToken, {
    description:
      "A further API token; its scopes must be among the calling token's (MISSING_SCOPE), and an expiring " +
      'calling token creates only tokens that expire no later (TOKEN_OUTLIVES_CALLER).',
  })
  createToken(
    @Arg('scopes', () => [String], { description: 'game:read, game:play, challenge:write, bot:play' })
    scopes: string[],
    @Ctx() ctx: GraphQLContext,
    @Arg('label', () => String, { nullable: true }) label?: string | null,
    @Arg('expiresInSeconds', () => Int, {
      nullable: true,
      description: 'The token stops working after this many seconds (60 to 31622400); omitted: never.',
    })
    expiresInSeconds?: number | null,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY_KEY_DESCRIPTION })
    idempotencyKey?: string | null,
  ): Promise<IssuedTokenView> {
    return ctx.services.accounts.createToken(
      credentialOf(ctx),
      {
        scopes,
        ...(label != null ? { label } : {}),
        ...(expiresInSeconds != null ? { expiresInSeconds } : {}),
      },
      keyOf(idempotencyKey),
    );
  }

  @Mutation(() => ApiToken, {
    description:
      "Revoke one of the caller's tokens (effective at once). Another token only with all of its scopes " +
      '(MISSING_SCOPE); a root token (never expiring, every scope) only with a root token (ROOT_TOKEN_REQUIRED); ' +
      'never the last root token (LAST_ROOT_TOKEN).',
  })
  revokeToken(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<TokenView> {
    return ctx.services.accounts.revokeToken(credentialOf(ctx), id);
  }

  @Mutation(() => Account, { description: 'A bot declares what it accepts (scope bot:play).' })
  setBotPolicy(
    @Arg('input', () => BotPolicyInput) input: BotPolicyInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<AccountView> {
    return ctx.services.accounts.setBotPolicy(credentialOf(ctx), withoutNulls(input));
  }
}
