#!/bin/sh
# Hook program of the host differential check (tests/e2e/host_diff).
# Usage: diff_hook.sh NAME. Behaviour comes from files in $AH_DIFF_DIR:
#   NAME.sleep (seconds to sleep first), NAME.pad (that many blanks on stdout first),
#   NAME.out (stdout), NAME.err (stderr), NAME.hold (leave a background process holding
#   stdout/stderr open for that many seconds), NAME.rc (exit code).
# Every call records its stdin as $AH_DIFF_DIR/stdin.NAME.<pid> before doing anything else,
# so the calls a runner made (and the exact payload) can be compared afterwards.
d=${AH_DIFF_DIR:?AH_DIFF_DIR is not set}
n=$1
cat >"$d/stdin.$n.$$"
if [ -f "$d/$n.sleep" ]; then sleep "$(cat "$d/$n.sleep")"; fi
if [ -f "$d/$n.pad" ]; then head -c "$(cat "$d/$n.pad")" /dev/zero | tr '\0' ' '; fi
if [ -f "$d/$n.out" ]; then cat "$d/$n.out"; fi
if [ -f "$d/$n.err" ]; then cat "$d/$n.err" >&2; fi
if [ -f "$d/$n.hold" ]; then (sleep "$(cat "$d/$n.hold")" &); fi
if [ -f "$d/$n.rc" ]; then exit "$(cat "$d/$n.rc")"; fi
exit 0
