# Sourced by tools/compare-revs and tools/bisect, so a commit is exported and built one way
# whichever tool asks: the same flags give comparable counts, and the same directory layout lets
# each tool reuse the other's builds (WORK/<first 12 digits of the commit>/).

# revision_export ROOT COMMIT DIR: DIR/src holds `git archive COMMIT` of the repository at ROOT
# (kept when a previous run exported it).
revision_export() {
  local root=$1 commit=$2 dir=$3
  [[ -f "$dir/src/CMakeLists.txt" ]] && return 0
  echo "${tool:-revision}: exporting ${commit:0:12}" >&2
  rm -rf "$dir/src" && mkdir -p "$dir/src"
  git -C "$root" archive "$commit" | tar -x -C "$dir/src" ||
    { echo "${tool:-revision}: exporting ${commit:0:12} failed" >&2; return 1; }
}

# revision_build COMMIT DIR NAME: moqbench of DIR/src built into DIR/src/build/revision/NAME
# (Release, no tests, the commit recorded in its results); prints the binary's path. Logs:
# DIR/NAME-configure.log and DIR/NAME.log. Building again is a no-op when nothing changed.
# The build folder sits three levels under the sources, as a test tree's Release copy does
# (build/test/uninstrumented): under ccache with paths relative to the sources (CCACHE_BASEDIR),
# the same commit's objects then hash the same wherever the tree is, and one build serves another.
revision_build() {
  local commit=$1 dir=$2 name=$3
  local out="$dir/src/build/revision/$name"
  echo "${tool:-revision}: building ${commit:0:12} in src/build/revision/$name/" >&2
  cmake -S "$dir/src" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMOQ_TESTS=OFF \
    -DMOQ_GIT_COMMIT="$commit" >"$dir/$name-configure.log" 2>&1 ||
    { echo "${tool:-revision}: configuring ${commit:0:12} failed, see $dir/$name-configure.log" >&2; return 1; }
  cmake --build "$out" --target moqbench --parallel "$(nproc)" >"$dir/$name.log" 2>&1 ||
    { echo "${tool:-revision}: building ${commit:0:12} failed (does it have moqbench?), see $dir/$name.log" >&2; return 1; }
  echo "$out/harness/cli/moqbench"
}

# revision_check_sweep BIN ARGS...: 0 when BIN's `sweep ARGS --list` accepts ARGS and selects at
# least one case; otherwise says why, with the valid flags, and returns 2 (1 when moqbench failed
# for another reason than bad input). `--list` prints the selected ids and measures nothing, so a
# wrong flag costs one build, not every build.
revision_check_sweep() {
  local bin=$1
  shift
  local listed status=0
  listed=$("$bin" sweep "$@" --list 2>&1) || status=$?
  if [[ $status -ne 0 ]]; then
    echo "${tool:-revision}: the sweep arguments '$*' are refused by the first build's moqbench:" >&2
    echo "$listed" >&2
    [[ $status -eq 2 ]] || return 1
    echo "${tool:-revision}: the sweep's flags: $("$bin" sweep --help 2>/dev/null |
      grep -oE '^ +(-[a-z],)?--[a-z-]+' | sed -E 's/^ +(-[a-z],)?//' | grep -vx -- --help |
      paste -sd' ')" >&2
    return 2
  fi
  [[ -n "$listed" ]] ||
    { echo "${tool:-revision}: the sweep arguments '$*' select no case" >&2; return 2; }
}

# revision_check_case BIN CASE: 0 when BIN's `run` accepts CASE; otherwise says why, with the
# nearest case ids of BIN's default sweep (those of the same scenario, else the first few), and
# returns 2 (1 when the case was accepted but failed). `run` has no dry run in every revision, so
# the check is one round without a counter and without warmup: a bad id is refused before
# anything runs, a good one costs that one round.
revision_check_case() {
  local bin=$1 id=$2 said status=0 kept
  # Its results go to a file of its own, removed after: without --out a revision may keep them in
  # its results folder.
  kept=$(mktemp)
  said=$("$bin" run "$id" --counter none --rounds 1 --warmup 0 --out "$kept" 2>&1 >/dev/null) ||
    status=$?
  rm -f "$kept"
  [[ $status -eq 0 ]] && return 0
  if [[ $status -ne 2 ]]; then
    echo "${tool:-revision}: trying case '$id' with the first build's moqbench failed (exit $status):" >&2
    echo "$said" >&2
    return 1
  fi
  echo "${tool:-revision}: case '$id' is refused by the first build's moqbench:" >&2
  echo "$said" >&2
  local scenario all near
  scenario=$(cut -d/ -f2 <<<"$id")
  all=$("$bin" sweep --list 2>/dev/null || true)
  near=$(awk -F/ -v s="$scenario" '$2 == s' <<<"$all" | head -n 10)
  [[ -n "$near" ]] || near=$(head -n 10 <<<"$all")
  [[ -n "$near" ]] && { echo "${tool:-revision}: valid case ids include:" >&2; sed 's/^/  /' <<<"$near" >&2; }
  return 2
}
