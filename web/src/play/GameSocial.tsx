// The game page's social parts, in one place so the page needs only two lines for them: beside the
// seat's actions, a takeback (casual games) and the rematch (finished games); below the moves, the
// chat. Each part decides by itself whether it shows.
import type { Game } from '../api/client';
import { accountToken } from '../account/storage';
import { Chat, type ChatMessage } from './Chat';
import { Rematch, RematchOf } from './Rematch';
import { Takeback } from './Takeback';
import './social.css';

type Seat = { seat: number; token: string } | undefined;

export function SocialActions(props: { game: Game; me: Seat; live: boolean; onGame: (game: Game) => void }) {
  const { game, me, live, onGame } = props;
  return (
    <>
      {me ? <Takeback game={game} seat={me.seat} token={me.token} onGame={onGame} /> : null}
      <Rematch game={game} me={me} live={live} onGame={onGame} />
      <RematchOf game={game} />
    </>
  );
}

export function GameChat(props: {
  game: Game;
  me: Seat;
  live: boolean;
  onChat: (listener: (message: ChatMessage) => void) => () => void;
}) {
  return <Chat {...props} viewerToken={accountToken() ?? undefined} subscribe={props.onChat} />;
}
