import { russianDraughts } from '../../../src/engines/draughts';
import { describeEngineContract } from '../contract';

describeEngineContract(russianDraughts, { optionSets: [{}] });
