// Congkak in the playground: two browser contexts open the two seat links and play a whole game
// (five houses of one seed, clockwise, two stores) by clicking houses the page highlights; each sees
// the other's moves live, and the result shown is the API's.
import { playground } from '../support/browser';
import { playMancalaByClicking } from '../support/play';

describe('Congkak in the playground', () => {
  const pg = playground();

  it('Congkak: two seats play a whole game by clicking', async () => {
    await playMancalaByClicking(pg, 'congkak', { kind: 'congkak', options: { houses: 5, seeds: 1 } });
  }, 40_000);
});
