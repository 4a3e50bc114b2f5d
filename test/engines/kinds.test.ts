// Every kind in the list: its descriptor agrees with its engine (./kinds.ts).
import { describeKindContracts } from './kinds';

describeKindContracts();
