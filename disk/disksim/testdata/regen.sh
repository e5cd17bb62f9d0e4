#!/bin/sh
# regen.sh: regenerate oracle-corpus.txt.gz, DiskSim 4.0's per-request
# results on the generated model/stream pairs that the oracle package's
# tests replay (disk/disksim/internal/oracle). Needs the DiskSim binary
# and run-reqlog.sh of ../shared/tools/disksim (BUILD.md there) and
# ../shared/disksim-models/statdefs; RAIDSIM_SHARED names another shared
# folder. Takes a few minutes; prints each pair's agreement with exact
# mode as it goes and fails if any pair disagrees (the corpus is still
# written: the tests then show the difference).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
shared=${RAIDSIM_SHARED:-$root/../shared}
cd "$root"
exec go run ./disk/disksim/internal/oracle/cmd/oracle -shared "$shared" \
	-from 0 -to 340 -total 340 -seed 21 -n 2000 -regen "$here/oracle-corpus.txt.gz" "$@"
