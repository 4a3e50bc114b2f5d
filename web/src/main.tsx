import { render } from 'preact';
import { useKinds } from './pages/kinds';
import { Link, useLocation } from './router';
import { pageFor } from './routes';
import './styles.css';

/** The playground's sections, in the site navigation. */
const SECTIONS: ReadonlyArray<readonly [string, string]> = [
  ['/new', 'New game'],
  ['/lobby', 'Lobby'],
  ['/games', 'Games'],
  ['/account', 'Account'],
];

function current(path: string, href: string): boolean {
  return path === href || path.startsWith(`${href}/`);
}

function App() {
  const { path } = useLocation();
  // The kinds' names come from GET /kinds: loaded first, and the pages drawn again once they are.
  useKinds();
  return (
    <>
      <header class="top">
        <Link href="/" class="brand">
          Boardhost
        </Link>
        <nav aria-label="Site">
          {SECTIONS.map(([href, label]) => (
            <Link
              key={href}
              href={href}
              {...(current(path, href) ? { 'aria-current': 'page' as const } : {})}
            >
              {label}
            </Link>
          ))}
          <a href="/docs">REST docs</a>
          <a href="/graphql">GraphiQL</a>
        </nav>
      </header>
      <main id="main">{pageFor(path)}</main>
    </>
  );
}

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
