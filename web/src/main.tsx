import { render } from 'preact';
import { Link, useLocation } from './router';
import { pageFor } from './routes';
import './styles.css';

function App() {
  const { path } = useLocation();
  return (
    <>
      <header class="top">
        <Link href="/" class="brand">
          Boardhost
        </Link>
        <nav aria-label="Site">
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
