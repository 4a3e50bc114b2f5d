import { congoEngine } from '../../../src/engines/congo';
import { describeEngineContract } from '../contract';

describeEngineContract(congoEngine, { optionSets: [{}] });
