#!/bin/sh
# docker compose --profile cluster: creates the Redis Cluster once (half the nodes given masters,
# each of the others a replica of one), then waits until every node says cluster_state:ok, so
# that the Boardhost nodes start against a cluster that serves every slot. On a cluster that exists
# already (a later `up`), it only waits.
set -eu
first="$1"
if ! redis-cli -h "${first%:*}" -p "${first##*:}" cluster info | grep -q "^cluster_known_nodes:$#"; then
  redis-cli --cluster create "$@" --cluster-replicas 1 --cluster-yes
fi
for node in "$@"; do
  until redis-cli -h "${node%:*}" -p "${node##*:}" cluster info | grep -q '^cluster_state:ok'; do
    sleep 0.5
  done
done
echo "Redis Cluster ok: $*"
