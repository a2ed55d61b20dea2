# Sourced by .ci/run and .ci/other-node: `phase NAME COMMAND…` runs the command and says how long it took,
# at once and again in `phases_summary`, so a slow CI run shows where its time went.
phase_lines=()
phase() {
  local name="$1" start="$SECONDS" status=0
  shift
  "$@" || status=$?
  local line
  line="$(printf '%-28s %4d s' "$name" "$((SECONDS - start))")"
  [ "$status" -eq 0 ] || line="$line (FAILED, exit $status)"
  phase_lines+=("$line")
  echo "== phase: $line"
  return "$status"
}
phases_summary() {
  echo "== phases ($1):"
  printf '   %s\n' "${phase_lines[@]}"
}
