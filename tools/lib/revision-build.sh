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

# revision_build COMMIT DIR NAME: moqbench of DIR/src built into DIR/NAME (Release, no tests, the
# commit recorded in its results); prints the binary's path. Logs: DIR/NAME-configure.log and
# DIR/NAME.log. Building again is a no-op when nothing changed.
revision_build() {
  local commit=$1 dir=$2 name=$3
  echo "${tool:-revision}: building ${commit:0:12} in $name/" >&2
  cmake -S "$dir/src" -B "$dir/$name" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMOQ_TESTS=OFF \
    -DMOQ_GIT_COMMIT="$commit" >"$dir/$name-configure.log" 2>&1 ||
    { echo "${tool:-revision}: configuring ${commit:0:12} failed, see $dir/$name-configure.log" >&2; return 1; }
  cmake --build "$dir/$name" --target moqbench --parallel "$(nproc)" >"$dir/$name.log" 2>&1 ||
    { echo "${tool:-revision}: building ${commit:0:12} failed (does it have moqbench?), see $dir/$name.log" >&2; return 1; }
  echo "$dir/$name/harness/cli/moqbench"
}
