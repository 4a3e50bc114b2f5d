import { GLICKO, SCALE, decayedRd, isProvisional, rateGame, updateGlicko } from '../src/ratings/glicko2';

describe('Glicko-2', () => {
  test("Glickman's worked example (τ = 0.5, one rating period)", () => {
    // "Example of the Glicko-2 system": 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300.
    const next = updateGlicko(
      { rating: 1500, rd: 200, volatility: 0.06 },
      [
        { opponent: { rating: 1400, rd: 30, volatility: 0.06 }, score: 1 },
        { opponent: { rating: 1550, rd: 100, volatility: 0.06 }, score: 0 },
        { opponent: { rating: 1700, rd: 300, volatility: 0.06 }, score: 0 },
      ],
      { tau: 0.5, periods: 1 },
    );
    // The paper rounds its steps (μ′ = −0.2069, φ′ = 0.8722): unrounded, r′ = 1464.051, RD′ = 151.517.
    expect(next.rating).toBeCloseTo(1464.06, 1);
    expect(next.rd).toBeCloseTo(151.52, 1);
    expect(next.volatility).toBeCloseTo(0.05999, 4); // 0.059996
  });

  test('a first game between two new humans (lichess: 1500/500/0.09, no elapsed period)', () => {
    // φ = 500 / 173.7178 = 2.878231; g(φ) = 1/√(1 + 3φ²/π²) = 1/√(1 + 3·8.284215/9.869604) = 0.533146
    // E = 1/(1 + e^(−g·(0 − 0))) = 0.5; v = 1/(g²·E·(1−E)) = 1/(0.284244·0.25) = 14.072398
    // With no elapsed period φ* = φ (σ′ does not enter), so
    // φ′ = 1/√(1/φ² + 1/v) = 1/√(0.120710 + 0.071061) = 2.283530 → RD′ = 2.283530 · 173.7178 = 396.69
    // winner: μ′ = φ′²·g·(1 − E) = 5.214509 · 0.533146 · 0.5 = 1.390047 → r′ = 1500 + 1.390047·173.7178 = 1741.48
    // loser: μ′ = −1.390047 → r′ = 1258.52 (symmetric)
    const fresh = { rating: GLICKO.rating, rd: GLICKO.rd, volatility: GLICKO.volatility };
    const winner = rateGame(fresh, fresh, 1, 0);
    const loser = rateGame(fresh, fresh, 0, 0);
    expect(winner.rating).toBeCloseTo(1741.48, 2);
    expect(winner.rd).toBeCloseTo(396.69, 2);
    expect(loser.rating).toBeCloseTo(1258.52, 2);
    expect(loser.rd).toBeCloseTo(396.69, 2);
    expect(isProvisional(winner)).toBe(true);
  });

  test("a new bot (2000/500) loses to a settled human (1500/60): the favourite's loss costs much", () => {
    // φ = 2.878231 (RD 500); φj = 60/173.7178 = 0.345388; g(φj) = 1/√(1 + 3·0.119293/9.869604) = 0.982348
    // μ = (2000 − 1500)/173.7178 = 2.878231; E = 1/(1 + e^(−0.982348·2.878231)) = 0.944140
    // v = 1/(g²·E·(1−E)) = 1/(0.965008·0.944140·0.055860) = 19.648597
    // φ′ = 1/√(1/φ² + 1/v) = 1/√(0.120710 + 0.050894) = 2.413983 → RD′ = 419.35
    // μ′ = μ + φ′²·g·(0 − E) = 2.878231 + 5.827312·0.982348·(−0.944140) = −2.526346 … on the Glicko
    // scale r′ = 2000 + φ′²·g·(−E)·173.7178 = 2000 − 938.89 = 1061.11
    const next = rateGame(
      { rating: GLICKO.botRating, rd: 500, volatility: 0.09 },
      { rating: 1500, rd: 60, volatility: 0.06 },
      0,
      0,
    );
    expect(next.rating).toBeCloseTo(1061.11, 2);
    expect(next.rd).toBeCloseTo(419.35, 2);
  });

  test('days since the last rated game are rating periods: RD grows by √(φ² + days·0.21436·σ′²)', () => {
    // A settled player 1600/50/0.06 draws 1600/50 after 100 days away: E = 0.5, score ½, so μ′ = μ
    // (Σ g·(s − E) = 0) and Δ = 0, the volatility barely moves (σ′ ≈ σ; checked against f(x) = 0).
    const player = { rating: 1600, rd: 50, volatility: 0.06 };
    const next = rateGame(player, { rating: 1600, rd: 50, volatility: 0.06 }, 0.5, 100);
    expect(next.rating).toBeCloseTo(1600, 6);
    // φ = 50/173.7178 = 0.287824; g = 1/√(1 + 3·0.082843/π²) = 0.987727; v = 1/(g²·0.25) = 4.100015
    // periods = 100 · 0.21436 = 21.436; φ* = √(φ² + 21.436·σ′²)
    const phi = 50 / SCALE;
    const g = 1 / Math.sqrt(1 + (3 * phi * phi) / Math.PI ** 2);
    const v = 1 / (g * g * 0.25);
    const phiStar = Math.sqrt(phi * phi + 21.436 * next.volatility ** 2);
    const phiNew = 1 / Math.sqrt(1 / phiStar ** 2 + 1 / v);
    expect(next.rd).toBeCloseTo(phiNew * SCALE, 6);
    // σ′ solves f(x) = 0 (step 5) with Δ = 0: f(x) = eˣ(−φ² − v − eˣ)/(2(φ² + v + eˣ)²) − (x − ln σ²)/τ²
    const x = Math.log(next.volatility ** 2);
    const f =
      (Math.exp(x) * (-(phi * phi) - v - Math.exp(x))) / (2 * (phi * phi + v + Math.exp(x)) ** 2) -
      (x - Math.log(0.06 ** 2)) / 0.75 ** 2;
    expect(Math.abs(f)).toBeLessThan(1e-5);
    // Without the 100 days (no period), RD shrinks below 50; with them it ends above the plain φ′.
    expect(next.rd).toBeGreaterThan(rateGame(player, player, 0.5, 0).rd);
  });

  test('RD stays within 45 … 500 and the idle preview is capped at 500', () => {
    const settled = { rating: 1700, rd: 45, volatility: 0.06 };
    expect(rateGame(settled, settled, 1, 0).rd).toBe(GLICKO.minRd);
    expect(decayedRd({ rating: 1500, rd: 400, volatility: 0.09 }, 100_000)).toBe(GLICKO.maxRd);
    // 365 idle days: √((45/173.7178)² + 365·0.21436·0.06²)·173.7178 = √(0.067101 + 0.281669)·173.7178 = 102.59
    expect(decayedRd(settled, 365)).toBeCloseTo(102.59, 1);
    expect(isProvisional({ rd: 109.9 })).toBe(false);
    expect(isProvisional({ rd: 110 })).toBe(true);
  });
});
