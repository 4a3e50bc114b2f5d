// The playground's pages: the first route whose pattern matches the path renders. To add a page,
// add a route here (its pattern's groups are passed to `page`) and a component under pages/.
import type { VNode } from 'preact';
import { AccountPage } from './pages/Account';
import { BrowsePage } from './pages/Browse';
import { Home } from './pages/Home';
import { KindPage } from './pages/KindPage';
import { LobbyPage } from './pages/Lobby';
import { NewGamePage } from './pages/NewGame';
import { NotFound } from './pages/NotFound';
import { Play } from './pages/Play';

export interface Route {
  readonly pattern: RegExp;
  readonly page: (groups: readonly string[]) => VNode;
}

export const ROUTES: readonly Route[] = [
  { pattern: /^\/$/, page: () => <Home /> },
  // A kind's start and rules (/kind/kalah).
  { pattern: /^\/kind\/([a-z-]+)\/?$/, page: ([kind]) => <KindPage key={kind} kind={kind ?? ''} /> },
  // Create a game, challenge or seek; ?kind= preselects the game.
  {
    pattern: /^\/new\/?$/,
    page: () => {
      const kind = new URLSearchParams(window.location.search).get('kind');
      return <NewGamePage key={kind ?? ''} initialKind={kind} />;
    },
  },
  { pattern: /^\/account\/?$/, page: () => <AccountPage /> },
  { pattern: /^\/games\/?$/, page: () => <BrowsePage /> },
  // The open seeks, live; post one or accept another's.
  { pattern: /^\/lobby\/?$/, page: () => <LobbyPage /> },
  // A game: a seat's page with #seat=<token>&side=<seat> in the fragment, a spectator's without.
  { pattern: /^\/play\/([A-Za-z0-9_-]{12})\/?$/, page: ([id]) => <Play key={id} id={id ?? ''} /> },
];

export function pageFor(path: string): VNode {
  for (const route of ROUTES) {
    const match = route.pattern.exec(path);
    if (match) return route.page(match.slice(1));
  }
  return <NotFound path={path} />;
}
