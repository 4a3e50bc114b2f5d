// `/kind/<kind>`: one game's start position and its rules page. The server serves the rules as
// text/markdown at rules.url (/rules/<kind>.md, the repository's docs/rules page); they are shown
// rendered by marked. They are this server's own files, and the page's CSP allows no inline script.
import { marked } from 'marked';
import { useEffect, useState } from 'preact/hooks';
import type { Kind } from '../api/client';
import { Board, Legend } from '../board/Board';
import { Link } from '../router';
import { describeStart, useKinds, type KindStart } from './kinds';
import './pages.css';

/**
 * Links between rules pages (`congo.md`, `README.md#…`) lead to their pages here, and headings go
 * one level down (the page has its own h1).
 */
function localLinks(html: string): string {
  return html
    .replace(/<(\/?)h([1-5])\b/g, (_, slash: string, level: string) => `<${slash}h${Number(level) + 1}`)
    .replace(/href="(?:\.\/)?([a-z-]+)\.md(#[^"]*)?"/g, (_, name: string, hash: string | undefined) =>
      name.toLowerCase() === 'readme' ? `href="/rules${hash ?? ''}"` : `href="/kind/${name}${hash ?? ''}"`,
    );
}

export function KindPage({ kind }: { kind: string }) {
  const { kinds, error } = useKinds();
  const info = kinds?.find((k) => k.kind === kind);
  const [rules, setRules] = useState<string | null>(null);
  const [rulesError, setRulesError] = useState<string | null>(null);
  const [start, setStart] = useState<KindStart | null>(null);
  useEffect(() => {
    if (!info) return;
    void describeStart(info.kind).then((r) => setStart(r.start ?? null));
    fetch(info.rules.url, { headers: { Accept: 'text/markdown' } })
      .then(async (res) => {
        if (!res.ok) throw new Error(`${res.status} ${res.statusText}`);
        setRules(localLinks(await marked.parse(await res.text(), { async: true })));
      })
      .catch((e: unknown) => setRulesError(String(e)));
  }, [info?.kind]);

  if (error) return <p role="alert">Could not read the games: {error}</p>;
  if (!kinds) return <p>Loading…</p>;
  if (!info) {
    return (
      <>
        <h1>No such game</h1>
        <p>
          Boardhost hosts {kinds.map((k) => k.name).join(', ')}. <Link href="/">Back to the games</Link>.
        </p>
      </>
    );
  }
  return (
    <>
      <h1>{info.name}</h1>
      <p class="actions">
        <Link class="button" href={`/new?kind=${info.kind}`}>
          New {info.name} game
        </Link>{' '}
        <a href={info.rules.url}>The rules as Markdown</a>
      </p>
      {start ? (
        <figure class="start-picture">
          <Board
            kind={info.kind as Kind}
            board={start.board}
            seatNames={info.seatNames}
            label={`${info.name} start position`}
          />
          <figcaption>
            Start: <code>{start.position}</code>
          </figcaption>
          <Legend kind={info.kind as Kind} seatNames={info.seatNames} />
        </figure>
      ) : null}
      <section aria-label={`Rules of ${info.name}`} class="rules">
        {rulesError ? <p role="alert">Could not read the rules: {rulesError}</p> : null}
        {rules === null && !rulesError ? <p>Loading the rules…</p> : null}
        {rules !== null ? <div dangerouslySetInnerHTML={{ __html: rules }} /> : null}
      </section>
    </>
  );
}
