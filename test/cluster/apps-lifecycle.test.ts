// The account lifecycle of apps (test/apps/lifecycle.ts) on a real Redis Cluster: suspend, ban with
// streams ended on another node, and erase leaving no personal datum on any master.
import { describeLifecycle } from '../apps/lifecycle';

describeLifecycle('cluster');
