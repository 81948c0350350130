// libmoq_dhat_round.so: preloaded into a moqbench run under `valgrind --tool=dhat --mode=ad-hoc`
// by `moqbench explain --allocations` (harness/cli/allocation_sites.h), it turns every allocation
// the counting layer counts inside a measured round into one DHAT event, weighted by the bytes
// requested, with the backtrace of the allocation. DHAT keeps one backtrace per event, so its
// output is the round's allocation sites with their counts and bytes.
//
// Why a wrapper and not DHAT's own heap profile: DHAT cannot be switched on and off, so its heap
// profile would mix set-up, warm-up and teardown into the round; and the counting layer replaces
// malloc and operator new in the binary, which the run keeps (valgrind is told to leave them,
// --soname-synonyms=somalloc=nouserintercepts) so the allocations seen are the ones the harness
// counts, no more and no fewer.
//
// Valgrind wraps functions by name (valgrind.h, "Function wrapping") in the main executable
// (soname NONE): moq_count_allocation, which the counting layer calls once per allocation
// (alloc_counter.h), and the runner's round markers (harness/runner/round_markers.h). Outside
// valgrind the wrappers are never called, and only this run loads the library, so no other
// measurement, callgrind's included, runs a wrapper. The begin marker leaves an event of weight 0
// too, so the reader can tell a binary whose rounds were marked from a round that allocated
// nothing. Per thread, as the counting layer counts.
#include <valgrind/dhat.h>
#include <valgrind/valgrind.h>

#include <cstddef>

namespace {
thread_local bool in_measured_round = false;
}  // namespace

extern "C" {

void I_WRAP_SONAME_FNNAME_ZU(NONE, moq_measured_round_begin)() {
  OrigFn fn;
  VALGRIND_GET_ORIG_FN(fn);
  CALL_FN_v_v(fn);
  DHAT_AD_HOC_EVENT(0);
  in_measured_round = true;
}

void I_WRAP_SONAME_FNNAME_ZU(NONE, moq_measured_round_end)() {
  OrigFn fn;
  VALGRIND_GET_ORIG_FN(fn);
  in_measured_round = false;
  CALL_FN_v_v(fn);
}

void I_WRAP_SONAME_FNNAME_ZU(NONE, moq_count_allocation)(size_t size) {
  OrigFn fn;
  VALGRIND_GET_ORIG_FN(fn);
  if (in_measured_round) DHAT_AD_HOC_EVENT(size);
  CALL_FN_v_W(fn, size);
}

}  // extern "C"
