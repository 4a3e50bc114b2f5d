import {
  Arg,
  Ctx,
  Field,
  ID,
  Int,
  Mutation,
  ObjectType,
  Query,
  Resolver,
  Root,
  Subscription,
} from 'type-graphql';
import {
  CHAT_KEEP_MESSAGES,
  CHAT_RATE_MESSAGES,
  CHAT_RATE_WINDOW_SECONDS,
  CHAT_TEXT_MAX,
  type ChatMessageView,
  type ChatMuteView,
  type ChatPageView,
} from '../../service/game/chat';
import { credentialOf, type GraphQLContext } from './context';
import { callbackIterator } from './watch';

// A game's chat (service/game/chat.ts); the REST twins are under /api/v1/games/{id}/chat.

@ObjectType({ description: 'A message of a game’s chat.' })
export class ChatMessage {
  @Field(() => ID, { description: 'The game’s count of messages ("1", "2", …): pass as `after`.' })
  id!: string;
  @Field(() => ID, { description: 'The game id.' }) game!: string;
  @Field(() => Int, { nullable: true, description: 'The author’s seat; null for a spectator.' })
  seat!: number | null;
  @Field(() => String, {
    nullable: true,
    description: 'The author’s account id; null for a seat-token seat.',
  })
  account!: string | null;
  @Field(() => String, { description: 'The author’s username, or the seat’s name for a seat-token seat.' })
  name!: string;
  @Field(() => String) text!: string;
  @Field(() => String) at!: string;
}

@ObjectType({ description: 'A page of a game’s chat, oldest first.' })
export class ChatPage {
  @Field(() => [ChatMessage]) items!: ChatMessage[];
  @Field(() => Boolean, { description: 'The caller’s seat mutes the others (their messages are left out).' })
  muted!: boolean;
}

@ObjectType({ description: 'A seat’s mute of a game’s chat.' })
export class ChatMute {
  @Field(() => ID) game!: string;
  @Field(() => Int) seat!: number;
  @Field(() => Boolean) muted!: boolean;
}

const OFF =
  'CHAT_DISABLED (`by`: server, app, game, or spectators when the mode is seats and the caller holds no seat).';
const SEAT_TOKEN = { nullable: true, description: 'A seat token (or send Authorization: Bearer).' } as const;

/** Thin: each field is one service call. */
@Resolver(() => ChatMessage)
export class ChatResolver {
  @Query(() => ChatPage, {
    name: 'gameChat',
    description:
      'A game’s chat, oldest first: the newest `limit` (1–' +
      `${CHAT_KEEP_MESSAGES}, default 50), or with \`after\` (a message id) the first \`limit\` after it. The seats ` +
      `read it (chat mode everyone: whoever may read the game). ${OFF}`,
  })
  listChat(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: GraphQLContext,
    @Arg('after', () => String, { nullable: true }) after?: string | null,
    @Arg('limit', () => Int, { nullable: true }) limit?: number | null,
    @Arg('seatToken', () => String, SEAT_TOKEN) seatToken?: string | null,
  ): Promise<ChatPageView> {
    return ctx.services.chat.list(credentialOf(ctx, seatToken), id, {
      ...(after === undefined || after === null ? {} : { after }),
      ...(limit === undefined || limit === null ? {} : { limit }),
    });
  }

  @Mutation(() => ChatMessage, {
    description:
      `Send a chat message (1–${CHAT_TEXT_MAX} characters once trimmed; control and bidi characters removed) as a ` +
      `seat, or in chat mode everyone as any account that may read the game; at most ${CHAT_RATE_MESSAGES} per ` +
      `${CHAT_RATE_WINDOW_SECONDS} s per sender and game (RATE_LIMITED). ${OFF}`,
  })
  sendChat(
    @Arg('gameId', () => ID) gameId: string,
    @Arg('text', () => String) text: string,
    @Ctx() ctx: GraphQLContext,
    @Arg('seatToken', () => String, SEAT_TOKEN) seatToken?: string | null,
  ): Promise<ChatMessageView> {
    return ctx.services.chat.send(credentialOf(ctx, seatToken), gameId, text);
  }

  @Mutation(() => ChatMute, {
    description:
      'The caller’s seat stops receiving the others’ messages in this game (list, subscription, feed). Idempotent.',
  })
  muteChat(
    @Arg('gameId', () => ID) gameId: string,
    @Ctx() ctx: GraphQLContext,
    @Arg('seatToken', () => String, SEAT_TOKEN) seatToken?: string | null,
  ): Promise<ChatMuteView> {
    return ctx.services.chat.mute(credentialOf(ctx, seatToken), gameId, true);
  }

  @Mutation(() => ChatMute, {
    description: 'The caller’s seat receives the others’ messages again. Idempotent.',
  })
  unmuteChat(
    @Arg('gameId', () => ID) gameId: string,
    @Ctx() ctx: GraphQLContext,
    @Arg('seatToken', () => String, SEAT_TOKEN) seatToken?: string | null,
  ): Promise<ChatMuteView> {
    return ctx.services.chat.mute(credentialOf(ctx, seatToken), gameId, false);
  }

  @Subscription(() => ChatMessage, {
    name: 'gameChat',
    description:
      'A game’s chat messages as the caller may read them, from any server node: with `after` (a message id, ' +
      `"0" for all that are kept) those after it first, then each new one, once and in order. ${OFF}`,
    subscribe: ({ args, context }) => {
      const ctx = context as GraphQLContext;
      const token = args.seatToken as string | null | undefined;
      const after = args.after as string | null | undefined;
      return callbackIterator<ChatMessageView>((push) =>
        ctx.services.chat.follow(
          String(args.id),
          credentialOf(ctx, token),
          push,
          after === undefined || after === null ? {} : { after },
        ),
      );
    },
  })
  followChat(
    @Arg('id', () => ID) _id: string,
    @Root() message: ChatMessageView,
    @Arg('after', () => String, { nullable: true }) _after?: string | null,
    @Arg('seatToken', () => String, SEAT_TOKEN) _seatToken?: string | null,
  ): ChatMessageView {
    return message;
  }
}
