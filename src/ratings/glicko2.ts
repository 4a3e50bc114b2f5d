// Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2022), one game at a time as lichess
// rates: the time since a player's last rated game in the perf counts as fractional rating
// periods (RATING_PERIODS_PER_DAY a day) in step 6, so an idle player's RD grows. Pure: no store,
// no clock (the caller passes the elapsed days).

/** A rating on the Glicko scale. */
export interface Glicko {
  readonly rating: number;
  /** Rating deviation. */
  readonly rd: number;
  readonly volatility: number;
}

/** lichess's constants. */
export const GLICKO = {
  /** A human's first rating; bots start at BOT_RATING. */
  rating: 1500,
  botRating: 2000,
  rd: 500,
  volatility: 0.09,
  tau: 0.75,
  minRd: 45,
  maxRd: 500,
  /** A rating is provisional while its RD is at least this. */
  provisionalRd: 110,
  ratingPeriodsPerDay: 0.21436,
} as const;

/** The Glicko scale ↔ the Glicko-2 scale (step 2). */
export const SCALE = 173.7178;
const CONVERGENCE = 0.000001;
const MAX_ITERATIONS = 1000;

/** One result of a rating period: the opponent as rated when the game was played, and the score (1, ½, 0). */
export interface GlickoResult {
  readonly opponent: Glicko;
  readonly score: number;
}

export interface UpdateOptions {
  /** τ: how much the volatility may change (default lichess's 0.75). */
  readonly tau?: number;
  /** Rating periods elapsed (step 6): 1 in Glickman's example; lichess: days × 0.21436. */
  readonly periods: number;
  /** Clamp the new RD to [minRd, maxRd] (lichess's 45 … 500); default none. */
  readonly clamp?: { readonly minRd: number; readonly maxRd: number };
}

function g(phi: number): number {
  return 1 / Math.sqrt(1 + (3 * phi * phi) / (Math.PI * Math.PI));
}

function expected(mu: number, muJ: number, phiJ: number): number {
  return 1 / (1 + Math.exp(-g(phiJ) * (mu - muJ)));
}

/** Step 5: the new volatility, by the Illinois algorithm. */
function newVolatility(sigma: number, phi: number, v: number, delta: number, tau: number): number {
  const a = Math.log(sigma * sigma);
  const f = (x: number) =>
    (Math.exp(x) * (delta * delta - phi * phi - v - Math.exp(x))) / (2 * (phi * phi + v + Math.exp(x)) ** 2) -
    (x - a) / (tau * tau);
  let A = a;
  let B: number;
  if (delta * delta > phi * phi + v) {
    B = Math.log(delta * delta - phi * phi - v);
  } else {
    let k = 1;
    while (f(a - k * tau) < 0) k++;
    B = a - k * tau;
  }
  let fA = f(A);
  let fB = f(B);
  for (let i = 0; Math.abs(B - A) > CONVERGENCE; i++) {
    if (i === MAX_ITERATIONS) throw new Error('Glicko-2: the volatility did not converge');
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2;
    }
    B = C;
    fB = fC;
  }
  return Math.exp(A / 2);
}

/** The player's rating after a rating period with `results` (steps 1–8 of Glickman's paper). */
export function updateGlicko(
  player: Glicko,
  results: readonly GlickoResult[],
  options: UpdateOptions,
): Glicko {
  const tau = options.tau ?? GLICKO.tau;
  const mu = (player.rating - 1500) / SCALE;
  const phi = player.rd / SCALE;
  const sigma = player.volatility;
  let newPhi: number;
  let newMu = mu;
  let newSigma = sigma;
  if (results.length === 0) {
    newPhi = Math.sqrt(phi * phi + options.periods * sigma * sigma);
  } else {
    let vInverse = 0;
    let sum = 0;
    for (const { opponent, score } of results) {
      const muJ = (opponent.rating - 1500) / SCALE;
      const phiJ = opponent.rd / SCALE;
      const e = expected(mu, muJ, phiJ);
      vInverse += g(phiJ) ** 2 * e * (1 - e);
      sum += g(phiJ) * (score - e);
    }
    const v = 1 / vInverse;
    newSigma = newVolatility(sigma, phi, v, v * sum, tau);
    const phiStar = Math.sqrt(phi * phi + options.periods * newSigma * newSigma);
    newPhi = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
    newMu = mu + newPhi * newPhi * sum;
  }
  let rd = newPhi * SCALE;
  if (options.clamp) rd = Math.min(options.clamp.maxRd, Math.max(options.clamp.minRd, rd));
  return { rating: newMu * SCALE + 1500, rd, volatility: newSigma };
}

/** A player's RD after `days` without a rated game (lichess's preview of step 6), at most maxRd. */
export function decayedRd(player: Glicko, days: number): number {
  const phi = player.rd / SCALE;
  const periods = Math.max(0, days) * GLICKO.ratingPeriodsPerDay;
  return Math.min(GLICKO.maxRd, Math.sqrt(phi * phi + periods * player.volatility ** 2) * SCALE);
}

/**
 * lichess's update after one rated game: the days since the player's last rated game in the perf
 * are rating periods (0 for a first game), τ 0.75, the new RD within 45 … 500.
 */
export function rateGame(player: Glicko, opponent: Glicko, score: number, daysSinceLast: number): Glicko {
  return updateGlicko(player, [{ opponent, score }], {
    tau: GLICKO.tau,
    periods: Math.max(0, daysSinceLast) * GLICKO.ratingPeriodsPerDay,
    clamp: { minRd: GLICKO.minRd, maxRd: GLICKO.maxRd },
  });
}

export function isProvisional(rating: Pick<Glicko, 'rd'>): boolean {
  return rating.rd >= GLICKO.provisionalRd;
}
