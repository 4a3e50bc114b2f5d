import { Link } from '../router';

export function NotFound({ path }: { path: string }) {
  return (
    <section>
      <h1>Not found</h1>
      <p>
        The playground has no page at <code>{path}</code>. <Link href="/">Home</Link>
      </p>
    </section>
  );
}
