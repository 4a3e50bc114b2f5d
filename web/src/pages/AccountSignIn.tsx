// The account page's sign-in: create an account (POST /accounts) or use a pasted token (checked
// with GET /account). The caller keeps the token.
import { useState } from 'preact/hooks';
import { api, auth } from '../api/client';
import { ProblemMessage } from '../play/ProblemMessage';
import { describeProblem, type ShownProblem } from '../play/problems';

export function SignIn({ onToken }: { onToken: (token: string) => void }) {
  const [username, setUsername] = useState('');
  const [kind, setKind] = useState<'human' | 'bot'>('human');
  const [pasted, setPasted] = useState('');
  const [error, setError] = useState<ShownProblem>();
  const signUp = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    const { data, error: e } = await api.POST('/api/v1/accounts', {
      body: { username: username.trim(), kind },
    });
    if (!data) return setError(describeProblem(e));
    onToken(data.token.token);
  };
  const usePasted = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    const token = pasted.trim();
    const { data, error: e } = await api.GET('/api/v1/account', { headers: auth(token) });
    if (!data) return setError(describeProblem(e));
    onToken(token);
  };
  return (
    <>
      <h1>Account</h1>
      <p>
        An account plays under its name: it can challenge others, seek opponents and follow all its games from
        one feed. Its API token is kept in this browser only (localStorage) and sent only to this server.
      </p>
      {error ? <ProblemMessage problem={error} /> : null}
      <form onSubmit={(e) => void signUp(e)} aria-labelledby="signup-heading">
        <h2 id="signup-heading">Create an account</h2>
        <div class="field">
          <label for="signup-username">Username</label>
          <input
            id="signup-username"
            type="text"
            autoComplete="username"
            required
            pattern="[A-Za-z0-9][A-Za-z0-9_\-]{1,29}"
            aria-describedby="signup-hint"
            value={username}
            onInput={(e) => setUsername((e.currentTarget as HTMLInputElement).value)}
          />
          <small id="signup-hint">2–30 letters, digits, _ or -, starting with a letter or digit.</small>
        </div>
        <div class="field">
          <label for="signup-kind">Kind</label>
          <select
            id="signup-kind"
            value={kind}
            onChange={(e) => setKind((e.currentTarget as HTMLSelectElement).value as 'human' | 'bot')}
          >
            <option value="human">human</option>
            <option value="bot">bot</option>
          </select>
        </div>
        <button type="submit">Create account</button>
      </form>
      <form onSubmit={(e) => void usePasted(e)} aria-labelledby="paste-heading">
        <h2 id="paste-heading">Use an existing token</h2>
        <div class="field">
          <label for="paste-token">API token (bhp_…)</label>
          <input
            id="paste-token"
            type="password"
            autoComplete="off"
            required
            value={pasted}
            onInput={(e) => setPasted((e.currentTarget as HTMLInputElement).value)}
          />
        </div>
        <button type="submit">Use this token</button>
      </form>
    </>
  );
}
