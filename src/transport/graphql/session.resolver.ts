import { Arg, Ctx, Field, ID, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { IssuedSession as IssuedSessionView, SessionView } from '../../service/apps/sessions';
import { credentialOf, type GraphQLContext } from './context';

@ObjectType({
  description:
    "A session of one of an app's accounts: an access token (the account's, for sessionSeconds) and a " +
    'single-use refresh token (for refreshSeconds) that trades itself for a new pair.',
})
export class Session {
  @Field(() => ID) id!: string;
  @Field(() => String) app!: string;
  @Field(() => String, { description: "The account's id." }) account!: string;
  @Field(() => String, { description: 'The id of the app key that minted it (revoking the key ends it).' })
  key!: string;
  @Field(() => String) label!: string;
  @Field(() => [String]) scopes!: string[];
  @Field(() => Int, { description: 'How many times it was refreshed (0: as minted).' }) generation!: number;
  @Field(() => String) createdAt!: string;
  @Field(() => String, { description: 'When the current refresh token stops working.' }) expiresAt!: string;
  @Field(() => String, { nullable: true }) revokedAt!: string | null;
  @Field(() => Boolean, {
    description: 'Neither revoked nor expired, and the key that minted it not revoked.',
  })
  active!: boolean;
}

@ObjectType({ description: 'A session with its secrets, shown only in this answer.' })
export class IssuedSession {
  @Field(() => Session) session!: SessionView;
  @Field(() => String, { description: "The account's bearer token (bhp_…) for the session's scopes." })
  accessToken!: string;
  @Field(() => String) accessTokenExpiresAt!: string;
  @Field(() => String, { description: 'Single use: refreshSession trades it for a new pair (bhr_…).' })
  refreshToken!: string;
  @Field(() => String) refreshTokenExpiresAt!: string;
}

/**
 * Apps' sessions (see service/apps/sessions.ts): minted, listed and revoked with an app key holding
 * app:sessions (no Boardhost-Account); refreshed by anyone holding the refresh token; ended by the
 * session token itself. Thin: each field is one service call.
 */
@Resolver(() => Session)
export class SessionResolver {
  @Query(() => [Session], {
    description:
      "The sessions of the app's account `externalId`, oldest first, ended ones too (app key, app:sessions).",
  })
  sessions(
    @Arg('externalId', () => String) externalId: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<SessionView[]> {
    return ctx.services.sessions.list(credentialOf(ctx), externalId);
  }

  @Mutation(() => IssuedSession, {
    description:
      "Signs one of the app's accounts in (app key, app:sessions): scopes among the key's account scopes " +
      'that fit the account (default: all of them). ACCOUNT_NOT_FOUND, MISSING_SCOPE; APP_LIMIT_REACHED ' +
      '(what sessions) past the active sessions one account may hold.',
  })
  createSession(
    @Arg('externalId', () => String) externalId: string,
    @Ctx() ctx: GraphQLContext,
    @Arg('scopes', () => [String], { nullable: true }) scopes?: string[] | null,
    @Arg('label', () => String, { nullable: true }) label?: string | null,
  ): Promise<IssuedSessionView> {
    return ctx.services.sessions.mint(credentialOf(ctx), externalId, {
      ...(scopes != null ? { scopes } : {}),
      ...(label != null ? { label } : {}),
    });
  }

  @Mutation(() => IssuedSession, {
    description:
      'Trades a refresh token for a new access token and refresh token (the old ones stop working). No ' +
      'credential needed. A refresh token used before revokes the session: INVALID_REFRESH_TOKEN with ' +
      'reason unknown, revoked, expired or reused.',
  })
  refreshSession(@Arg('refreshToken', () => String) refreshToken: string, @Ctx() ctx: GraphQLContext) {
    return ctx.services.sessions.refresh(refreshToken);
  }

  @Mutation(() => Session, {
    description: "Revokes one of the app's sessions (app key, app:sessions); idempotent. SESSION_NOT_FOUND.",
  })
  revokeSession(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<SessionView> {
    return ctx.services.sessions.revoke(credentialOf(ctx), id);
  }

  @Mutation(() => Session, {
    description: "The session token's own session ends (INVALID_INPUT for any other credential).",
  })
  signOut(@Ctx() ctx: GraphQLContext): Promise<SessionView> {
    return ctx.services.sessions.signOut(credentialOf(ctx));
  }
}
