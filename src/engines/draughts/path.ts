// Checks a capture path as a player wrote it, square by square, against the rules (rules B11): a
// path the move list does not show (it shows one path per outcome, B1 "drop") is still a legal move
// when it obeys every capture rule. Used by parseMove, which then answers with the listed move of the
// same outcome (origin, destination, captured set, crowning).
import { NEIGHBOUR, ROW_1, ROW_8 } from './board';

/** The outcome of a capture path: where it ends, what it takes, whether the man is crowned. */
export interface PathOutcome {
  readonly to: number;
  readonly captured: number;
  readonly promotes: boolean;
}

/** Can a king on `s` capture along some direction other than `back`, given the captured set? */
function kingCanCapture(s: number, opp: number, occ: number, captured: number, back: number): boolean {
  for (let d = 0; d < 4; d++) {
    if (d === back) continue;
    let t = NEIGHBOUR[4 * s + d] as number;
    while (t >= 0 && (occ & (1 << t)) === 0) t = NEIGHBOUR[4 * t + d] as number;
    if (t < 0 || (opp & (1 << t)) === 0 || (captured & (1 << t)) !== 0) continue;
    const land = NEIGHBOUR[4 * t + d] as number;
    if (land >= 0 && (occ & (1 << land)) === 0) return true;
  }
  return false;
}

/** Can a man on `s` capture in any direction, given the captured set? */
function manCanCapture(s: number, opp: number, occ: number, captured: number): boolean {
  for (let d = 0; d < 4; d++) {
    const over = NEIGHBOUR[4 * s + d] as number;
    if (over < 0 || (opp & (1 << over)) === 0 || (captured & (1 << over)) !== 0) continue;
    const land = NEIGHBOUR[4 * over + d] as number;
    if (land >= 0 && (occ & (1 << land)) === 0) return true;
  }
  return false;
}

/**
 * The outcome of the capture path `squares` (origin first, then every landing square) for the side
 * owning `own`, or undefined when the path breaks a rule: each leg jumps exactly one enemy piece not
 * taken before (taken pieces stay and block until the move ends), a king lands where it can go on
 * capturing if any landing square allows it, a man crowned on the last rank goes on as a king, and
 * the path ends only where no further capture is possible.
 */
export function followCapturePath(
  squares: readonly number[],
  own: number,
  opp: number,
  kings: number,
  white: boolean,
): PathOutcome | undefined {
  const from = squares[0] as number;
  if (squares.length < 2 || (own & (1 << from)) === 0) return undefined;
  const occ = (own | opp) & ~(1 << from); // the origin is empty once the piece has left it
  const promoRow = white ? ROW_8 : ROW_1;
  let king = (kings & (1 << from)) !== 0;
  let crowned = false;
  let captured = 0;
  let at = from;
  let back = -1;
  for (let k = 1; k < squares.length; k++) {
    const target = squares[k] as number;
    let leg: { d: number; taken: number; lands: number[] } | undefined;
    for (let d = 0; d < 4 && !leg; d++) {
      let t = NEIGHBOUR[4 * at + d] as number;
      if (!king) {
        if (t < 0 || (opp & (1 << t)) === 0 || (captured & (1 << t)) !== 0) continue;
        const land = NEIGHBOUR[4 * t + d] as number;
        if (land === target && (occ & (1 << land)) === 0) leg = { d, taken: t, lands: [land] };
        continue;
      }
      while (t >= 0 && (occ & (1 << t)) === 0) t = NEIGHBOUR[4 * t + d] as number;
      if (t < 0 || (opp & (1 << t)) === 0 || (captured & (1 << t)) !== 0) continue;
      const lands: number[] = [];
      for (
        let l = NEIGHBOUR[4 * t + d] as number;
        l >= 0 && (occ & (1 << l)) === 0;
        l = NEIGHBOUR[4 * l + d] as number
      )
        lands.push(l);
      if (lands.includes(target)) leg = { d, taken: t, lands };
    }
    if (!leg) return undefined;
    captured |= 1 << leg.taken;
    back = leg.d ^ 3;
    if (king) {
      // Landing restriction: if some landing square allows a further capture, land on one of those.
      const goesOn = (l: number) => kingCanCapture(l, opp, occ, captured, back);
      if (!goesOn(target) && leg.lands.some(goesOn)) return undefined;
    } else if ((promoRow & (1 << target)) !== 0) {
      king = true;
      crowned = true;
    }
    at = target;
  }
  const more = king ? kingCanCapture(at, opp, occ, captured, back) : manCanCapture(at, opp, occ, captured);
  if (more) return undefined;
  return { to: at, captured, promotes: crowned };
}
