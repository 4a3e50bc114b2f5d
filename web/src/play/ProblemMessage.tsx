// An error shown to a player: the sentence (problems.ts), and the code and the server's own words
// in a collapsed <details> for whoever reports it.
import type { ShownProblem } from './problems';

export function ProblemMessage({ problem, id }: { readonly problem: ShownProblem; readonly id?: string }) {
  return (
    <div role="alert" class="error problem-message" id={id} data-code={problem.code}>
      <p>{problem.sentence}</p>
      {problem.code || problem.detail ? (
        <details>
          <summary>Details</summary>
          <p>
            {problem.code ? <code>{problem.code}</code> : null}
            {problem.code && problem.detail ? ': ' : null}
            {problem.detail}
          </p>
        </details>
      ) : null}
    </div>
  );
}
