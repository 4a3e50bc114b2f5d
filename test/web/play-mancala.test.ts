// Kalah and Oware in the playground: two browser contexts open the two seat links and play a whole
// game by clicking houses the page highlights; each sees the other's moves live, and the result
// shown is the API's. A small Kalah and a late Oware position keep the games short. (Congkak:
// play-congkak.test.ts; one browser per file keeps each file short.)
import { playground } from '../support/browser';
import { playMancalaByClicking } from '../support/play';

describe('Kalah and Oware in the playground', () => {
  const pg = playground();

  it('Kalah: two seats play a whole game by clicking', async () => {
    await playMancalaByClicking(pg, 'kalah', { kind: 'kalah', options: { houses: 3, seeds: 2 } });
  }, 40_000);

  it('Oware: two seats play a whole game by clicking', async () => {
    await playMancalaByClicking(pg, 'oware', {
      kind: 'oware',
      position: '0,0,0,1,0,1/1,0,0,0,0,0 stores 22-23 S',
    });
  }, 40_000);
});
